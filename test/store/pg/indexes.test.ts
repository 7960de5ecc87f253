/**
 * The PostgreSQL engine's queries that must not read every row of a large table: each is answered
 * from an index the migrations make (checked by the server's own counts of index scans).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreEngine } from '../../../src/store/contract.ts';
import { openPgEngine } from '../../../src/store/pg/engine.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';
import { testVault } from '../helpers.ts';

const available = await postgresAvailable();
const at = new Date('2026-12-01T08:00:00Z');

describe.skipIf(available !== true)('PostgreSQL indexes', () => {
  let database: TestDatabase;
  let engine: StoreEngine;
  let closed = false;
  beforeAll(async () => {
    database = await createTestDatabase();
    engine = await openPgEngine({ connectionString: database.url, vault: testVault(), now: () => at, max: 2, chatLockConnections: 1 });
  });
  afterAll(async () => {
    if (!closed) await engine.close();
    await database.drop();
  });

  const indexScans = async (name: string) =>
    Number(
      (await database.sql<{ n: string }>('SELECT idx_scan AS n FROM pg_stat_user_indexes WHERE indexrelname = $1', [name]))[0]?.n ?? -1,
    );

  it("the price watchers' list among 20,000 users reads their partial index, not the whole table", async () => {
    // Users without a price watch, written in bulk (their records are never read here).
    await database.sql(
      `INSERT INTO users (id, active, record) SELECT g, true, jsonb_build_object('id', g) FROM generate_series(100000, 119999) AS g`,
    );
    for (const id of [7, 8]) {
      await engine.users.upsert({ id, firstName: `Watcher ${id}` });
      await engine.users.update(id, { priceWatch: { brands: ['telkomsel'], group: false } });
    }
    await database.sql('ANALYZE users');
    expect(await indexScans('users_price_watchers')).toBe(0);

    const watchers = await engine.users.list({ active: true, priceWatchers: true });
    expect(watchers.map((user) => user.id)).toEqual([7, 8]);
    // A backend reports its counts when it ends (or after ten idle seconds): the engine's connections end here.
    await engine.close();
    closed = true;
    await expect.poll(() => indexScans('users_price_watchers'), { timeout: 5000, interval: 100 }).toBeGreaterThan(0);
  });
});
