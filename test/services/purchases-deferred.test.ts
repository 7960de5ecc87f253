/**
 * Issue 15, the watcher at scale: a re-check that finds a purchase still Pending does not wait for
 * the disk (its change is only the next check's time; many of them share one write), while a
 * settlement still reaches the disk before anybody is told.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDirectoryOf, type TestWorld } from '../helpers/app.ts';
import { buyer, sandboxTransactions } from '../helpers/buy.ts';
import { createTestDisk } from '../helpers/disk.ts';
import { buyPending, recheck, startSettlementWorld, testClock } from '../helpers/settlement.ts';
import { hotFileName } from '../../src/store/store.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';

describe('re-checks of a purchase that stays Pending', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('go on while the disk is busy; the settlement after them waits for the disk before the user hears of it', async () => {
    const clock = testClock();
    const disk = createTestDisk();
    // The provider settles on the 3rd status check it handles.
    world = await startSettlementWorld(clock, {
      sandbox: { reseller: { settleAfterChecks: 3, settleAfterMs: 3_600_000 } },
      app: { storeWriteFile: disk.write },
    });
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const refId = sandboxTransactions(world)[0]?.refId ?? 'missing';
    const onDisk = () =>
      (JSON.parse(readFileSync(path.join(world.dataDir, hotFileName), 'utf8')) as { transactions: Record<string, TransactionRecord> })
        .transactions[refId];
    const checksOnDisk = onDisk()?.checks ?? 0;

    // Every write from here on waits until released: two re-checks still complete.
    disk.hold();
    await recheck(world, clock, 2);
    const stored = await world.app.db.transactions.get(refId);
    expect(stored?.status).toBe('Pending');
    expect(stored?.checks).toBe(checksOnDisk + 2);
    expect(onDisk()?.checks).toBe(checksOnDisk);
    expect(pending.text).toContain('Sedang diproses');

    // The third check settles it: that pass cannot finish, nor the user be told, before the write.
    clock.advance(6 * 60_000);
    let passDone = false;
    const pass = world.app.watcher.runOnce().then(() => (passDone = true));
    await disk.whenHeld(1);
    expect(passDone).toBe(false);
    expect(world.telegram.botMessages(budi).some((m) => /Transaksi sukses/.test(m.text ?? ''))).toBe(false);
    disk.release();
    await pass;
    await world.telegram.waitFor(() => pending.text?.includes('Transaksi sukses'));
    await dataDirectoryOf(world.app).flush();
    expect(await world.app.db.transactions.get(refId)).toBeUndefined();
  });
});
