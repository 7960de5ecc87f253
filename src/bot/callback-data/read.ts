/** What `read` returns from a button's callback data, or undefined when the data does not unpack (an old or forged button). */
export function readCallback<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
