/**
 * The PostgreSQL engine when the server ends its connections (a restart, a fail-over, an operator's
 * pg_terminate_backend): the process never crashes, each operation either succeeds (retried where
 * that is safe) or fails with a clear error, nothing a caller was told is stored is missing, and
 * once the database answers again every operation works.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StoreEngine } from '../../../src/store/contract.ts';
import { openPgEngine } from '../../../src/store/pg/engine.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';
import { createClock, purchase } from '../helpers.ts';

const available = await postgresAvailable();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const telegramLimits = { perSecond: 30, perChatMs: 1000, perGroupPerMinute: 20 };

/** Every uncaught exception and unhandled rejection while `body` runs (each would end the bot's process). */
async function crashesDuring(body: () => Promise<void>): Promise<unknown[]> {
  const crashes: unknown[] = [];
  const record = (error: unknown) => void crashes.push(error);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  try {
    await body();
    // Errors a dying connection emits after its query failed come a moment later.
    await sleep(200);
  } finally {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  }
  return crashes;
}

/** Ends every connection to the database but the killer's own, as a server restart would. */
async function terminateAll(killer: pg.Client): Promise<number> {
  const { rows } = await killer.query<{ n: number }>(
    `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return rows[0]?.n ?? 0;
}

describe.skipIf(available !== true)('the PostgreSQL engine when the server ends its connections', () => {
  let database: TestDatabase;
  let engine: StoreEngine | undefined;
  let killer: pg.Client;
  const clock = createClock('2026-03-01T08:00:00.000Z');

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    await killer?.end().catch(() => undefined);
    await database.empty();
  });
  afterAll(async () => {
    await database.drop();
  });

  const open = async () => {
    engine = await openPgEngine({
      connectionString: database.url,
      now: clock.now,
      max: 4,
      chatLockConnections: 3,
      onIdleError: () => undefined,
    });
    killer = new pg.Client({ connectionString: database.url });
    killer.on('error', () => undefined);
    await killer.connect();
    return engine;
  };

  it('backends terminated again and again under load: no crash, every failure a clean error, no purchase lost, then everything works', async () => {
    const store = await open();
    for (let id = 1; id <= 6; id++) await store.users.upsert({ id, firstName: `User ${id}` });
    const confirmed: string[] = [];
    const refused: Array<{ confirmationId: string; error: unknown }> = [];
    const failures: unknown[] = [];
    let stop = false;

    const crashes = await crashesDuring(async () => {
      // Each worker keeps a chat busy: its lock held while it writes, a purchase, a send slot, reads.
      const worker = async (id: number) => {
        for (let round = 0; !stop; round++) {
          const confirmationId = `c-${id}-${round}`;
          try {
            await store.chatLocks.run(id, async () => {
              await store.users.update(id, { firstName: `User ${id} round ${round}` });
              await sleep(5);
              await store.transactions.createMany([purchase(`R${id}x${round}`, { userId: id, chatId: id })], { confirmationId });
              confirmed.push(confirmationId);
            });
          } catch (error) {
            if (!confirmed.includes(confirmationId)) refused.push({ confirmationId, error });
            failures.push(error);
          }
          await store.sendSlots.reserve(id, clock.now().getTime(), telegramLimits).catch((error: unknown) => failures.push(error));
          await store.users.get(id).catch((error: unknown) => failures.push(error));
        }
      };
      const workers = [1, 2, 3, 4, 5, 6].map(worker);
      // Two seconds of a server that keeps ending every connection, every 150 ms.
      let terminated = 0;
      for (let i = 0; i < 13; i++) {
        await sleep(150);
        terminated += await terminateAll(killer);
      }
      stop = true;
      await Promise.all(workers);
      expect(terminated, 'backends ended by the test').toBeGreaterThan(0);
    });

    expect(crashes, 'uncaught exceptions and unhandled rejections').toEqual([]);
    for (const failure of failures) expect(failure).toBeInstanceOf(Error);
    // Work went on through the terminations: a lost connection is replaced, a transaction tried again.
    expect(confirmed.length, `purchases stored (failures: ${failures.length})`).toBeGreaterThanOrEqual(6);
    // Every purchase a caller was told is stored is stored; one refused is not, unless its outcome was said to be unknown.
    const stored = new Set((await database.sql<{ id: string }>('SELECT id FROM confirmations')).map((row) => row.id));
    expect(
      confirmed.filter((id) => !stored.has(id)),
      'confirmed but not stored',
    ).toEqual([]);
    expect(
      refused.filter(({ confirmationId, error }) => stored.has(confirmationId) && (error as { code?: string }).code !== 'outcome-unknown'),
      'refused but stored',
    ).toEqual([]);

    // The database is back: every kind of operation works at once, on a new connection.
    expect(await store.users.get(1)).toMatchObject({ id: 1 });
    await store.chatLocks.run(1, () => store.users.update(1, { firstName: 'Back' }));
    expect(await store.transactions.createMany([purchase('AFTER', { userId: 1, chatId: 1 })], { confirmationId: 'after' })).toHaveLength(1);
    expect(await store.sendSlots.reserve(1, clock.now().getTime() + 60_000, telegramLimits)).toBeGreaterThan(0);
  }, 30_000);
});
