/**
 * The broadcast runner's hold on the fleet's broadcast lock (jobs/broadcast-leadership.ts): it holds
 * the lock exactly while it has a job to deliver, and gives it up for good at `release()`. The store
 * answers are held open by gates, so each interleaving is reached on purpose, not by timing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTempDirs, dbOf, openTestStore } from '../store/helpers.ts';
import { createLogger } from '../../src/logger.ts';
import { createBroadcastRunner } from '../../src/jobs/broadcast.ts';
import type { BulkSource } from '../../src/notify/bulk.ts';
import type { Db } from '../../src/store/db.ts';
import { fleetLocks } from '../../src/store/fleet-locks.ts';

const dirs = createTempDirs();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  dirs.cleanup();
});

const logger = createLogger({ level: 'error', write: () => undefined });

/** Lets every promise chain already under way run as far as it can. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A gate on one store method: once closed, its calls wait until `open()`. */
function gate<T extends object, K extends keyof T>(target: T, method: K) {
  const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
  let closed = false;
  let open = () => undefined as void;
  let opened = Promise.resolve();
  let waiting = 0;
  let answered = 0;
  (target as Record<K, unknown>)[method] = async (...args: unknown[]) => {
    if (closed) {
      waiting += 1;
      await opened;
    }
    try {
      return await original(...args);
    } finally {
      answered += 1;
    }
  };
  return {
    close() {
      closed = true;
      opened = new Promise<void>((resolve) => (open = resolve));
    },
    open() {
      closed = false;
      open();
    },
    get waiting() {
      return waiting;
    },
    get answered() {
      return answered;
    },
  };
}

/** Whether another holder gets the broadcast lock now (it gives it back at once). */
async function lockIsFree(db: Db): Promise<boolean> {
  let taken = false;
  void db.chatLocks.run(fleetLocks.broadcast, () => Promise.resolve(void (taken = true)));
  await settle();
  return taken;
}

async function openRunner() {
  const { store } = await openTestStore(dirs.make());
  const db = dbOf(store);
  let source: BulkSource | undefined;
  const runner = createBroadcastRunner({
    db,
    logger,
    paid: false,
    translate: (_locale, key) => key,
    defaultLocale: 'id',
    enqueue: () => Promise.resolve(),
    kick: () => undefined,
    attach: (attached) => (source = attached),
  });
  cleanups.push(async () => {
    await runner.stop();
    runner.release();
    await store.close();
  });
  return { db, runner, delivering: () => source !== undefined };
}

const job = (id: string) => ({ id, adminId: 1, fromChatId: 1, messageId: 5, audience: { kind: 'all' as const }, recipients: [10, 11] });

/** A runner leading a running job, then woken while the store's look for a running job is held. */
async function wokenSlowly() {
  const { db, runner } = await openRunner();
  await db.broadcasts.create(job('job1'));
  runner.start();
  await vi.waitFor(async () => expect(await lockIsFree(db)).toBe(false));
  const slow = gate(db.broadcasts, 'runningProgress');
  slow.close();
  runner.wake();
  await settle();
  return { db, runner, slow };
}

describe('broadcast leadership', () => {
  it('a wake still under way when the runner stops keeps the leadership until release(): the copies in flight are recorded first', async () => {
    // The wake's look for a running job answers only after the stop (a slow database).
    const { db, runner, slow } = await wokenSlowly();
    await runner.stop();
    slow.open();
    await settle();
    expect(await lockIsFree(db), 'held until release()').toBe(false);
    runner.release();
    expect(await lockIsFree(db)).toBe(true);
  });

  it('release() before a slow look for a running job gives the lock up for good: the late answer does not take it again', async () => {
    const { db, runner, slow } = await wokenSlowly();
    await runner.stop();
    runner.release();
    slow.open();
    await settle();
    // Another instance resumes the job: this one is shutting down.
    expect(await lockIsFree(db)).toBe(true);
    expect(await lockIsFree(db), 'still free after the late answer').toBe(true);
  });

  it("a new job woken while a cancelled job's report is queued is delivered holding the lock", async () => {
    const { db, runner, delivering } = await openRunner();
    // A job cancelled while its runner was stopped: the next start queues its report as leader.
    await db.broadcasts.create(job('old'));
    await db.broadcasts.finish('old', 'cancelled');
    const report = gate(db.broadcasts, 'finish');
    report.close();
    runner.start();
    await vi.waitFor(() => expect(report.waiting).toBe(1));
    // An admin starts a new broadcast while that report is being written; loading it is slow.
    await db.broadcasts.create(job('new'));
    const load = gate(db.broadcasts, 'running');
    load.close();
    runner.wake();
    await settle();
    report.open();
    await vi.waitFor(() => expect(report.answered).toBe(1));
    await settle();
    load.open();
    await vi.waitFor(() => expect(delivering()).toBe(true));
    await settle();
    expect(await lockIsFree(db), 'the lock is held while the new job is delivered').toBe(false);
  });
});
