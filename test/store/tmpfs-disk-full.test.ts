/**
 * The disk-full case on a real full disk: the data directory lives on a 64 KiB tmpfs that the test
 * fills up, so the store's writes fail with the kernel's own ENOSPC (no test seam involved).
 *
 * Mounting needs root (or CAP_SYS_ADMIN) on Linux. Where that is impossible the test is reported
 * as SKIPPED with the reason (never as passed); with KIOSBOT_REQUIRE_TMPFS=1 it fails instead, for
 * machines that must run it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import { mountTinyTmpfs, type TinyDisk } from '../helpers/disk.ts';
import { startSettlementWorld, testClock } from '../helpers/settlement.ts';

describe('a real full disk (tmpfs)', () => {
  let world: TestWorld | undefined;
  let disk: TinyDisk | undefined;
  afterEach(async () => {
    if (disk && 'dir' in disk) disk.unfill();
    await world?.stop();
    if (disk && 'dir' in disk) disk.unmount();
    world = undefined;
    disk = undefined;
  });

  it('a confirmation that cannot be written is refused, leaves no trace, sends nothing, and the store is whole once space is back', async (ctx) => {
    disk = mountTinyTmpfs();
    if ('reason' in disk) {
      if (process.env.KIOSBOT_REQUIRE_TMPFS === '1') throw new Error(`KIOSBOT_REQUIRE_TMPFS=1 but ${disk.reason}`);
      ctx.skip(`no real full-disk test here: ${disk.reason}`);
      return;
    }
    const dataDir = path.join(disk.dir, 'data');
    const clock = testClock();
    world = await startSettlementWorld(clock, { jobs: false, env: { DATA_DIR: dataDir } });
    const budi = await buyer(world);
    const hotFile = path.join(dataDir, 'kiosbot.json');
    const before = readFileSync(hotFile, 'utf8');

    disk.fill();
    const confirming = world.app.services.purchases.confirm({
      confirmationId: 'tmpfs-1',
      userId: budi.id,
      chatId: budi.id,
      lines: [{ code: 'TSEL10', productName: 'Telkomsel 10.000', target: '081234567890', price: 10_500 }],
      holdMs: 120_000,
    });
    await expect(confirming).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(await world.app.db.transactions.confirmation('tmpfs-1')).toBeUndefined();
    expect(await world.app.db.transactions.listOpen()).toEqual([]);
    // The file on disk is the one before, and the failed write left no temp file behind.
    expect(readFileSync(hotFile, 'utf8')).toBe(before);
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    clock.advance(10 * 60_000);
    await world.app.watcher.runOnce();
    const purchases = () =>
      world?.sandbox.received.filter((request) => request.service === 'reseller' && request.path === '/transaction') ?? [];
    expect(purchases()).toEqual([]);

    // Space is back: a restart reads exactly what the bot believed, and buying works again.
    disk.unfill();
    await world.restart();
    expect(await world.app.db.transactions.listOpen()).toEqual([]);
    expect(await world.app.db.credentials.has(budi.id, 'reseller')).toBe(true);
    const [tx] = await world.app.services.purchases.confirm({
      confirmationId: 'tmpfs-2',
      userId: budi.id,
      chatId: budi.id,
      lines: [{ code: 'TSEL10', productName: 'Telkomsel 10.000', target: '081234567890', price: 10_500 }],
    });
    expect(JSON.parse(readFileSync(hotFile, 'utf8'))).toHaveProperty(['confirmations', 'tmpfs-2']);
    await world.app.services.purchases.submit(tx!.refId);
    expect(purchases()).toHaveLength(1);
  });
});
