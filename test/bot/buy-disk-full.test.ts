/**
 * A reseller confirms a purchase while the server's disk is full: the bot must say the purchase
 * was not placed (never "being processed"), and the provider must receive nothing, then or later.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inboxFileName } from '../../src/store/inbox.ts';
import { shardOfUser, userShardFileName } from '../../src/store/user-shards.ts';
import { dataDirectoryOf, type TestWorld } from '../helpers/app.ts';
import { buyer, eventually, waitForSummary } from '../helpers/buy.ts';
import { createTestDisk, type TestDisk } from '../helpers/disk.ts';
import { startSettlementWorld, testClock } from '../helpers/settlement.ts';

describe('buying with the disk full', () => {
  let world: TestWorld;
  let disk: TestDisk;
  afterEach(async () => {
    disk.setFull(false);
    await world.stop();
  });

  /** The conversation states on disk in `userId`'s shard file. */
  const statesOnDisk = (userId: number): object => {
    const file = path.join(world.dataDir, userShardFileName(shardOfUser(userId)));
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { conversations: object }).conversations : {};
  };

  it('tells the user the purchase was not recorded, and nothing reaches the provider', async () => {
    const clock = testClock();
    // The disk fills up between the tap's inbox write and its confirmation's (a tap the inbox
    // cannot store is never handled: test/server/unstored-updates.test.ts).
    disk = createTestDisk({ spare: (file) => path.basename(file) === inboxFileName });
    world = await startSettlementWorld(clock, { jobs: false, app: { storeWriteFile: disk.write } });
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    // The disk fills up only once the summary's conversation state is stored (as in real life:
    // the user reads the summary, then taps).
    await eventually(() => Object.keys(statesOnDisk(budi.id)).length > 0);
    await dataDirectoryOf(world.app).flush();

    disk.setFull(true);
    budi.tap(summary, '✅ Konfirmasi');
    const answer = await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'tidak bisa dicatat' });
    expect(answer.text).toContain('tidak ada yang dikirim ke provider');

    // Past the hold a purchase would have been sent by the watcher; there is none.
    clock.advance(10 * 60_000);
    await world.app.watcher.runOnce();
    const purchases = world.sandbox.received.filter((request) => request.service === 'reseller' && request.path === '/transaction');
    expect(purchases).toEqual([]);
    expect(await world.app.db.transactions.listOpen()).toEqual([]);
    // Never told it is being processed.
    expect(world.telegram.botMessages(budi).some((message) => /Sedang diproses/.test(message.text ?? ''))).toBe(false);
    expect(disk.failed.length).toBeGreaterThan(0);

    // Once the disk works again, buying again (as the message says) goes through, once.
    disk.setFull(false);
    const again = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    budi.tap(again, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(budi, { after: again, textIncludes: /Sedang diproses|Transaksi sukses|Berhasil|Sukses/ });
    expect(world.sandbox.received.filter((request) => request.service === 'reseller' && request.path === '/transaction')).toHaveLength(1);
  });
});
