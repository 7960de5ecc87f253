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
      // Freed in the first reaction to the task's end, ahead of its caller's own `await`: a caller
      // arriving the moment the last task is done finds the key free and is not told it waited.
      const free = () => {
        if (tails.get(key) === tail) tails.delete(key);
      };
      const tail = result.then(free, free);
      tails.set(key, tail);
      return result;
    },
  };
}
