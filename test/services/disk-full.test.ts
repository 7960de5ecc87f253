/**
 * Disk full while a purchase is confirmed (the real app against the sandbox provider): the
 * confirmation fails loudly, nothing of it stays in memory, nothing reaches the provider — not
 * from the caller, not from the settlement watcher — and once the disk works again the data on
 * disk is exactly what the bot believes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDirectoryOf, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import { createTestDisk, type TestDisk } from '../helpers/disk.ts';
import { startSettlementWorld, testClock, type TestClock } from '../helpers/settlement.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

describe('confirming a purchase with the disk full', () => {
  let world: TestWorld;
  let clock: TestClock;
  let disk: TestDisk;
  afterEach(async () => {
    disk.setFull(false);
    disk.release();
    await world.stop();
  });

  const start = async () => {
    clock = testClock();
    disk = createTestDisk();
    // The watcher is driven by hand (runOnce), so its timer never races the test.
    world = await startSettlementWorld(clock, { jobs: false, app: { storeWriteFile: disk.write } });
  };
  const line = { code: 'TSEL10', productName: 'Telkomsel 10.000', target: '081234567890', price: 10_500 };
  const confirm = (user: EmulatedUser, confirmationId: string, holdMs?: number) =>
    world.app.services.purchases.confirm({
      confirmationId,
      userId: user.id,
      chatId: user.id,
      lines: [line],
      ...(holdMs === undefined ? {} : { holdMs }),
    });
  /** Purchase requests (create or check) the reseller sandbox received. */
  const purchaseRequests = () =>
    world.sandbox.received.filter((request) => request.service === 'reseller' && request.path === '/transaction');
  const hotFile = () =>
    JSON.parse(readFileSync(path.join(world.dataDir, 'kiosbot.json'), 'utf8')) as { transactions: object; confirmations: object };
  const writesHeld = async (count: number) => {
    await disk.whenHeld(count);
    expect(disk.held()).toBe(count);
  };

  it('rejects the confirmation (also a double tap), keeps no trace of it, and neither the caller nor the watcher sends anything', async () => {
    await start();
    const budi = await buyer(world);
    disk.setFull(true);

    await expect(confirm(budi, 'c-full', 120_000)).rejects.toMatchObject({ code: 'ENOSPC' });
    // A second tap of the same button while the disk is still full: no success from memory either.
    await expect(confirm(budi, 'c-full', 120_000)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await world.app.db.transactions.confirmation('c-full')).toBeUndefined();
    expect(await world.app.db.transactions.listOpen()).toEqual([]);

    // Past the hold, the watcher finds nothing to send.
    clock.advance(10 * 60_000);
    await world.app.watcher.runOnce();
    expect(purchaseRequests()).toEqual([]);

    // The disk works again: what is on disk is what the bot believes, before and after a restart.
    disk.setFull(false);
    await dataDirectoryOf(world.app).flush();
    expect(hotFile().transactions).toEqual({});
    expect(hotFile().confirmations).toEqual({});
    await world.restart();
    expect(await world.app.db.transactions.listOpen()).toEqual([]);
    await world.app.watcher.runOnce();
    expect(purchaseRequests()).toEqual([]);

    // And a new confirmation is recorded and sent normally.
    const [tx] = await confirm(budi, 'c-after');
    expect(tx).toBeDefined();
    expect(hotFile().confirmations).toHaveProperty('c-after');
    await world.app.services.purchases.submit(tx!.refId);
    expect(purchaseRequests().map((request) => (request.body as { ref_id?: string }).ref_id)).toEqual([tx!.refId]);
  });

  it('a watcher that saw the purchase while its write was running sends nothing when that write fails', async () => {
    await start();
    const budi = await buyer(world);
    disk.hold();
    // No hold: the watcher may send it at once (as after a crash).
    const confirmed = confirm(budi, 'c-race');
    await writesHeld(1);
    expect(await world.app.db.transactions.listOpen()).toHaveLength(1);
    const watcherRun = world.app.watcher.runOnce();
    // Let the watcher reach its first send (it records sentAt before calling the provider).
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    disk.failNext(1);
    disk.release();

    await expect(confirmed).rejects.toMatchObject({ code: 'ENOSPC' });
    await watcherRun;
    expect(purchaseRequests()).toEqual([]);
    expect(await world.app.db.transactions.listOpen()).toEqual([]);
    await world.app.watcher.runOnce();
    expect(purchaseRequests()).toEqual([]);
    await dataDirectoryOf(world.app).flush();
    expect(hotFile().transactions).toEqual({});
  });

  it('a second confirm of the same id does not report success before the first one is on disk', async () => {
    await start();
    const budi = await buyer(world);
    // Nothing else on its way to the disk (the inbox's done marks): the held write is the confirmation's.
    await world.idle();
    await dataDirectoryOf(world.app).flush();
    disk.hold();
    const first = confirm(budi, 'c-twice', 120_000);
    await writesHeld(1);
    // The double tap finds the confirmation in memory; its write is still running, and will fail.
    const second = confirm(budi, 'c-twice', 120_000);
    disk.failNext(1);
    disk.release();
    const results = await Promise.allSettled([first, second]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await world.app.db.transactions.confirmation('c-twice')).toBeUndefined();

    // On a working disk the double tap gets the same transactions, once they are on disk.
    const [a, b] = await Promise.all([confirm(budi, 'c-ok', 120_000), confirm(budi, 'c-ok', 120_000)]);
    expect(b.map((tx) => tx.refId)).toEqual(a.map((tx) => tx.refId));
    expect(Object.keys(hotFile().transactions)).toEqual(a.map((tx) => tx.refId));
  });
});
