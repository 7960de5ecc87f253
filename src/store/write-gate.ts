import { writeFileAtomic, type AtomicWriter } from './durable-file.ts';

/**
 * Lets one task see the data directory while no file is being written: `hold` waits for the
 * writes in flight, keeps new ones waiting while the task runs, then lets them go. Changes go on
 * in memory meanwhile; their callers resolve once their write has landed, as always. A backup
 * taken under it reads one consistent state at the first try, however busy the bot is (an
 * outside reader, `npm run backup`, can only retry until it sees no write in between).
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
