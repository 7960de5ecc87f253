import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.ts';
import { AccountPauses } from '../../src/jobs/settlement-pauses.ts';
import { createSettlementWatcher } from '../../src/jobs/settlement.ts';
import { silentLogger } from '../../src/logger.ts';
import { fakePurchases } from '../helpers/fake-purchases.ts';
import { createClock, dbOf, purchase, storeTest } from '../store/helpers.ts';

const start = '2026-12-01T06:00:00.000Z';

describe('AccountPauses', () => {
  it('a failed first read of the stored pause is made again at the next check, not kept as failed', async () => {
    let reads = 0;
    const db = {
      users: {
        get: () => {
          reads += 1;
          if (reads === 1) return Promise.reject(new Error('connection terminated'));
          return Promise.resolve({ id: 7, recheckPause: { since: '2026-12-01T00:00:00.000Z', reason: 'credentials' } });
        },
      },
    } as unknown as Db;
    const pauses = new AccountPauses({ db, logger: silentLogger });
    await expect(pauses.heldAtFirstCheck(7)).rejects.toThrow('connection terminated');
    // The database is back: the next check reads the record and finds the account paused.
    await expect(pauses.heldAtFirstCheck(7)).resolves.toBe(true);
    await expect(pauses.heldAtFirstCheck(7)).resolves.toBe(true);
    expect(reads).toBe(2);
  });

  storeTest(
    'an account is remembered only while its checks run: a pause stored after its last check ended (by another instance) holds its next one',
    async ({ stores }) => {
      const clock = createClock(start);
      const { store } = await stores.open(stores.dir(), { now: clock.now });
      await store.users.upsert({ id: 1, firstName: 'Budi' });
      const [tx] = await store.transactions.createMany([
        purchase('u1-0', { userId: 1, chatId: 1, status: 'Pending', nextCheckAt: new Date(Date.parse(start) - 1000).toISOString() }),
      ]);
      const fake = fakePurchases(store, { now: clock.now, nextCheckInMs: 60_000, awaitWrites: true });
      const watcher = createSettlementWatcher({
        db: dbOf(store),
        purchases: fake.service,
        logger: silentLogger,
        now: clock.now,
        horizonMs: 86_400_000,
      });
      try {
        await watcher.runOnce();
        expect(fake.calls.get(tx!.refId)).toBe(1);
        // The account's credentials are refused on another instance, which stores the pause.
        await store.users.update(1, { recheckPause: { reason: 'credentials', since: clock.now().toISOString() } });
        clock.advance(120_000);
        await watcher.runOnce();
        expect(fake.calls.get(tx!.refId)).toBe(1);
      } finally {
        await watcher.stop();
      }
    },
  );
});
