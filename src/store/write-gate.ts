import { writeFileAtomic, type AtomicWriter } from './durable-file.ts';

/**
 * Lets one task see the data directory with no file being written (`hold` waits for the writes in
 * flight and keeps new ones waiting): a backup under it reads one consistent state at the first
 * try, however busy the bot (an outside `npm run backup` can only retry).
 */
export interface WriteGate {
  /** `writer` made to wait while the gate is held. */
  wrap(writer?: AtomicWriter): AtomicWriter;
  /** Any write (an append, say) made to wait while the gate is held. */
  guard<A extends unknown[]>(write: (...args: A) => Promise<void>): (...args: A) => Promise<void>;
  /** Runs `task` with no write in flight and none starting; writes queued meanwhile go after it. */
  hold<T>(task: () => Promise<T>): Promise<T>;
}

export function createWriteGate(): WriteGate {
  let inFlight = 0;
  const drained: (() => void)[] = [];
  let held: Promise<void> | undefined;
  const guard = <A extends unknown[]>(write: (...args: A) => Promise<void>) => {
    return async (...args: A): Promise<void> => {
      while (held) await held;
      inFlight++;
      try {
        await write(...args);
      } finally {
        inFlight--;
        if (inFlight === 0) for (const resolve of drained.splice(0)) resolve();
      }
    };
  };
  return {
    wrap: (writer = writeFileAtomic) => guard(writer),
    guard,
    async hold(task) {
      while (held) await held;
      let release = () => {};
      held = new Promise<void>((resolve) => (release = resolve));
      try {
        if (inFlight > 0) await new Promise<void>((resolve) => drained.push(resolve));
        return await task();
      } finally {
        held = undefined;
        release();
      }
    },
  };
}
