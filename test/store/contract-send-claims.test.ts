/**
 * The send claims' contract (`SendClaimStore`, DESIGN invariant 8: one sender per ref at a time)
 * on both engines: a ref has one holder at a time and a caller that found it taken is told it
 * waited; other refs never wait for it; a task that throws lets go of its ref. On PostgreSQL the
 * same holds between two instances (two engines on one database), and a claim that goes with its
 * connection is signalled to the task still running under it, while another instance takes the ref.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { StoreEngine } from '../../src/store/contract.ts';
import { describeEngines, type EngineSuite } from './contract/harness.ts';
import { createClock } from './helpers.ts';

const now = createClock('2026-03-01T08:00:00.000Z').now;

/** Advisory locks granted in this test's database only (other test files use the same server). */
const heldHere = `locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/** A promise the test settles by hand. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Where the two callers of a test sit: in one instance, or in two sharing the database (PostgreSQL only). */
interface Placement {
  name: string;
  open(suite: EngineSuite): Promise<[StoreEngine, StoreEngine]>;
  /**
   * Resolves once the second caller found the ref taken: in one instance its call was queued at
   * once (in-process); another instance has asked the server and been refused (or is blocked on it).
   */
  untilRefused(suite: EngineSuite): Promise<void>;
}

const oneInstance: Placement = {
  name: 'one instance',
  async open(suite) {
    const engine = await suite.open(now);
    return [engine, engine];
  },
  untilRefused: () => Promise.resolve(),
};

const twoInstances: Placement = {
  name: 'two instances',
  async open(suite) {
    return [await suite.open(now), await suite.open(now)];
  },
  async untilRefused(suite) {
    // In this database (other test files share the server), a connection opened after the
    // holder's (a closed engine's may linger a moment: pools do not wait for their connections to
    // end) whose last statement, finished, asked for a lock; or one blocked on it.
    const refused = `SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle' AND query LIKE '%pg_try_advisory_lock%'
        AND backend_start > (SELECT max(backend_start) FROM pg_stat_activity WHERE pid IN (SELECT pid FROM pg_locks WHERE ${heldHere}))
      UNION SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    await expect.poll(() => suite.sql(refused), { timeout: 10_000 }).not.toHaveLength(0);
  },
};

describeEngines('send claims', (suite) => {
  const placements = suite.kind === 'postgres' ? [oneInstance, twoInstances] : [oneInstance];
  for (const placement of placements) {
    it(`${placement.name}: a second caller of a held ref runs once the holder is done, and is told it waited`, async () => {
      const [one, two] = await placement.open(suite);
      const events: string[] = [];
      const holding = deferred();
      const release = deferred();
      const first = one.sendClaims.withClaim('REF-1', async ({ waited, held }) => {
        events.push(`first in, waited=${waited}, lost=${held.aborted}`);
        holding.resolve();
        await release.promise;
        events.push('first out');
        return 'first';
      });
      await holding.promise;
      const second = two.sendClaims.withClaim('REF-1', ({ waited, held }) => {
        events.push(`second in, waited=${waited}, lost=${held.aborted}`);
        return Promise.resolve('second');
      });
      try {
        await placement.untilRefused(suite);
        expect(events).toEqual(['first in, waited=false, lost=false']);
      } finally {
        release.resolve();
      }
      expect(await first).toBe('first');
      expect(await second).toBe('second');
      expect(events).toEqual(['first in, waited=false, lost=false', 'first out', 'second in, waited=true, lost=false']);
      // Free the moment its last holder is done: the next caller does not wait.
      expect(await two.sendClaims.withClaim('REF-1', ({ waited }) => Promise.resolve(waited))).toBe(false);
    });

    it(`${placement.name}: eight callers of one ref at once never overlap`, async () => {
      const [one, two] = await placement.open(suite);
      await one.users.upsert({ id: 1, firstName: 'Budi' });
      let inside = 0;
      let most = 0;
      const callers = Array.from({ length: 8 }, (_, n) => {
        const engine = n % 2 === 0 ? one : two;
        return engine.sendClaims.withClaim('REF-2', async ({ waited }) => {
          inside += 1;
          most = Math.max(most, inside);
          // Work that gives the others every chance to cut in: round trips to the store, turns of the event loop.
          for (let i = 0; i < 3; i++) {
            await engine.users.get(1);
            await nextTurn();
          }
          inside -= 1;
          return waited;
        });
      });
      const waited = await Promise.all(callers);
      expect(most, 'holders of REF-2 at once').toBe(1);
      expect(waited.filter((w) => !w).length, 'callers that found REF-2 free').toBeGreaterThanOrEqual(1);
      // In one instance all eight were queued before the first finished.
      if (placement === oneInstance) expect(waited).toEqual([false, true, true, true, true, true, true, true]);
    });

    it(`${placement.name}: a held ref never holds up another ref`, async () => {
      const [one, two] = await placement.open(suite);
      const holding = deferred();
      const release = deferred();
      const held = one.sendClaims.withClaim('REF-3', async () => {
        holding.resolve();
        await release.promise;
      });
      await holding.promise;
      try {
        expect(await two.sendClaims.withClaim('REF-4', ({ waited }) => Promise.resolve(waited))).toBe(false);
        expect(await one.sendClaims.withClaim('REF-5', ({ waited }) => Promise.resolve(waited))).toBe(false);
      } finally {
        release.resolve();
      }
      await held;
    });

    it(`${placement.name}: a task that throws lets go of its ref`, async () => {
      const [one, two] = await placement.open(suite);
      await expect(one.sendClaims.withClaim('REF-6', () => Promise.reject(new Error('provider exploded')))).rejects.toThrow(
        'provider exploded',
      );
      if (suite.kind === 'postgres')
        expect(await suite.sql(`SELECT pid FROM pg_locks WHERE ${heldHere}`), 'advisory locks still held').toEqual([]);
      expect(await two.sendClaims.withClaim('REF-6', ({ waited }) => Promise.resolve(waited))).toBe(false);
    });
  }
});

describeEngines(
  'send claims across instances',
  (suite) => {
    it('the connection holding a claim is ended while its task runs: the task is told, another instance takes the ref, the first claims again', async () => {
      const [one, two] = await twoInstances.open(suite);
      const holding = deferred();
      const release = deferred();
      let signal: AbortSignal | undefined;
      const first = one.sendClaims.withClaim('REF-7', async ({ held }) => {
        signal = held;
        holding.resolve();
        await release.promise;
        return held.aborted;
      });
      await holding.promise;
      let secondRan = false;
      const second = two.sendClaims.withClaim('REF-7', ({ waited }) => {
        secondRan = true;
        return Promise.resolve(waited);
      });
      try {
        await twoInstances.untilRefused(suite);
        expect(secondRan).toBe(false);

        // The holder's connection dies (a fail-over, an operator's pg_terminate_backend): the server lets go of its locks.
        const holders = await suite.sql<{ pid: number }>(`SELECT pid FROM pg_locks WHERE ${heldHere}`);
        expect(holders, 'connections holding an advisory lock').toHaveLength(1);
        await suite.sql('SELECT pg_terminate_backend($1)', [holders[0]?.pid]);

        await expect.poll(() => signal?.aborted, { timeout: 10_000, message: "the running task's held signal" }).toBe(true);
        expect(signal?.reason, 'the reason the running task was given').toMatchObject({ code: 'lock-lost' });
        // The other instance took REF-7 while the first task still runs: it must no longer act as the sender.
        expect(await second, 'the other instance waited for REF-7').toBe(true);
      } finally {
        release.resolve();
      }
      expect(await first, 'the first task saw its claim gone').toBe(true);
      expect(one.health?.()).toMatchObject({ locksLost: 1 });
      // The first instance claims again, on a new connection.
      expect(await one.sendClaims.withClaim('REF-7', ({ waited, held }) => Promise.resolve({ waited, lost: held.aborted }))).toEqual({
        waited: false,
        lost: false,
      });
    });
  },
  ['postgres'],
);
