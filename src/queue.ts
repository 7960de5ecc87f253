/**
 * Work queued per key inside this process: a key's tasks run one after another, in the order they
 * were queued, while other keys' tasks run meanwhile. A task that fails does not stop the next; a
 * key whose queue ran empty leaves nothing behind.
 */
export interface KeyedQueue<K> {
  /** Runs `task` after the tasks queued for `key` before it; `waited` says whether there were any. */
  run<T>(key: K, task: (waited: boolean) => Promise<T>): Promise<T>;
}

export function createKeyedQueue<K>(): KeyedQueue<K> {
  /** The end of the last task queued per key. */
  const tails = new Map<K, Promise<void>>();
  return {
    run(key, task) {
      const before = tails.get(key);
      const result = (before ?? Promise.resolve()).then(() => task(before !== undefined));
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
