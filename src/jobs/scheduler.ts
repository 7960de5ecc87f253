/**
 * The background jobs of an instance, by name: started in order once the bot receives updates,
 * stopped in the reverse order at shutdown, each stop waited for. The order is the dependency:
 * a job stopped later is still there for those stopped before it (the operator feed flushes into
 * the outbox before the outbox stops; a broadcast's leadership is let go only once the copies in
 * flight are recorded).
 */

/** A background job. */
export interface Job {
  name: string;
  start(): void;
  /** Stops it; resolves once its work in flight is done. */
  stop(): void | Promise<void>;
}

export interface Scheduler {
  /** Starts every job, in order. Idempotent. */
  start(): void;
  /** Stops every job started, in reverse order, one after another. */
  stop(): Promise<void>;
  /** The jobs' names, in start order (for logs and tests). */
  names(): string[];
}

/** Jobs run in the given order (see the module comment). */
export function createScheduler(jobs: readonly Job[]): Scheduler {
  let started = false;
  return {
    start() {
      if (started) return;
      started = true;
      for (const job of jobs) job.start();
    },
    async stop() {
      for (const job of [...jobs].reverse()) await job.stop();
      started = false;
    },
    names: () => jobs.map((job) => job.name),
  };
}

/** `runs` (anything that starts and stops) as the job `name`. */
export function job(name: string, runs: { start(): void; stop(): void | Promise<void> }): Job {
  return { name, start: () => runs.start(), stop: () => runs.stop() };
}

/** A job that only has something to do at shutdown (`stop`). */
export function atShutdown(name: string, stop: () => void | Promise<void>): Job {
  return { name, start: () => undefined, stop };
}

/**
 * A job that runs `pass` every `everyMs` (unref'd: it keeps no process alive), and with
 * `atStart` once when started too. A pass that fails goes to `onError`; the next one runs on
 * time. Its stop waits for the passes in flight: what is stopped after it (the store, at
 * shutdown) is not closed under a running pass.
 */
export function everyInterval(
  name: string,
  everyMs: number,
  pass: () => Promise<unknown>,
  onError: (error: unknown) => void,
  options: { atStart?: boolean } = {},
): Job {
  let timer: NodeJS.Timeout | undefined;
  const running = new Set<Promise<void>>();
  const tick = () => {
    const run = pass().then(
      () => undefined,
      (error: unknown) => onError(error),
    );
    running.add(run);
    void run.finally(() => running.delete(run));
  };
  return {
    name,
    start() {
      if (timer) return;
      timer = setInterval(tick, everyMs);
      timer.unref?.();
      if (options.atStart) tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.all(running);
    },
  };
}
