/**
 * Slow is not dead (DESIGN invariant 9): an instance whose main thread is busy past its lease (a
 * burst, a starved CPU) keeps its claims, because the heartbeat renewing them runs on a thread of
 * its own. A claim's holder here is a due check of a transaction, claimed under the holder's lease.
 * On the main thread's heartbeat the same busy spell loses it: why the thread exists.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgEngine } from '../../../src/store/pg/engine.ts';
import { createThreadClaimHolder } from '../../../src/store/pg/heartbeat-thread.ts';
import { createClaimHolder, type ClaimHolder } from '../../../src/store/claim-holder.ts';
import type { StoreEngine } from '../../../src/store/contract.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';

const available = await postgresAvailable();
/** Long enough that a loaded CI machine's scheduling never delays the thread's beats (every 500 ms) past it. */
const leaseMs = 1_500;

/** Blocks this thread for `ms`: the event loop stands still, as when it is busy. */
function busy(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe.skipIf(available !== true)('the claims heartbeat on a thread of its own', () => {
  let database: TestDatabase;
  let engine: StoreEngine;

  beforeAll(async () => {
    database = await createTestDatabase();
    engine = await openPgEngine({ connectionString: database.url });
  });
  afterAll(async () => {
    await engine?.close();
    await database?.drop();
  });

  /** A due transaction claimed under `holder`'s lease; resolves its ref id. */
  const claimedBy = async (holder: ClaimHolder, refId: string): Promise<string> => {
    const at = new Date(Date.now() - 1000).toISOString();
    await engine.transactions.createMany([
      {
        refId,
        userId: 1,
        chatId: 1,
        code: 'TSEL10',
        productName: 'Telkomsel 10.000',
        target: '081234567890',
        price: 10_450,
        createdAt: at,
      },
    ]);
    const claimed = await engine.transactions.claimDue(Date.now(), { limit: 10, lease: holder.lease(), skip: (id) => id !== refId });
    expect(claimed.map((tx) => tx.refId)).toEqual([refId]);
    return holder.lease().owner;
  };
  const leaseLeft = async (refId: string): Promise<number> => {
    const [row] = await database.sql<{ until: Date }>('SELECT lease_until AS until FROM transactions WHERE ref_id = $1', [refId]);
    return (row?.until.getTime() ?? 0) - Date.now();
  };

  it('a main thread busy for three leases keeps its claim: renewed meanwhile, still held, not claimable by another instance', async () => {
    const holder = createThreadClaimHolder({ instanceId: 'busy-instance', leaseMs, connection: { connectionString: database.url } });
    holder.start();
    await holder.beat();
    const owner = await claimedBy(holder, 'REF-THREAD');
    busy(3 * leaseMs);
    expect(holder.holds(owner)).toBe(true);
    expect(await leaseLeft('REF-THREAD')).toBeGreaterThan(0);
    const other = await engine.transactions.claimDue(Date.now(), { limit: 10, lease: { owner: 'other:1', ms: leaseMs } });
    expect(other.map((tx) => tx.refId)).not.toContain('REF-THREAD');
    await holder.stop();
    // Stopped (as a process that died or stands still), nothing renews it: once its lease has run
    // out (asked as of that instant, not waited for) the claim moves.
    const moved = await engine.transactions.claimDue(Date.now() + leaseMs + 1, { limit: 10, lease: { owner: 'other:1', ms: leaseMs } });
    expect(moved.map((tx) => tx.refId)).toContain('REF-THREAD');
  });

  it("on the main thread's heartbeat the same busy spell loses the claim (the reason for the thread)", async () => {
    const holder = createClaimHolder({ instanceId: 'loop-instance', leaseMs, renew: (lease) => engine.renewLeases(lease) });
    holder.start();
    const owner = await claimedBy(holder, 'REF-LOOP');
    busy(3 * leaseMs);
    expect(holder.holds(owner)).toBe(false);
    expect(await leaseLeft('REF-LOOP')).toBeLessThanOrEqual(0);
    await holder.stop();
  });

  /** Cuts the row's lease to 100 ms: only a renewal puts it back to a whole lease. */
  const almostOut = (refId: string) =>
    database.sql("UPDATE transactions SET lease_until = now() + interval '100 milliseconds' WHERE ref_id = $1", [refId]);

  /**
   * A thread holder; `problems` collects what it reported and `told` resolves at the first. With
   * `fallback`, the main-thread holder taking over renews through the engine.
   */
  const holderOf = (instanceId: string, pgPath: string, options: { fallback: boolean }) => {
    const problems: string[] = [];
    let tell!: () => void;
    const told = new Promise<void>((resolve) => (tell = resolve));
    const holder = createThreadClaimHolder({
      instanceId,
      leaseMs,
      connection: { connectionString: database.url },
      pgPath,
      onProblem: (message) => {
        problems.push(message);
        tell();
      },
      ...(options.fallback
        ? { fallback: (epoch: number) => createClaimHolder({ instanceId, leaseMs, epoch, renew: (lease) => engine.renewLeases(lease) }) }
        : {}),
    });
    return { holder, problems, told };
  };

  it('a thread that cannot start: the heartbeat runs on the main thread, says so, and its claims are renewed', async () => {
    const { holder, problems, told } = holderOf('no-thread', '/nonexistent/pg.cjs', { fallback: true });
    holder.start();
    await told;
    expect(problems).toEqual([expect.stringContaining('the heartbeat runs on the main thread from now on')]);
    const owner = await claimedBy(holder, 'REF-NO-THREAD');
    // Past the first token: nothing claimed under it can be mistaken for this one.
    expect(owner).toBe('no-thread:2');
    await almostOut('REF-NO-THREAD');
    await holder.beat();
    expect(await leaseLeft('REF-NO-THREAD')).toBeGreaterThan(leaseMs * 0.8);
    expect(holder.holds(owner)).toBe(true);
    await holder.stop();
  });

  it('without a fallback, a thread that cannot start is told once, and nothing is held any more', async () => {
    const { holder, problems, told } = holderOf('no-fallback', '/nonexistent/pg.cjs', { fallback: false });
    const owner = holder.lease().owner;
    holder.start();
    await told;
    // The stop waits for the thread's end: its exit, after its error, is told too if at all.
    await holder.stop();
    expect(problems).toEqual([expect.stringContaining('no claim is renewed any more')]);
    expect(holder.holds(owner)).toBe(false);
  });

  it('a thread that dies while running: what it held is held no more, new claims are renewed on the main thread', async () => {
    const crash = join(mkdtempSync(join(tmpdir(), 'kiosbot-heartbeat-')), 'crash');
    process.env.HEARTBEAT_CRASH_FILE = crash;
    const { holder, problems, told } = holderOf('dying-thread', fileURLToPath(new URL('fixtures/crashing-pg.cjs', import.meta.url)), {
      fallback: true,
    });
    holder.start();
    delete process.env.HEARTBEAT_CRASH_FILE;
    await holder.beat();
    const before = await claimedBy(holder, 'REF-BEFORE-CRASH');
    expect(holder.holds(before)).toBe(true);
    writeFileSync(crash, '');
    await holder.beat();
    await told;
    expect(problems).toEqual([expect.stringMatching(/heartbeat thread (failed|ended).*main thread from now on/)]);
    // The thread's last renewal may be older than the failure: its claims may have moved already.
    expect(holder.holds(before)).toBe(false);
    const after = await claimedBy(holder, 'REF-AFTER-CRASH');
    expect(after).not.toBe(before);
    await almostOut('REF-AFTER-CRASH');
    await holder.beat();
    expect(await leaseLeft('REF-AFTER-CRASH')).toBeGreaterThan(leaseMs * 0.8);
    expect(holder.holds(after)).toBe(true);
    await holder.stop();
  });
});
