import {
  appendFileSync,
  copyFileSync,
  existsSync,
  promises as fsPromises,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { restoreBackup, writeBackup } from '../../src/store/backup.ts';
import { StoreCorruptError, StoreVersionError } from '../../src/store/errors.ts';
import { openHistory } from '../../src/store/history.ts';
import { encodeLine, monthOf, type SegmentAppender } from '../../src/store/history-lines.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import { appendDurably, enospc } from '../helpers/disk.ts';
import { createClock, createTempDirs, historyOnDisk, modeOf, openTestStore, purchase, readJson, testVault } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

/** A settled record as history holds it: the purchase of helpers.ts, settled. */
function settled(refId: string, overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    ...purchase(refId),
    status: 'Sukses',
    createdAt: '2025-01-15T10:00:00.000Z',
    updatedAt: '2025-01-15T10:01:00.000Z',
    settledAt: '2025-01-15T10:01:00.000Z',
    checks: 1,
    ...overrides,
  };
}

/** A data directory with settled transactions of two users over two months, the store closed. */
async function settledStore() {
  const dataDir = dirs.make();
  const clock = createClock('2025-02-10T10:00:00Z');
  const { store } = await openTestStore(dataDir, { now: clock.now });
  const txs = [
    purchase('jan-a', { createdAt: '2025-01-05T10:00:00.000Z', target: '0811', trxId: 'TRX-A' }),
    purchase('jan-b', { createdAt: '2025-01-06T10:00:00.000Z', target: '0812', trxId: 'trx-b' }),
    purchase('feb-a', { createdAt: '2025-02-01T10:00:00.000Z', target: '0811', trxId: 'TRX-C' }),
    purchase('other', { userId: 7, chatId: 7, createdAt: '2025-02-02T10:00:00.000Z', target: '0811', trxId: 'TRX-D' }),
  ];
  for (const tx of txs) {
    await store.transactions.create({ ...tx, status: 'Pending' });
    await store.transactions.settle(tx.refId, { status: 'Sukses', sn: `SN-${tx.refId}` });
  }
  await store.transactions.create(purchase('open', { createdAt: '2025-02-10T09:00:00.000Z', target: '0811' }));
  await store.close();
  return { dataDir, clock, reopen: async () => (await openTestStore(dataDir, { now: clock.now })).store };
}

/** Every lookup the repository offers, as [name, result] (refIds and statuses only). */
async function lookups(store: Awaited<ReturnType<typeof openTestStore>>['store']) {
  const refs = (txs: TransactionRecord[]) => txs.map((tx) => tx.refId);
  return {
    find: (await store.transactions.find('jan-b'))?.sn,
    trx: (await store.transactions.findByTrxId(42, 'TRX-B'))?.refId,
    trxOther: await store.transactions.findByTrxId(42, 'trx-d'),
    target: refs(await store.transactions.listByTarget(42, '0811')),
    user: refs(await store.transactions.listByUser(42)),
    page: refs(await store.transactions.listByUser(42, { limit: 2, offset: 1 })),
    day: refs(await store.transactions.listByUserBetween(42, new Date('2025-01-06T00:00:00Z'), new Date('2025-01-07T00:00:00Z'))),
    since: refs(await store.transactions.listCreatedSince(new Date('2025-02-01T00:00:00Z'))).sort(),
  };
}

const expected = {
  find: 'SN-jan-b',
  trx: 'jan-b',
  trxOther: undefined,
  target: ['open', 'feb-a', 'jan-a'],
  user: ['open', 'feb-a', 'jan-b', 'jan-a'],
  page: ['feb-a', 'jan-b'],
  day: ['jan-b'],
  since: ['feb-a', 'open', 'other'],
};

/** How many of this process's open file descriptors point at `file` (Linux). */
const openHandles = (file: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // the descriptor readdir itself used, closed since
    }
  }).length;

const historyDir = (dataDir: string) => path.join(dataDir, 'history');
const segment = (dataDir: string, month: string) => path.join(historyDir(dataDir), `${month}.jsonl`);

describe('history', () => {
  it('files transactions by the UTC month of createdAt', () => {
    expect(monthOf('2025-01-31T23:59:59.999Z')).toBe('2025-01');
    // 1 February 05:00 in Jakarta is still January in UTC.
    expect(monthOf('2025-02-01T05:00:00+07:00')).toBe('2025-01');
  });

  it('appends each settlement as one checked line of its month segment (0600, directory 0700), newest month first', async () => {
    const dir = path.join(dirs.make(), 'history');
    const writes: string[] = [];
    const history = await openHistory({ dir, onWrite: (event) => writes.push(path.basename(event.file)) });
    expect(history.months()).toEqual([]);
    expect(modeOf(dir)).toBe(0o700);
    await history.append([settled('a'), settled('b', { createdAt: '2024-12-31T23:00:00.000Z' })]);
    expect(history.months()).toEqual(['2025-01', '2024-12']);
    expect(writes).toEqual(['2025-01.jsonl', '2024-12.jsonl']);
    expect(modeOf(path.join(dir, '2025-01.jsonl'))).toBe(0o600);
    const lines = readFileSync(path.join(dir, '2025-01.jsonl'), 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\{"format":"kiosbot-history","version":2,"month":"2025-01"\}\t[0-9a-f]{8}$/);
    expect(lines[1]).toBe(encodeLine(settled('a')).slice(0, -1));
    // One append costs one line, whatever the segment holds already.
    const before = statSync(path.join(dir, '2025-01.jsonl')).size;
    await history.append([settled('c')]);
    expect(statSync(path.join(dir, '2025-01.jsonl')).size - before).toBe(Buffer.byteLength(encodeLine(settled('c'))));
    expect((await history.get('c'))?.refId).toBe('c');
    await history.close();
  });

  it('finds by ref id, trx id (any case), target, user and day after a restart, and lists since a time', async () => {
    const { reopen } = await settledStore();
    const store = await reopen();
    expect(await lookups(store)).toEqual(expected);
    expect(await store.transactions.findByTrxId(7, 'trx-d')).toMatchObject({ refId: 'other' });
    expect(await store.transactions.findForUser(7, 'jan-a')).toBeUndefined();
    await store.close();
  });

  it('reads a refId appended twice (a re-run after a crash) once, as its last copy', async () => {
    const dir = path.join(dirs.make(), 'history');
    const history = await openHistory({ dir });
    await history.append([settled('a', { status: 'Gagal' })]);
    await history.append([settled('a', { status: 'Sukses', sn: 'SN-2' })]);
    const check = async (h: typeof history) => {
      expect(await h.get('a')).toMatchObject({ status: 'Sukses', sn: 'SN-2' });
      const entries = await h.userEntries(42);
      expect(entries).toMatchObject([{ refId: 'a', createdMs: Date.parse('2025-01-15T10:00:00.000Z') }]);
      expect((await h.getMany(entries)).map((tx) => tx.status)).toEqual(['Sukses']);
      expect((await h.byTarget(42, '081234567890')).map((tx) => tx.status)).toEqual(['Sukses']);
      expect((await h.scan('2025-01', () => true)).map((tx) => tx.status)).toEqual(['Sukses']);
    };
    await check(history);
    await history.close();
    const again = await openHistory({ dir });
    await check(again);
    await again.close();
  });

  it('cuts off a torn last line after a crash, and appends after it cleanly', async () => {
    const { dataDir, reopen } = await settledStore();
    const file = segment(dataDir, '2025-02');
    const whole = statSync(file).size;
    // The crash: half a line written, never acknowledged (no newline), like a write cut short.
    appendFileSync(file, encodeLine(settled('torn', { createdAt: '2025-02-03T00:00:00.000Z' })).slice(0, 60));
    const store = await reopen();
    expect(statSync(file).size).toBe(whole);
    expect(await lookups(store)).toEqual(expected);
    expect(await store.transactions.find('torn')).toBeUndefined();
    await store.transactions.create(purchase('after', { createdAt: '2025-02-04T00:00:00.000Z', status: 'Pending' }));
    await store.transactions.settle('after', { status: 'Gagal' });
    await store.close();
    expect(Object.keys(historyOnDisk(dataDir, '2025-02').transactions).sort()).toEqual(['after', 'feb-a', 'other']);
    const again = await reopen();
    expect((await again.transactions.find('after'))?.status).toBe('Gagal');
    await again.close();
  });

  it('cuts off a whole last line that fails its checksum (garbage the crash left), not the lines before it', async () => {
    const { dataDir, reopen } = await settledStore();
    const file = segment(dataDir, '2025-01');
    const whole = statSync(file).size;
    appendFileSync(file, `${'\0'.repeat(40)}\n`);
    const store = await reopen();
    expect(statSync(file).size).toBe(whole);
    expect(await lookups(store)).toEqual(expected);
    await store.close();
  });

  it('rebuilds a deleted index from the segments, and catches up one that is behind', async () => {
    const { dataDir, reopen } = await settledStore();
    const indexDir = path.join(historyDir(dataDir), 'index');
    // Behind: the state (and the buckets) of before the last settlements, as after a power cut.
    const first = await reopen();
    await first.close();
    const older = path.join(dirs.make(), 'state.json');
    copyFileSync(path.join(indexDir, 'state.json'), older);
    const store = await reopen();
    await store.transactions.create(
      purchase('late', { userId: 9, chatId: 9, createdAt: '2025-01-25T00:00:00.000Z', status: 'Pending', trxId: 'TRX-L' }),
    );
    await store.transactions.settle('late', { status: 'Sukses' });
    await store.close();
    for (const name of readdirSync(indexDir)) {
      if (name.endsWith('.idx'))
        writeFileSync(path.join(indexDir, name), readFileSync(path.join(indexDir, name), 'utf8').replace(/\n\[[^\n]*"late"[^\n]*/g, ''));
    }
    copyFileSync(older, path.join(indexDir, 'state.json'));
    const caughtUp = await reopen();
    expect((await caughtUp.transactions.findByTrxId(9, 'trx-l'))?.refId).toBe('late');
    expect(await lookups(caughtUp)).toEqual(expected);
    await caughtUp.close();

    rmSync(indexDir, { recursive: true });
    const rebuilt = await reopen();
    expect(existsSync(path.join(indexDir, 'state.json'))).toBe(true);
    expect(await lookups(rebuilt)).toEqual(expected);
    expect((await rebuilt.transactions.findByTrxId(9, 'TRX-L'))?.refId).toBe('late');
    await rebuilt.close();

    // One bucket lost while the state says it is there: rebuilt too.
    const bucket = readdirSync(indexDir).find((name) => name.startsWith('trx-'));
    rmSync(path.join(indexDir, bucket!));
    const again = await reopen();
    expect(await lookups(again)).toEqual(expected);
    expect((await again.transactions.findByTrxId(9, 'TRX-L'))?.refId).toBe('late');
    await again.close();
  });

  it('trusts no index line it has not checked: one pointing at another record makes a rebuild, and the answer is right', async () => {
    const { dataDir, reopen } = await settledStore();
    const indexDir = path.join(historyDir(dataDir), 'index');
    const store = await reopen();
    await store.close();
    // Swap the offsets of two ref entries of January (same segment, other lines).
    const refs = readdirSync(indexDir).filter((name) => name.startsWith('ref-'));
    const entry = (refId: string) => {
      for (const name of refs) {
        const line = readFileSync(path.join(indexDir, name), 'utf8')
          .split('\n')
          .find((l) => l.startsWith(`["${refId}",`));
        if (line) return { name, line, value: JSON.parse(line) as [string, string, number, number] };
      }
      throw new Error(`no entry for ${refId}`);
    };
    const a = entry('jan-a');
    const b = entry('jan-b');
    writeFileSync(
      path.join(indexDir, a.name),
      readFileSync(path.join(indexDir, a.name), 'utf8').replace(a.line, JSON.stringify([a.value[0], a.value[1], b.value[2], b.value[3]])),
    );
    const again = await reopen();
    expect((await again.transactions.find('jan-a'))?.sn).toBe('SN-jan-a');
    expect(await lookups(again)).toEqual(expected);
    await again.close();
  });

  it('converts month files of before on open, keeping the old file as .bak; a conversion a crash cut short is done again', async () => {
    const dataDir = dirs.make();
    const dir = historyDir(dataDir);
    const { store } = await openTestStore(dataDir);
    await store.close();
    const month = {
      version: 1,
      month: '2025-01',
      transactions: { 'old-b': settled('old-b', { createdAt: '2025-01-20T00:00:00.000Z', trxId: 'T-OLD' }), 'old-a': settled('old-a') },
    };
    writeFileSync(path.join(dir, '2025-01.json'), JSON.stringify(month));
    // A crash during an earlier conversion left its temp file; it is not the segment.
    writeFileSync(path.join(dir, '.2025-01.jsonl.999.tmp'), 'half');
    const { store: opened } = await openTestStore(dataDir);
    expect(readdirSync(dir).sort()).toEqual(['2025-01.json.bak', '2025-01.jsonl', 'index']);
    expect(readJson(path.join(dir, '2025-01.json.bak'))).toEqual(month);
    expect(historyOnDisk(dataDir, '2025-01')).toEqual({ transactions: month.transactions, lines: 2 });
    expect((await opened.transactions.findByTrxId(42, 't-old'))?.refId).toBe('old-b');
    expect((await opened.transactions.listByUser(42)).map((tx) => tx.refId)).toEqual(['old-b', 'old-a']);
    await opened.close();

    // A crash after the segment was renamed into place, before the old file was moved aside.
    copyFileSync(path.join(dir, '2025-01.json.bak'), path.join(dir, '2025-01.json'));
    const { store: again } = await openTestStore(dataDir);
    expect(historyOnDisk(dataDir, '2025-01').lines).toBe(2);
    expect(existsSync(path.join(dir, '2025-01.json'))).toBe(false);
    expect((await again.transactions.find('old-a'))?.refId).toBe('old-a');
    await again.close();
  });

  it('refuses an unreadable month file of before, and a segment of a newer kiosbot, changing nothing', async () => {
    const dataDir = dirs.make();
    const dir = historyDir(dataDir);
    await (await openTestStore(dataDir)).store.close();
    writeFileSync(path.join(dir, '2025-01.json'), 'not json');
    await expect(openTestStore(dataDir)).rejects.toThrow(StoreCorruptError);
    expect(readFileSync(path.join(dir, '2025-01.json'), 'utf8')).toBe('not json');
    rmSync(path.join(dir, '2025-01.json'));
    const newer = `${encodeLine({ format: 'kiosbot-history', version: 99, month: '2025-02' })}`;
    writeFileSync(path.join(dir, '2025-02.jsonl'), newer);
    await expect(openTestStore(dataDir)).rejects.toThrow(StoreVersionError);
    expect(readFileSync(path.join(dir, '2025-02.jsonl'), 'utf8')).toBe(newer);
  });

  it('backs up the segments (not the indexes) and restores them; a backup with month files of before restores and opens too', async () => {
    const { dataDir, reopen } = await settledStore();
    const file = path.join(dirs.make(), 'backup.json.gz');
    const backup = await writeBackup(dataDir, file);
    expect(backup.files.map((entry) => entry.name)).toEqual(['kiosbot.json', 'history/2025-01.jsonl', 'history/2025-02.jsonl']);

    // Restored over a directory with other data: its indexes go aside with its files.
    const target = dirs.make();
    const { store: elsewhere } = await openTestStore(target);
    await elsewhere.transactions.create(purchase('jan-a', { createdAt: '2025-01-05T10:00:00.000Z', status: 'Pending' }));
    await elsewhere.transactions.settle('jan-a', { status: 'Gagal' });
    await elsewhere.close();
    const { movedTo } = await restoreBackup(file, target, testVault());
    expect(readdirSync(path.join(movedTo!, 'history')).sort()).toEqual(['2025-01.jsonl', 'index']);
    const { store: restored } = await openTestStore(target);
    expect(await lookups(restored)).toEqual(expected);
    await restored.close();

    // A backup made before the segments: its month file converts on open.
    const store = await reopen();
    await store.close();
    const old = dirs.make();
    const { store: fresh } = await openTestStore(old);
    await fresh.close();
    writeFileSync(
      path.join(historyDir(old), '2025-01.json'),
      JSON.stringify({ version: 1, month: '2025-01', transactions: { legacy: settled('legacy') } }),
    );
    rmSync(path.join(historyDir(old), 'index'), { recursive: true });
    const oldFile = path.join(dirs.make(), 'old.json.gz');
    const oldBackup = await writeBackup(old, oldFile);
    expect(oldBackup.files.map((entry) => entry.name)).toEqual(['kiosbot.json', 'history/2025-01.json']);
    const into = dirs.make();
    await restoreBackup(oldFile, into, testVault());
    const { store: converted } = await openTestStore(into);
    expect((await converted.transactions.find('legacy'))?.status).toBe('Sukses');
    await converted.close();
    expect(readdirSync(historyDir(into)).sort()).toEqual(['2025-01.json.bak', '2025-01.jsonl', 'index']);
  });

  it('a failed append (disk full) rejects the settlement, leaves it final in the hot file and the segment as it was; the move finishes later', async () => {
    const dataDir = dirs.make();
    const clock = createClock('2025-01-31T06:00:00Z');
    let full = false;
    let partial = false;
    const appendFile: SegmentAppender = async (file, bytes) => {
      if (partial) {
        // Part of the line reaches the file before the disk fills up.
        appendFileSync(file, bytes.subarray(0, 20));
        throw enospc(file);
      }
      if (full) throw enospc(file);
      await appendDurably(file, bytes);
    };
    const { store } = await openTestStore(dataDir, { now: clock.now, appendFile });
    await store.transactions.create(purchase('ok', { status: 'Pending' }));
    await store.transactions.settle('ok', { status: 'Sukses' });
    const before = readFileSync(segment(dataDir, '2025-01'));

    await store.transactions.create(purchase('full', { status: 'Pending' }));
    full = true;
    await expect(store.transactions.settle('full', { status: 'Sukses', sn: 'SN-F' })).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(store.transactions.get('full')).toMatchObject({ status: 'Sukses', sn: 'SN-F' });
    expect(readFileSync(segment(dataDir, '2025-01'))).toEqual(before);
    full = false;
    partial = true;
    await expect(store.transactions.archiveSettled()).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readFileSync(segment(dataDir, '2025-01'))).toEqual(before);
    expect(store.transactions.get('full')).toMatchObject({ status: 'Sukses' });
    // A first segment of a month that cannot be written either: not even created, then torn.
    await store.transactions.create(purchase('feb', { status: 'Pending', createdAt: '2025-02-01T00:00:00.000Z' }));
    partial = false;
    full = true;
    await expect(store.transactions.settle('feb', { status: 'Gagal' })).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(existsSync(segment(dataDir, '2025-02'))).toBe(false);
    full = false;
    partial = true;
    await expect(store.transactions.archiveSettled()).rejects.toMatchObject({ code: 'ENOSPC' });
    const feb = segment(dataDir, '2025-02');
    expect(existsSync(feb) ? readFileSync(feb, 'utf8') : '').toBe('');
    expect(readFileSync(segment(dataDir, '2025-01'))).toEqual(before);
    expect(store.transactions.get('feb')).toMatchObject({ status: 'Gagal' });

    partial = false;
    expect(await store.transactions.archiveSettled()).toBe(2);
    expect(store.transactions.get('full')).toBeUndefined();
    expect((await store.transactions.find('full'))?.sn).toBe('SN-F');
    expect((await store.transactions.find('feb'))?.status).toBe('Gagal');
    await store.close();
    expect(Object.keys(historyOnDisk(dataDir, '2025-01').transactions)).toEqual(['ok', 'full']);
    expect(Object.keys(historyOnDisk(dataDir, '2025-02').transactions)).toEqual(['feb']);
  });

  it('keeps the segment it appends to open between settlements, another month closes it, and close closes it', async () => {
    const dir = dirs.make();
    const history = await openHistory({ dir });
    const jan = path.join(dir, '2025-01.jsonl');
    const feb = path.join(dir, '2025-02.jsonl');
    await history.append([settled('a')]);
    await history.append([settled('b')]);
    expect(openHandles(jan)).toBe(1);
    await history.append([settled('c', { createdAt: '2025-02-01T00:00:00.000Z' })]);
    expect([openHandles(jan), openHandles(feb)]).toEqual([0, 1]);
    await history.close();
    expect(openHandles(feb)).toBe(0);
    expect(readFileSync(jan, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('a settlement does not wait for its index lines; lookups do, and lines whose index write failed are indexed again from the segment', async () => {
    const dir = dirs.make();
    const history = await openHistory({ dir });
    const bucketWrite = vi.spyOn(fsPromises, 'appendFile');
    try {
      // The first index write fails: the settlement is on disk all the same, and a lookup catches up.
      bucketWrite.mockRejectedValueOnce(enospc('index'));
      await history.append([settled('a', { trxId: 'TRX-A', target: '0811' })]);
      expect((await history.get('a'))?.refId).toBe('a');
      // Another one fails: the next settlement's index write indexes it from the segment.
      bucketWrite.mockRejectedValueOnce(enospc('index'));
      await history.append([settled('b', { trxId: 'TRX-B', target: '0811', createdAt: '2025-01-16T10:00:00.000Z' })]);
      await history.append([settled('c', { trxId: 'TRX-C', createdAt: '2025-01-17T10:00:00.000Z' })]);
      await history.flush();
      expect(bucketWrite).toHaveBeenCalled();
    } finally {
      bucketWrite.mockRestore();
    }
    const found = async (archive: typeof history) => ({
      trx: (await archive.byTrxId('trx-b')).map((tx) => tx.refId),
      target: (await archive.byTarget(42, '0811')).map((tx) => tx.refId),
      user: (await archive.userEntries(42)).map((entry) => entry.refId),
    });
    const want = { trx: ['b'], target: ['b', 'a'], user: ['c', 'b', 'a'] };
    expect(await found(history)).toEqual(want);
    await history.close();
    const reopened = await openHistory({ dir });
    expect(await found(reopened)).toEqual(want);
    await reopened.close();
  });

  it('appends, index writes and checkpoints overlapping, then a crash (no close): the reopened history finds every record, once', async () => {
    const dir = dirs.make();
    const history = await openHistory({ dir, checkpointEvery: 1 });
    const refIds = Array.from({ length: 40 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    // Not awaited one by one: appends, index writes and checkpoints overlap.
    await Promise.all(
      refIds.map((refId, i) =>
        history.append([settled(refId, { trxId: `T-${i}`, createdAt: `2025-01-15T10:00:${String(i).padStart(2, '0')}.000Z` })]),
      ),
    );
    await history.flush();
    // A crash: no close (no last checkpoint). The state the checkpoints left must fit the buckets.
    const state = JSON.parse(readFileSync(path.join(dir, 'index', 'state.json'), 'utf8')) as {
      months: Record<string, { covered: number }>;
    };
    const covered = state.months['2025-01']?.covered ?? 0;
    const reopened = await openHistory({ dir });
    for (const [i, refId] of refIds.entries()) expect((await reopened.byTrxId(`t-${i}`)).map((tx) => tx.refId)).toEqual([refId]);
    expect(covered).toBeGreaterThan(0);
    await reopened.close();
    await history.close();
  });
});
