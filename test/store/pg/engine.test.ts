/**
 * The PostgreSQL engine when the server ends its connections (a restart, a fail-over, an operator's
 * pg_terminate_backend): the process never crashes, each operation either succeeds (retried where
 * that is safe) or fails with a clear error, nothing a caller was told is stored is missing, and
 * once the database answers again every operation works.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StoreEngine } from '../../../src/store/contract.ts';
import { openPgEngine } from '../../../src/store/pg/engine.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';
import { createClock, purchase } from '../helpers.ts';

const available = await postgresAvailable();
const telegramLimits = { perSecond: 30, perChatMs: 1000, perGroupPerMinute: 20 };

/** Every uncaught exception and unhandled rejection while `body` runs (each would end the bot's process). */
async function crashesDuring(body: () => Promise<void>): Promise<unknown[]> {
  const crashes: unknown[] = [];
  const record = (error: unknown) => void crashes.push(error);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  try {
    await body();
  } finally {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
  }
  return crashes;
}

/**
 * Ends every connection to the database but the killer's own, as a server restart would. With
 * `waitMs`, returns once each ended backend has exited (pg_terminate_backend checks every 100 ms):
 * its socket is closed by then, so what the client makes of it is already on its way.
 */
async function terminateAll(killer: pg.Client, waitMs = 0): Promise<number> {
  const { rows } = await killer.query<{ n: number }>(
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, $1))::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    [waitMs],
  );
  return rows[0]?.n ?? 0;
}

/** Lets a waiter sleep until the workers report progress (or stop), instead of for a fixed time. */
function progressSignal() {
  let waiters: Array<() => void> = [];
  return {
    /** Wakes every waiter: something changed. */
    tick() {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    /** Resolves once `done()` holds, checked at each tick. */
    async until(done: () => boolean) {
      while (!done()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
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

  const open = async (onConnectionLost: () => void) => {
    engine = await openPgEngine({
      connectionString: database.url,
      now: clock.now,
      max: 4,
      chatLockConnections: 3,
      onIdleError: () => undefined,
      onConnectionLost,
    });
    killer = new pg.Client({ connectionString: database.url });
    killer.on('error', () => undefined);
    await killer.connect();
    return engine;
  };

  it('backends terminated again and again under load: no crash, every failure a clean error, no purchase lost, then everything works', async () => {
    // Each termination comes once the workers stored `perKill` more purchases since the last one:
    // the server ends connections while work is in flight, and work resumes after each time.
    const terminations = 10;
    const perKill = 6;
    const workerCount = 6;
    // A bound on each worker, far above what the terminations need (about 15 rounds each).
    const maxRounds = 300;
    let losses = 0;
    const store = await open(() => void (losses += 1));
    for (let id = 1; id <= workerCount; id++) await store.users.upsert({ id, firstName: `User ${id}` });
    const confirmed: string[] = [];
    const refused: Array<{ confirmationId: string; error: unknown }> = [];
    const failures: unknown[] = [];
    const killed: number[] = [];
    const progress = progressSignal();
    let stop = false;
    let finished = 0;

    const crashes = await crashesDuring(async () => {
      // Each worker keeps a chat busy: its lock held while it writes, a purchase, a send slot, reads.
      const worker = async (id: number) => {
        for (let round = 0; round < maxRounds && !stop; round++) {
          const confirmationId = `c-${id}-${round}`;
          try {
            await store.chatLocks.run(id, async () => {
              await store.users.update(id, { firstName: `User ${id} round ${round}` });
              await nextTurn();
              await store.transactions.createMany([purchase(`R${id}x${round}`, { userId: id, chatId: id })], { confirmationId });
              confirmed.push(confirmationId);
            });
          } catch (error) {
            if (!confirmed.includes(confirmationId)) refused.push({ confirmationId, error });
            failures.push(error);
          }
          await store.sendSlots.reserve(id, clock.now().getTime(), telegramLimits).catch((error: unknown) => failures.push(error));
          await store.users.get(id).catch((error: unknown) => failures.push(error));
          progress.tick();
          // A turn of the event loop each round, however fast the operations fail: the killer and
          // the connections' own events get their turn, and a round's garbage can be collected.
          await nextTurn();
        }
        finished += 1;
        progress.tick();
      };
      const workers = Array.from({ length: workerCount }, (_, n) => worker(n + 1));
      const storedSince = async (mark: number) => {
        await progress.until(() => confirmed.length >= mark + perKill || finished === workerCount);
        if (confirmed.length < mark + perKill)
          throw new Error(`The workers ran out of rounds: ${confirmed.length} purchases stored, ${failures.length} failures.`);
      };
      try {
        for (let kill = 0; kill < terminations; kill++) {
          await storedSince(confirmed.length);
          // The last one waits for the ended backends to exit, so the checks below come after it all.
          killed.push(await terminateAll(killer, kill === terminations - 1 ? 5000 : 0));
        }
        // Work goes on after the last one too.
        await storedSince(confirmed.length);
      } finally {
        stop = true;
        await Promise.all(workers);
      }

      // The database is back: every kind of operation works at once. Checked while crashes are
      // still recorded: these round trips come after every ended backend closed its socket.
      expect(await store.users.get(1)).toMatchObject({ id: 1 });
      await store.chatLocks.run(1, () => store.users.update(1, { firstName: 'Back' }));
      expect(await store.transactions.createMany([purchase('AFTER', { userId: 1, chatId: 1 })], { confirmationId: 'after' })).toHaveLength(
        1,
      );
      expect(await store.sendSlots.reserve(1, clock.now().getTime() + 60_000, telegramLimits)).toBeGreaterThan(0);
    });

    expect(crashes, 'uncaught exceptions and unhandled rejections').toEqual([]);
    expect(killed, 'backends ended at each termination').toHaveLength(terminations);
    for (const count of killed) expect(count, `backends ended at each termination (${killed.join(', ')})`).toBeGreaterThan(0);
    // The terminations met operations in flight (each is counted when an operation meets a lost connection).
    expect(losses, 'operations that met a lost connection').toBeGreaterThan(0);
    for (const failure of failures) expect(failure).toBeInstanceOf(Error);
    // Work went on through the terminations: a lost connection is replaced, a transaction tried again.
    expect(confirmed.length, `purchases stored (failures: ${failures.length})`).toBeGreaterThanOrEqual((terminations + 1) * perKill);
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
    expect(stored.has('after'), 'the purchase stored once the database was back').toBe(true);
  }, 30_000);
});
