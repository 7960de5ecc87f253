/**
 * Slow is not dead (DESIGN invariant 9), at the claims: two instances share one PostgreSQL
 * database, each an engine with its own connections and a claim holder. One of them takes a stored
 * update, a due check and a notice, then goes without a heartbeat for three leases (its event loop
 * starved, or SIGSTOP): its database session stays, so nothing it claimed moves. Only when its
 * session ends (its process died, or the server ended a vanished machine's session) do its claims
 * move once their lease ran out, and the woken holder then writes nothing under them.
 */
import { expect, it, vi } from 'vitest';
import { createClaimHolder, type ClaimHolder } from '../../../src/store/claim-holder.ts';
import type { Lease, StoreEngine } from '../../../src/store/contract.ts';
import { describeEngines } from '../contract/harness.ts';
import { createClock, purchase } from '../helpers.ts';

const start = '2026-03-01T08:00:00.000Z';
const leaseMs = 30_000;

describeEngines(
  'instance liveness on PostgreSQL',
  (suite) => {
    /** An instance: an engine and its claim holder, on the process clock `elapsed` (a pause shows as a gap in it). */
    async function instance(id: string, clock: ReturnType<typeof createClock>) {
      const engine = await suite.open(clock.now);
      let elapsed = 0;
      const problems: string[] = [];
      const holder = createClaimHolder({
        instanceId: id,
        leaseMs,
        renew: (lease) => engine.renewLeases(lease),
        liveness: engine.liveness,
        elapsed: () => elapsed,
        onProblem: (message) => problems.push(message),
      });
      // The first heartbeat takes the instance's liveness (the app's start does the same).
      await holder.beat();
      return {
        engine,
        holder,
        problems,
        /** Time passing for this process and the store alike (the process was running, or paused). */
        pass: (ms: number) => void (elapsed += ms),
      };
    }

    /** What another instance can take now: stored updates to replay, due checks, due notices. */
    const takeable = async (engine: StoreEngine, clock: ReturnType<typeof createClock>, lease: Lease) => ({
      updates: (await engine.inbox.claimForReplay({ limit: 10, lease, maxAttempts: 5 })).updates.map((u) => u.id),
      checks: (await engine.transactions.claimDue(clock.now().getTime(), { limit: 10, lease })).map((tx) => tx.refId),
      notices: (await engine.outbox.claimDue(clock.now(), { limit: 10, lease })).length,
    });

    /** `a` takes update 1, check T1 and one notice under its token. */
    async function claimEverything(a: { engine: StoreEngine; holder: ClaimHolder }, clock: ReturnType<typeof createClock>) {
      const lease = a.holder.lease();
      await a.engine.inbox.add([{ id: 1, sealed: 'sealed-1' }], { lease });
      await a.engine.transactions.create(purchase('T1', { createdAt: start }));
      expect(await a.engine.transactions.claimDue(clock.now().getTime(), { limit: 10, lease })).toHaveLength(1);
      await a.engine.outbox.enqueue({ chatId: 7, kind: 'final', payload: { chatId: 7 } });
      expect(await a.engine.outbox.claimDue(clock.now(), { limit: 10, lease })).toHaveLength(1);
      return lease.owner;
    }

    it('a holder that goes three leases without a heartbeat (starved or paused) while its session lives keeps every claim: nothing moves, and woken it carries on under the same token', async () => {
      const clock = createClock(start);
      const a = await instance('a', clock);
      const b = await instance('b', clock);
      const owner = await claimEverything(a, clock);

      // Three leases with no heartbeat from `a`; `b` looks every third of a lease, as its replay and watcher do.
      for (let step = 0; step < 9; step++) {
        clock.advance(leaseMs / 3);
        a.pass(leaseMs / 3);
        await b.holder.beat();
        expect(await takeable(b.engine, clock, b.holder.lease())).toEqual({ updates: [], checks: [], notices: 0 });
      }

      // Woken: the same token holds (its session kept it), its fenced writes land.
      expect(await a.holder.holds(owner)).toBe(true);
      expect(a.holder.lease().owner).toBe(owner);
      expect(await a.engine.inbox.holds(1, owner)).toBe(true);
      expect(await a.engine.inbox.markDone(1, owner)).toBe(true);
      expect(a.problems).toEqual([
        "claims not renewed for a whole lease (paused, or the event loop starved): the database session kept them this instance's; carried on",
      ]);
    });

    it('a holder whose session ended while it was paused (its machine vanished) loses its claims once their lease ran out; woken, it writes nothing under them', async () => {
      const clock = createClock(start);
      const a = await instance('a', clock);
      const b = await instance('b', clock);
      const owner = await claimEverything(a, clock);
      // The server ends `a`'s session, as it does for a machine that stopped answering its keepalives.
      const ended = await suite.sql<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
         WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
           AND (classid::bigint << 32 | objid::bigint) = hashtextextended('kiosbot:instance:' || $1::text, 0)`,
        [owner],
      );
      expect(ended).toEqual([{ ended: true }]);

      // Within the lease the claims hold by time alone.
      clock.advance(leaseMs / 2);
      expect(await takeable(b.engine, clock, b.holder.lease())).toEqual({ updates: [], checks: [], notices: 0 });
      clock.advance(leaseMs);
      a.pass(leaseMs * 1.5);
      expect(await takeable(b.engine, clock, b.holder.lease())).toEqual({ updates: [1], checks: ['T1'], notices: 1 });

      // Woken, `a` finds its session gone: the old token holds nothing, its done mark is refused, a new token takes over.
      await vi.waitFor(async () => expect(await a.holder.holds(owner)).toBe(false));
      expect(await a.engine.inbox.markDone(1, owner)).toBe(false);
      expect(a.holder.lease().owner).not.toBe(owner);
      expect(a.problems.some((problem) => problem.startsWith('the database session holding the claims ended'))).toBe(true);
    });

    it('a purchase just confirmed is claimed for the instance that sends it: however long that instance is starved before sending, no other instance picks it up while it lives; once it died, after the lease', async () => {
      const clock = createClock(start);
      const a = await instance('a', clock);
      const b = await instance('b', clock);
      await a.engine.transactions.createMany([purchase('T9', { createdAt: start })], { confirmationId: 'tap-1', lease: a.holder.lease() });
      const checks = async () =>
        (await b.engine.transactions.claimDue(clock.now().getTime(), { limit: 10, lease: b.holder.lease() })).map((tx) => tx.refId);
      expect(await checks()).toEqual([]);
      clock.advance(3 * leaseMs);
      a.pass(3 * leaseMs);
      expect(await checks()).toEqual([]);
      await a.engine.close();
      expect(await checks()).toEqual(['T9']);
    });

    it("a dead instance's claims move once their lease ran out", async () => {
      const clock = createClock(start);
      const a = await instance('a', clock);
      const b = await instance('b', clock);
      await claimEverything(a, clock);
      await a.engine.close();
      expect(await takeable(b.engine, clock, b.holder.lease())).toEqual({ updates: [], checks: [], notices: 0 });
      clock.advance(leaseMs);
      expect(await takeable(b.engine, clock, b.holder.lease())).toEqual({ updates: [1], checks: ['T1'], notices: 1 });
    });
  },
  ['postgres'],
);
