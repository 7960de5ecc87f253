/**
 * The settlement watcher at scale (issue 15), on a real store with a fake purchase service: a
 * crowd of due transactions is checked once each at the pace of the bounds (not of the tick), an
 * account that cannot be checked holds back no other, and idle ticks touch no transaction.
 */
import { dbOf } from '../store/helpers.ts';
import { afterEach, describe, expect, vi } from 'vitest';
import { createSettlementWatcher, type SettlementWatcher } from '../../src/jobs/settlement.ts';
import { createLogger } from '../../src/logger.ts';
import type { Store } from '../../src/store/store.ts';
import { fakePurchases } from '../helpers/fake-purchases.ts';
import { createClock, purchase, storeTest } from '../store/helpers.ts';
import { createClaimHolder } from '../../src/store/claim-holder.ts';
import type { PurchaseService } from '../../src/services/purchases.ts';

const logger = createLogger({ level: 'error', write: () => undefined });
const start = '2025-01-31T06:00:00Z';
const hour = 3600_000;

/** `count` Pending transactions of `userId`, due `dueInMs` from the clock's start (negative: overdue). */
async function seedPending(store: Store, userId: number, count: number, dueInMs: number, prefix = `u${userId}`): Promise<string[]> {
  const nextCheckAt = new Date(Date.parse(start) + dueInMs).toISOString();
  const txs = await store.transactions.createMany(
    Array.from({ length: count }, (_, i) =>
      purchase(`${prefix}-${String(i).padStart(5, '0')}`, { userId, chatId: userId, status: 'Pending', nextCheckAt }),
    ),
  );
  return txs.map((tx) => tx.refId);
}

let watcher: SettlementWatcher | undefined;
afterEach(async () => {
  await watcher?.stop();
  watcher = undefined;
  vi.useRealTimers();
});

/** The watcher with a tick of an hour: only its own chaining gets through the checks due now. */
const hourlyWatcher = (store: Store, fake: ReturnType<typeof fakePurchases>, now: () => Date) =>
  createSettlementWatcher({ db: dbOf(store), purchases: fake.service, logger, now, horizonMs: 48 * hour, tickMs: hour });

describe('settlement watcher at scale', () => {
  storeTest(
    '2,000 due Pending transactions are each checked once, within the overall and per-account bounds, without waiting for ticks',
    async ({ stores }) => {
      const clock = createClock(start);
      const { store } = await stores.open(stores.dir(), { now: clock.now });
      const refIds: string[] = [];
      for (let userId = 1; userId <= 20; userId++) refIds.push(...(await seedPending(store, userId, 100, -userId * 1000)));
      clock.advance(1000);
      const fake = fakePurchases(store, { now: clock.now });
      // A tick of an hour: only the watcher's own chaining can get through 2,000 checks.
      watcher = hourlyWatcher(store, fake, clock.now);
      const listOpen = vi.spyOn(store.transactions, 'listOpen');
      watcher.start();
      await fake.checked(2000);
      await watcher.stop();

      expect(fake.calls.size).toBe(2000);
      expect([...fake.calls.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(fake.calls.keys())).toEqual(new Set(refIds));
      expect(fake.maxInFlight.overall).toBe(8);
      expect(fake.maxInFlight.perAccount).toBe(2);
      expect(store.transactions.due(clock.now().getTime())).toEqual([]);
      // Each pick read what was due from the index, never a copy of every open transaction.
      expect(listOpen).not.toHaveBeenCalled();
    },
  );

  storeTest(
    'a paused account with 1,000 due transactions, or one at its per-account bound, holds back no other account',
    async ({ stores }) => {
      const clock = createClock(start);
      const { store } = await stores.open(stores.dir(), { now: clock.now });
      await store.users.upsert({ id: 1, firstName: 'Paused' });
      await store.users.update(1, { recheckPause: { reason: 'ip_blocked', since: start } });
      const paused = await seedPending(store, 1, 1000, -3 * hour);
      const busy = await seedPending(store, 2, 1000, -2 * hour);
      const others = [...(await seedPending(store, 3, 10, -hour)), ...(await seedPending(store, 4, 10, -hour))];
      const fake = fakePurchases(store, { now: clock.now });
      watcher = hourlyWatcher(store, fake, clock.now);
      watcher.start();
      await fake.checkedAll(others);
      await watcher.stop();

      // The other accounts were served alongside the busy one, not after its 1,000.
      expect(others.every((refId) => fake.calls.get(refId) === 1)).toBe(true);
      expect(busy.filter((refId) => fake.calls.has(refId)).length).toBeLessThan(50);
      expect(paused.some((refId) => fake.calls.has(refId))).toBe(false);
      expect(fake.maxInFlight.perAccount).toBe(2);
    },
  );

  storeTest('idle ticks with 2,000 Pending transactions not yet due read no transaction', async ({ stores }) => {
    const clock = createClock(start);
    const { store } = await stores.open(stores.dir(), { now: clock.now });
    for (let userId = 1; userId <= 10; userId++) await seedPending(store, userId, 200, hour);
    const fake = fakePurchases(store, { now: clock.now });
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    watcher = createSettlementWatcher({ db: dbOf(store), purchases: fake.service, logger, now: clock.now, horizonMs: 48 * hour });
    const listOpen = vi.spyOn(store.transactions, 'listOpen');
    const get = vi.spyOn(store.transactions, 'get');
    const due = vi.spyOn(store.transactions, 'due');
    watcher.start();
    for (let tick = 0; tick < 60; tick++) {
      clock.advance(1000);
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(fake.calls.size).toBe(0);
    expect(listOpen).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
    expect(due.mock.results.every((result) => result.type === 'return' && (result.value as unknown[]).length === 0)).toBe(true);

    // Once they fall due, the next tick starts them.
    clock.advance(hour);
    await vi.advanceTimersByTimeAsync(1000);
    vi.useRealTimers();
    await fake.checked(2000);
    expect(fake.maxInFlight.overall).toBe(8);
  });
});

describe('settlement watcher under a claim holder', () => {
  storeTest(
    'an instance paused between claiming due checks and making them checks nothing when it wakes; the checks are made once the claims are taken again',
    async ({ stores }) => {
      const clock = createClock(start);
      const { store } = await stores.open(stores.dir(), { now: clock.now });
      // Two: the per-account bound, so one pass takes them all.
      const refIds = await seedPending(store, 1, 2, -1000);
      const fake = fakePurchases(store, { now: clock.now });
      // The process's own clock: a pause (SIGSTOP, a long GC) shows as a gap in it.
      let elapsed = 0;
      const holder = createClaimHolder({ instanceId: 'a', leaseMs: 30_000, renew: () => Promise.resolve(), elapsed: () => elapsed });
      const db = dbOf(store);
      const claimDue = db.transactions.claimDue.bind(db.transactions);
      let pauses = 1;
      vi.spyOn(db.transactions, 'claimDue').mockImplementation(async (...args) => {
        const claimed = await claimDue(...args);
        // Paused right after claiming, for longer than the lease: the claims may be another instance's now.
        if (claimed.length > 0 && pauses-- > 0) elapsed += 60_000;
        return claimed;
      });
      const logs: string[] = [];
      const watcherLogger = createLogger({ level: 'warn', write: (line) => logs.push((JSON.parse(line) as { msg: string }).msg) });
      watcher = createSettlementWatcher({
        db,
        purchases: fake.service,
        logger: watcherLogger,
        now: clock.now,
        horizonMs: 48 * hour,
        tickMs: hour,
        claims: holder,
      });
      await watcher.runOnce();
      expect(fake.calls.size).toBe(0);
      expect(logs).toContain('claim on a due check lost before it was made (this instance was paused past its lease): not made here');

      // The heartbeat takes a new token; once the old claims ran out, the checks are claimed again and made once each.
      await holder.beat();
      clock.advance(30_001);
      await watcher.runOnce();
      await fake.checkedAll(refIds);
      expect([...fake.calls.values()]).toEqual([1, 1]);
    },
  );
});

describe('settlement watcher claims end with the check', () => {
  storeTest(
    "a check that ends without writing (it waited for another sender's answer) lets its claim go: the heartbeat does not keep it, and the next check comes when due",
    async ({ stores }) => {
      const clock = createClock(start);
      const { store } = await stores.open(stores.dir(), { now: clock.now });
      const db = dbOf(store);
      const [refId = ''] = await seedPending(store, 1, 1, -1000);
      const checks: string[] = [];
      // As the purchase service answers a check that waited for another sender (whose claim then went
      // with its connection): the transaction as stored, nothing written.
      const purchases = {
        check: async (ref: string) => {
          checks.push(ref);
          return (await store.transactions.find(ref))!;
        },
        submit: () => Promise.reject(new Error('nothing to submit here')),
        markUnresolved: () => Promise.resolve(undefined),
      } as unknown as PurchaseService;
      const holder = createClaimHolder({ instanceId: 'a', leaseMs: 30_000, renew: (lease) => db.renewLeases(lease) });
      watcher = createSettlementWatcher({ db, purchases, logger, now: clock.now, horizonMs: 48 * hour, tickMs: hour, claims: holder });
      await watcher.runOnce();
      await vi.waitFor(() => expect(checks).toEqual([refId]));
      // The heartbeats of a live instance, over more than a lease.
      for (let beat = 0; beat < 4; beat++) {
        clock.advance(10_000);
        await holder.beat();
      }
      await watcher.runOnce();
      await vi.waitFor(() => expect(checks).toEqual([refId, refId]));
    },
  );
});
