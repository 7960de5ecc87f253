import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StatsService } from '../../src/services/stats.ts';
import { startOfWibDay } from '../../src/services/export-periods.ts';
import type { HotData } from '../../src/store/schema.ts';
import type { UserShardData } from '../../src/store/user-shards.ts';
import { createClock, dbOf, historyOnDisk, purchase, readJson, storeTest } from '../store/helpers.ts';

/** The figures as an operator would count them by hand from the files on disk. */
function countFromDisk(dataDir: string, now: Date) {
  const hot = readJson(path.join(dataDir, 'kiosbot.json')) as HotData;
  const history = readdirSync(path.join(dataDir, 'history'))
    .filter((name) => /^\d{4}-\d{2}\.jsonl$/.test(name))
    .flatMap((name) => Object.values(historyOnDisk(dataDir, name.slice(0, 7)).transactions));
  const all = [...Object.values(hot.transactions), ...history];
  const figures = (since: Date) => {
    const txs = all.filter((tx) => Date.parse(tx.createdAt) >= since.getTime());
    const by = (...statuses: string[]) => txs.filter((tx) => statuses.includes(tx.status)).length;
    return {
      count: txs.length,
      volume: txs.filter((tx) => tx.status === 'Sukses').reduce((sum, tx) => sum + tx.price, 0),
      success: by('Sukses'),
      failed: by('Gagal', 'Rejected'),
      pending: txs.length - by('Sukses', 'Gagal', 'Rejected', 'Unresolved'),
      unresolved: by('Unresolved'),
    };
  };
  const shards = readdirSync(path.join(dataDir, 'users'))
    .filter((name) => /^\d{3}\.json$/.test(name))
    .map((name) => readJson(path.join(dataDir, 'users', name)) as UserShardData);
  const users = shards.flatMap((shard) => Object.values(shard.users));
  const creds = shards.flatMap((shard) => Object.values(shard.credentials));
  return {
    users: {
      total: users.length,
      active: users.filter((u) => u.active).length,
      banned: users.filter((u) => u.ban).length,
      connected: {
        reseller: creds.filter((c) => c.service === 'reseller').length,
        marketplace: creds.filter((c) => c.service === 'marketplace').length,
        gameshop: creds.filter((c) => c.service === 'gameshop').length,
      },
    },
    // Today: since 00:00 WIB (17:00 UTC the day before); the week: today and the 6 days before.
    today: figures(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (now.getUTCHours() >= 17 ? 0 : 1), 17))),
    week: figures(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (now.getUTCHours() >= 17 ? 0 : 1) - 6, 17)),
    ),
    watcherBacklog: Object.values(hot.transactions).filter((tx) => Date.parse(tx.nextCheckAt ?? tx.createdAt) <= now.getTime()).length,
    outbox: Object.keys(hot.outbox).length,
  };
}

describe('stats', () => {
  it('a WIB day starts at 17:00 UTC', () => {
    expect(startOfWibDay(new Date('2025-03-02T16:59:00Z')).toISOString()).toBe('2025-03-01T17:00:00.000Z');
    expect(startOfWibDay(new Date('2025-03-02T17:00:00Z')).toISOString()).toBe('2025-03-02T17:00:00.000Z');
    expect(startOfWibDay(new Date('2025-03-02T10:00:00Z'), 6).toISOString()).toBe('2025-02-23T17:00:00.000Z');
  });

  storeTest('equal the stored data: users, connections, today and 7 days, backlog, outbox, uptime', async ({ stores }) => {
    const dataDir = stores.dir();
    const clock = createClock('2025-02-10T03:00:00Z');
    const { store } = await stores.open(dataDir, { now: clock.now });
    const startedAt = clock.now();
    for (const id of [1, 2, 3, 4, 5]) await store.users.upsert({ id, firstName: `U${id}` });
    await store.users.setActive(4, false);
    await store.users.update(5, { ban: { at: clock.now().toISOString(), by: 1 } });
    await store.credentials.save(1, 'reseller', { apiId: 'a', apiKey: 'k' }, 'a');
    await store.credentials.save(2, 'reseller', { apiId: 'b', apiKey: 'k' }, 'b');
    await store.credentials.save(2, 'gameshop', { apiKey: 'k' });

    // Transactions from 40 days ago up to now, in every state, across two months.
    const statuses = ['Sukses', 'Gagal', 'Rejected', 'Unresolved', 'Pending', 'Created', 'Sukses', 'Menunggu'];
    let n = 0;
    for (let day = 40; day >= 0; day -= 3) {
      for (const [i, status] of statuses.entries()) {
        const createdAt = new Date(Date.parse('2025-03-05T20:00:00Z') - day * 24 * 3600_000 + i * 3 * 3600_000).toISOString();
        const refId = `r${++n}`;
        await store.transactions.create(
          purchase(refId, { userId: 1 + (n % 3), price: 1000 * n, createdAt, nextCheckAt: i % 2 ? createdAt : '2025-04-01T00:00:00Z' }),
        );
        if (['Sukses', 'Gagal', 'Rejected', 'Unresolved'].includes(status)) await store.transactions.settle(refId, { status });
        else if (status !== 'Created') await store.transactions.update(refId, { status });
      }
    }
    await store.outbox.enqueue({ chatId: 1, kind: 'test', payload: null });
    await store.outbox.enqueue({ chatId: 2, kind: 'test', payload: null });
    clock.set('2025-03-06T02:00:00Z');
    await store.flush();

    const stats = await new StatsService({ db: dbOf(store, { now: clock.now }), now: clock.now, startedAt }).collect();
    const expected = countFromDisk(dataDir, clock.now());
    expect(stats).toMatchObject(expected);
    expect(stats.today.count).toBeGreaterThan(0);
    expect(stats.week.count).toBeGreaterThan(stats.today.count);
    expect(stats.week.success + stats.week.failed + stats.week.pending + stats.week.unresolved).toBe(stats.week.count);
    expect(stats.broadcast).toBeUndefined();
    expect(stats.uptimeMs).toBe(clock.now().getTime() - startedAt.getTime());
    const withBroadcast = new StatsService({
      db: dbOf(store, { now: clock.now }),
      now: clock.now,
      startedAt,
      broadcast: () => Promise.resolve({ sent: 3, total: 10 }),
    });
    expect((await withBroadcast.collect()).broadcast).toEqual({ sent: 3, total: 10 });
  });
});
