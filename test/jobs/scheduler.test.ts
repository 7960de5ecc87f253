/**
 * The instance's background jobs (src/jobs/scheduler.ts) start in order and stop in reverse, each
 * stop waited for before the next: what the app's shutdown relies on (the operator feed flushes
 * into the outbox before the outbox stops; a broadcast's leadership goes last).
 */
import { describe, expect, it } from 'vitest';
import { atShutdown, createScheduler, everyInterval, job } from '../../src/jobs/scheduler.ts';
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
