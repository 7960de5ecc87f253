/**
 * The instance's background jobs (src/jobs/scheduler.ts) start in order and stop in reverse, each
 * stop waited for before the next: what the app's shutdown relies on (the operator feed flushes
 * into the outbox before the outbox stops; a broadcast's leadership goes last).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { atShutdown, createScheduler, everyInterval, job } from '../../src/jobs/scheduler.ts';
import { backgroundJobs, depositCreditsEveryMs, type JobParts } from '../../src/app-jobs.ts';
import { silentLogger } from '../../src/logger.ts';
import { startWorld } from '../helpers/app.ts';

describe('scheduler', () => {
  it('starts jobs in order and stops them in reverse, each stop finished before the next begins', async () => {
    const events: string[] = [];
    const runs = (name: string) => ({
      start: () => void events.push(`start ${name}`),
      stop: async () => {
        events.push(`stopping ${name}`);
        await new Promise((resolve) => setImmediate(resolve));
        events.push(`stopped ${name}`);
      },
    });
    const scheduler = createScheduler([job('a', runs('a')), atShutdown('b', () => void events.push('b at shutdown')), job('c', runs('c'))]);
    scheduler.start();
    scheduler.start();
    expect(events).toEqual(['start a', 'start c']);
    await scheduler.stop();
    expect(events.slice(2)).toEqual(['stopping c', 'stopped c', 'b at shutdown', 'stopping a', 'stopped a']);
  });

  it('an interval job reports a failed pass and runs the next on time', async () => {
    const errors: unknown[] = [];
    let passes = 0;
    const ticking = everyInterval(
      't',
      5,
      () => (++passes === 1 ? Promise.reject(new Error('first pass failed')) : Promise.resolve()),
      (error) => errors.push(error),
    );
    ticking.start();
    await expect.poll(() => passes, { timeout: 2000 }).toBeGreaterThanOrEqual(2);
    await ticking.stop();
    expect(errors).toHaveLength(1);
  });

  it("the app's jobs: the operator feed stops before the outbox, a broadcast's leadership after it", async () => {
    const world = await startWorld({ polling: false });
    try {
      const names = world.app.jobs.names();
      expect(names.indexOf('operator-feed')).toBeGreaterThan(names.indexOf('outbox'));
      expect(names.indexOf('broadcast-leadership')).toBeLessThan(names.indexOf('outbox'));
      expect(names).toEqual(expect.arrayContaining(['settlement-watcher', 'daily-summaries', 'price-watch', 'balance-alerts']));
    } finally {
      await world.stop();
    }
  });
});

describe('a stop waits for the pass in flight', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A pass that ends when `finish` is called. */
  function heldPass() {
    let finish!: () => void;
    let passes = 0;
    const pass = () => {
      passes += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    };
    return { pass, finish: () => finish(), passes: () => passes };
  }

  it('an interval job: its stop resolves only once the running pass ended, and no pass starts after it', async () => {
    vi.useFakeTimers();
    const held = heldPass();
    const ticking = everyInterval('t', 1000, held.pass, () => undefined);
    ticking.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(held.passes()).toBe(1);
    let stopped = false;
    const stopping = Promise.resolve(ticking.stop()).then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    held.finish();
    await stopping;
    expect(stopped).toBe(true);
    expect(held.passes()).toBe(1);
  });

  it("the app's daily summaries: shutting the jobs down waits for the summary pass in flight (the store is closed after it)", async () => {
    vi.useFakeTimers();
    const held = heldPass();
    const idle = { start: () => undefined, stop: () => undefined };
    const parts = {
      config: { databaseUrl: undefined, backups: { everyMs: 0 }, claims: { leaseMs: 30_000 } },
      intervals: {},
      logger: silentLogger,
      dataDirectory: undefined,
      outbox: idle,
      operatorFeed: { close: () => undefined },
      broadcaster: { ...idle, release: () => undefined, wake: () => undefined },
      watcher: idle,
      summaries: { runOnce: () => held.pass().then(() => 0) },
      priceWatch: idle,
      services: { alerts: { checkAll: () => Promise.resolve() } },
    } as unknown as JobParts;
    const scheduler = createScheduler(backgroundJobs(parts));
    scheduler.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(held.passes()).toBe(1);
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(stopped).toBe(false);
    held.finish();
    await stopping;
    expect(stopped).toBe(true);
  });
});

describe('the accepted-deposit pass (DOWNLINES=true)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with DOWNLINES, the accepted-deposit pass runs at start and every 10 minutes; a failed pass is logged and the next one runs', async () => {
    vi.useFakeTimers();
    const idle = { start: () => undefined, stop: () => undefined };
    let passes = 0;
    const warnings: string[] = [];
    const parts = {
      config: { databaseUrl: undefined, downlines: true, backups: { everyMs: 0 }, claims: { leaseMs: 30_000 } },
      intervals: {},
      logger: { ...silentLogger, warn: (message: string) => void warnings.push(message) },
      dataDirectory: undefined,
      outbox: idle,
      operatorFeed: { close: () => undefined },
      broadcaster: { ...idle, release: () => undefined, wake: () => undefined },
      watcher: idle,
      summaries: { runOnce: () => Promise.resolve(0) },
      priceWatch: idle,
      services: {
        alerts: { checkAll: () => Promise.resolve() },
        wallets: {
          finishAccepted: () =>
            ++passes === 2 ? Promise.reject(new Error('ENOSPC')) : Promise.resolve({ credited: 0, refused: [] as string[] }),
        },
      },
    } as unknown as JobParts;
    const scheduler = createScheduler(backgroundJobs(parts));
    scheduler.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(depositCreditsEveryMs - 1);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toBe(2);
    expect(warnings).toEqual(['the pass over accepted deposits failed; the next one tries again']);
    await vi.advanceTimersByTimeAsync(depositCreditsEveryMs);
    expect(passes).toBe(3);
    await scheduler.stop();
  });
});
