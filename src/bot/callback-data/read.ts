/** What `read` returns from a button's callback data, or undefined when the data does not unpack (an old or forged button). */
export function readCallback<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A callback-data builder of the `callback-data` package. */
interface CallbackDataOf<T> {
  unpack(data: string): T;
  filter(): RegExp;
}

/**
 * What `accept` makes of `builder`'s fields in `data`, or undefined for data of another button and
 * for malformed or forged data (it does not unpack, or `accept` refuses it).
 */
export function readData<T, R>(builder: CallbackDataOf<T>, data: string | undefined, accept: (fields: T) => R | undefined): R | undefined {
  if (data === undefined || !builder.filter().test(data)) return undefined;
  return readCallback(() => accept(builder.unpack(data)));
}

/** True when `value` is one of `values` (an action read from callback data, say). */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/** Callback data `pack` makes, or undefined when it would not fit Telegram's 64 bytes or a value holds the `:` delimiter. */
export function packIfFits(pack: () => string): string | undefined {
  try {
    const data = pack();
    return Buffer.byteLength(data, 'utf8') <= 64 ? data : undefined;
  } catch {
    return undefined;
  }
}
