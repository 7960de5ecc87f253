/**
 * Slow is not dead (DESIGN invariant 9): an instance whose main thread is busy past its lease (a
 * burst, a starved CPU) keeps its claims, because the heartbeat renewing them runs on a thread of
 * its own. A claim's holder here is a due check of a transaction, claimed under the holder's lease.
 * On the main thread's heartbeat the same busy spell loses it: why the thread exists.
 */
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
});
