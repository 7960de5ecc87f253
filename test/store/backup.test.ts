/**
 * Backups as an operator uses them: made while the bot writes, checked before a restore, put back
 * with the current files kept aside, refused when they would lose or corrupt something.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackupJob } from '../../src/jobs/backups.ts';
import { silentLogger as quiet } from '../../src/logger.ts';
import {
  backupFileName,
  listBackups,
  pruneBackups,
  readBackup,
  restoreAdvice,
  restoreBackup,
  writeBackup,
  type Backup,
} from '../../src/store/backup.ts';
import { hotFileName, type Store } from '../../src/store/store.ts';
import { inboxFileName } from '../../src/store/inbox.ts';
import { parseInboxLog } from '../../src/store/inbox-log.ts';
import { privateTextUpdate } from '../helpers/updates.ts';
import { createVault } from '../../src/store/vault.ts';
import { shardOfUser, userShardFileName } from '../../src/store/user-shards.ts';
import { appendDurably, enospc } from '../helpers/disk.ts';
import { createClock, createTempDirs, openTestStore, purchase, testVault } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

/** A data directory in use: a connected user, a settled purchase in history, a Pending one. */
async function busyStore(): Promise<{ dataDir: string; store: Store }> {
  const dataDir = dirs.make();
  const clock = createClock('2026-11-20T08:00:00Z');
  const { store } = await openTestStore(dataDir, { now: clock.now });
  await store.users.upsert({ id: 42, firstName: 'Budi' });
  await store.credentials.save(42, 'reseller', { apiId: 'RS-1', apiKey: 'secret-key-1' });
  await store.transactions.create(purchase('ref-settled', { status: 'Pending' }));
  await store.transactions.settle('ref-settled', { status: 'Sukses', sn: 'SN-1' });
  await store.transactions.archiveSettled();
  await store.transactions.create(purchase('ref-pending', { status: 'Pending' }));
  return { dataDir, store };
}

function rewriteBackup(file: string, change: (backup: Backup) => void): void {
  const backup = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as Backup;
  change(backup);
  writeFileSync(file, gzipSync(JSON.stringify(backup)));
}

describe('backups', () => {
  it('are made while the bot writes, hold every data file and no plain secret, and restore into a store that opens', async () => {
    const { dataDir, store } = await busyStore();
    const file = path.join(dirs.make(), 'b', backupFileName(new Date('2026-11-20T09:00:00Z')));
    // Writes keep landing while the backup reads the files.
    const writing = Promise.all(Array.from({ length: 40 }, (_, i) => store.users.upsert({ id: 100 + i, firstName: `U${i}` })));
    const backup = await writeBackup(dataDir, file);
    await writing;
    await store.close();

    expect(path.basename(file)).toBe('kiosbot-20261120-090000.json.gz');
    // The hot file, the history month, and the users' shard files written so far (user 42's among them).
    const names = backup.files.map((entry) => entry.name);
    expect(names.slice(0, 2)).toEqual([hotFileName, userShardFileName(shardOfUser(42))]);
    expect(names.at(-1)).toBe('history/2026-11.jsonl');
    for (const name of names.slice(1, -1)) expect(name).toMatch(/^users\/\d{3}\.json$/);
    expect(gunzipSync(readFileSync(file)).toString('utf8')).not.toContain('secret-key-1');
    expect((await readBackup(file)).files).toHaveLength(names.length);

    const target = dirs.make();
    const { movedTo } = await restoreBackup(file, target, testVault());
    expect(movedTo).toBeUndefined();
    const { store: restored } = await openTestStore(target);
    expect(restored.credentials.load(42, 'reseller')).toEqual({ apiId: 'RS-1', apiKey: 'secret-key-1' });
    expect(restored.transactions.get('ref-pending')?.status).toBe('Pending');
    expect((await restored.transactions.find('ref-settled'))?.sn).toBe('SN-1');
    await restored.close();
  });

  it('a backup taken while purchases are confirmed and settled loses none that was confirmed before it began', async () => {
    const { dataDir, store } = await busyStore();
    const file = path.join(dirs.make(), 'during.json.gz');
    let stop = false;
    const confirmed: string[] = [];
    // Purchases keep coming: each is created, settled and moved to the history file, as the bot does.
    const traffic = (async () => {
      for (let i = 0; !stop && i < 400; i++) {
        const refId = `ref-during-${i}`;
        await store.transactions.create(purchase(refId, { status: 'Pending' }));
        confirmed.push(refId);
        if (i % 2 === 0) {
          await store.transactions.settle(refId, { status: 'Sukses', sn: `SN-${i}` });
          await store.transactions.archiveSettled();
        }
      }
    })();
    // Let some land first, then back up in the middle of the traffic.
    while (confirmed.length < 20) await new Promise((resolve) => setImmediate(resolve));
    const before = [...confirmed];
    // As the scheduled backup does: however fast the writes follow each other, it reads one state.
    await store.holdWrites(() => writeBackup(dataDir, file));
    stop = true;
    await traffic;
    await store.close();

    const target = dirs.make();
    await restoreBackup(file, target, testVault());
    const { store: restored } = await openTestStore(target);
    for (const refId of ['ref-pending', 'ref-settled', ...before]) expect(await restored.transactions.find(refId)).toBeDefined();
    const all = await restored.transactions.listByUser(42, { limit: 1000 });
    expect(new Set(all.map((tx) => tx.refId)).size).toBe(all.length);
    await restored.close();
  });

  it('while a backup holds the writes, no data file changes (the hot file, a shard, a history segment, the inbox log), and every change lands after', async () => {
    const dataDir = dirs.make();
    // The first history append fails (a full disk), so the settled purchase stays in the hot file
    // until archiveSettled moves it: that move (segment append, then hot file) happens during the hold.
    let failNext = false;
    const { store } = await openTestStore(dataDir, {
      appendFile: async (file, bytes) => {
        if (failNext) {
          failNext = false;
          throw enospc(file);
        }
        await appendDurably(file, bytes);
      },
    });
    await store.users.upsert({ id: 42, firstName: 'Budi' });
    await store.inbox.add([privateTextUpdate(30, '/saldo')]);
    await store.transactions.create(purchase('ref-old', { status: 'Pending' }));
    await store.transactions.settle('ref-old', { status: 'Sukses', sn: 'SN-0' });
    await store.transactions.archiveSettled();
    await store.transactions.create(purchase('ref-pending', { status: 'Pending' }));
    failNext = true;
    await store.transactions.settle('ref-pending', { status: 'Sukses', sn: 'SN-2' }).catch(() => undefined);
    const files = () =>
      readdirSync(dataDir, { recursive: true, encoding: 'utf8' })
        .filter((name) => /^(kiosbot\.json|inbox\.jsonl|users\/\d{3}\.json|history\/\d{4}-\d{2}\.jsonl)$/.test(name))
        .sort()
        .map(
          (name) =>
            `${name}:${createHash('sha256')
              .update(readFileSync(path.join(dataDir, name)))
              .digest('hex')}`,
        );
    let landed: Promise<unknown> | undefined;
    let seenDuring: string[] = [];
    const before = files();
    expect(before.some((entry) => entry.startsWith('history/'))).toBe(true);
    expect(before.some((entry) => entry.startsWith('inbox.jsonl:'))).toBe(true);
    await store.holdWrites(async () => {
      landed = Promise.all([
        store.users.upsert({ id: 43, firstName: 'Sari' }),
        store.transactions.archiveSettled(),
        store.inbox.add([privateTextUpdate(31, 'TSEL10.081234567890')]),
      ]);
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      seenDuring = files();
    });
    expect(seenDuring).toEqual(before);
    await landed;
    await store.close();
    expect(files().filter((entry) => entry.startsWith('history/'))).not.toEqual(before.filter((entry) => entry.startsWith('history/')));
    const { store: reopened } = await openTestStore(dataDir);
    expect(reopened.users.get(43)?.firstName).toBe('Sari');
    expect(reopened.inbox.pendingIds()).toEqual([30, 31]);
    expect(await reopened.transactions.find('ref-pending')).toMatchObject({ status: 'Sukses', sn: 'SN-2' });
    await reopened.close();
  });

  it('a restore keeps the files it replaces aside (with their .bak copies), and the store opens the backup', async () => {
    const { dataDir, store } = await busyStore();
    const file = path.join(dirs.make(), 'backup.json.gz');
    await writeBackup(dataDir, file);
    await store.users.upsert({ id: 7, firstName: 'After the backup' });
    await store.close();

    const { movedTo } = await restoreBackup(file, dataDir, testVault());
    expect(movedTo).toBeDefined();
    expect(readdirSync(movedTo ?? '').sort()).toEqual(expect.arrayContaining([hotFileName, `${hotFileName}.bak`, 'history']));
    expect(existsSync(path.join(dataDir, `${hotFileName}.bak`))).toBe(false);
    const { store: restored } = await openTestStore(dataDir);
    expect(restored.users.get(7)).toBeUndefined();
    expect(restored.users.get(42)?.firstName).toBe('Budi');
    await restored.close();
  });

  it('the inbox log goes into a backup as it is (appended done marks included); a restore marks what was unhandled handled, and a start replays nothing', async () => {
    const { dataDir, store } = await busyStore();
    await store.inbox.add([privateTextUpdate(10, '/saldo'), privateTextUpdate(11, 'TSEL10.081234567890'), privateTextUpdate(12, '1234')]);
    void store.inbox.markDone(10);
    await store.inbox.flush();
    const file = path.join(dirs.make(), 'backup.json.gz');
    const backup = await writeBackup(dataDir, file);
    await store.close();
    expect(backup.files.map((entry) => entry.name)).toContain(inboxFileName);
    // The log itself: its done mark is a line appended after the updates, not a rewrite.
    expect(
      backup.files
        .find((entry) => entry.name === inboxFileName)
        ?.text.split('\n')
        .at(-2),
    ).toMatch(/^\{"done":\[10\]\}\t/);

    const result = await restoreBackup(file, dataDir, testVault());
    expect(result.notReplayed).toBe(2);
    const { store: restored } = await openTestStore(dataDir);
    expect(restored.inbox.pendingIds()).toEqual([]);
    // Still recognised, so that Telegram's re-delivery of them is not handled either.
    expect([10, 11, 12].every((id) => restored.inbox.has(id))).toBe(true);
    await restored.close();
  });

  it('a backup made before the inbox log (inbox.json) restores, and the start migrates it, its unhandled updates handled', async () => {
    const { dataDir, store } = await busyStore();
    await store.inbox.add([privateTextUpdate(20, 'TSEL10.081234567890')]);
    const file = path.join(dirs.make(), 'backup.json.gz');
    await writeBackup(dataDir, file);
    await store.close();
    rewriteBackup(file, (old) => {
      const log = old.files.find((entry) => entry.name === inboxFileName);
      if (!log) throw new Error('no inbox in the backup');
      const entries = [...parseInboxLog(log.text, inboxFileName).entries.values()];
      log.name = 'inbox.json';
      log.text = JSON.stringify({ version: 1, entries });
      log.sha256 = createHash('sha256').update(log.text).digest('hex');
    });

    expect((await restoreBackup(file, dataDir, testVault())).notReplayed).toBe(1);
    const { store: restored } = await openTestStore(dataDir);
    expect(restored.inbox.has(20)).toBe(true);
    expect(restored.inbox.pendingIds()).toEqual([]);
    await restored.close();
    expect(existsSync(path.join(dataDir, 'inbox.json'))).toBe(false);
    expect(existsSync(path.join(dataDir, inboxFileName))).toBe(true);
  });

  it('refuses a damaged, altered or foreign backup, and one made with another key, changing nothing', async () => {
    const { dataDir, store } = await busyStore();
    await store.close();
    const good = path.join(dirs.make(), 'good.json.gz');
    await writeBackup(dataDir, good);
    const before = readFileSync(path.join(dataDir, hotFileName), 'utf8');

    const variant = (name: string, change: (backup: Backup) => void) => {
      const file = path.join(path.dirname(good), name);
      writeFileSync(file, readFileSync(good));
      rewriteBackup(file, change);
      return file;
    };
    const truncated = path.join(path.dirname(good), 'truncated.json.gz');
    writeFileSync(truncated, readFileSync(good).subarray(0, 40));
    const cases: Array<[string, RegExp]> = [
      [truncated, /not a kiosbot backup/],
      [path.join(path.dirname(good), 'missing.json.gz'), /Cannot read the backup/],
      [
        variant('edited.json.gz', (b) => {
          const shard = b.files.find((entry) => entry.text.includes('Budi'));
          if (shard) shard.text = shard.text.replace('Budi', 'Badu');
        }),
        /does not match its checksum/,
      ],
      [
        variant('foreign.json.gz', (b) => b.files.push({ ...(b.files[0] ?? { text: '', sha256: '' }), name: '../../etc/passwd' })),
        /does not write/,
      ],
      [
        variant('newer.json.gz', (b) => {
          const hot = b.files[0];
          if (!hot) return;
          hot.text = JSON.stringify({ ...(JSON.parse(hot.text) as object), version: 99 });
          hot.sha256 = createHash('sha256').update(hot.text).digest('hex');
        }),
        /newer kiosbot/,
      ],
    ];
    for (const [file, message] of cases) {
      await expect(restoreBackup(file, dataDir, testVault())).rejects.toThrow(message);
    }
    await expect(restoreBackup(good, dataDir, createVault({ key: Buffer.alloc(32, 99) }))).rejects.toThrow(/another ENCRYPTION_KEY/);
    expect(readFileSync(path.join(dataDir, hotFileName), 'utf8')).toBe(before);
  });

  it('refuses a backup whose user files were sealed with another key, naming the owners, and changes nothing', async () => {
    const { dataDir, store } = await busyStore();
    await store.close();
    const file = path.join(dirs.make(), 'b.json.gz');
    await writeBackup(dataDir, file);
    // The same user's shard file from an installation with another key, swapped into the backup.
    const otherDir = dirs.make();
    const { store: other } = await openTestStore(otherDir, { vault: createVault({ key: Buffer.alloc(32, 99) }) });
    await other.users.upsert({ id: 42, firstName: 'Budi' });
    await other.credentials.save(42, 'reseller', { apiId: 'RS-9', apiKey: 'secret-key-9' });
    await other.close();
    const name = userShardFileName(shardOfUser(42));
    const swapped = readFileSync(path.join(otherDir, name), 'utf8');
    rewriteBackup(file, (backup) => {
      const entry = backup.files.find((candidate) => candidate.name === name);
      if (!entry) throw new Error(`the backup has no ${name}`);
      entry.text = swapped;
      entry.sha256 = createHash('sha256').update(swapped).digest('hex');
    });
    const target = dirs.make();

    await expect(restoreBackup(file, target, testVault())).rejects.toThrow(/the reseller credentials of user 42/);
    expect(readdirSync(target)).toEqual([]);
  });

  it('refuses to restore while the bot holds the data directory', async () => {
    const { dataDir, store } = await busyStore();
    const file = path.join(dirs.make(), 'b.json.gz');
    await writeBackup(dataDir, file);
    await expect(restoreBackup(file, dataDir, testVault())).rejects.toThrow(/Stop that process first/);
    expect(store.users.get(42)).toBeDefined();
    await store.close();
  });

  it('scheduled backups keep the newest BACKUP_KEEP, and an unreadable data file points at the latest one', async () => {
    const { store } = await busyStore();
    const dir = dirs.make();
    expect(await restoreAdvice(dir)).toContain('npm run backup');
    const clock = createClock('2026-11-20T00:00:00Z');
    const job = createBackupJob({ dataDirectory: store, dir, keep: 2, logger: quiet, now: clock.now });
    const made: Array<string | undefined> = [];
    for (let i = 0; i < 3; i++) {
      made.push(await job.run());
      clock.advance(3600_000);
    }
    await store.close();
    expect(await listBackups(dir)).toEqual([made[2], made[1]]);
    expect(await restoreAdvice(dir)).toContain(`npm run restore -- ${made[2]}`);
    expect(await pruneBackups(dir, 1)).toEqual([made[1]]);
  });
});
