/**
 * Deferred writes (issue 15, the watcher at scale): a re-check that finds a transaction still
 * Pending changes only its schedule, so its write is shared with the next one instead of each
 * re-check rewriting the hot file. What must hold: the change is in effect at once; it reaches the
 * disk within a second or with the next write; a crash before then loses only the schedule (the
 * transaction is still open and due, so it is checked again); a failed write puts memory back;
 * anything carrying a notification is never deferred.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DurableFile, type WriteEvent } from '../../src/store/durable-file.ts';
import { hotFileName, openStore, type Store } from '../../src/store/store.ts';
import { lockFileName } from '../../src/store/lock.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import { createTestDisk } from '../helpers/disk.ts';
import { createTempDirs, purchase, readJson, testVault } from './helpers.ts';

const listSchema = z.object({ version: z.literal(1), items: z.array(z.number()) });
type List = z.infer<typeof listSchema>;

const dirs = createTempDirs();
const opened: Store[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((store) => store.close().catch(() => undefined)));
  dirs.cleanup();
});

function openList(file: string, writes: WriteEvent[]): Promise<DurableFile<List>> {
  return DurableFile.open<List>({
    path: file,
    decode: (raw) => ({ data: listSchema.parse(raw) }),
    defaultData: () => ({ version: 1, items: [] }),
    onWrite: (event) => writes.push(event),
  });
}

/** A list file on a test disk, with fake timers (setTimeout) for the deferral. */
async function heldList() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const file = path.join(dirs.make(), 'list.json');
  const disk = createTestDisk();
  const list = await DurableFile.open<List>({
    path: file,
    decode: (raw) => ({ data: listSchema.parse(raw) }),
    defaultData: () => ({ version: 1, items: [] }),
    writeFile: disk.write,
  });
  return { file, disk, list };
}

/** `heldList` with a write of `[1]` started and held on the disk (the test releases it). */
async function listWhileWriting() {
  const held = await heldList();
  held.disk.hold();
  const running = held.list.update((data) => data.items.push(1));
  await held.disk.whenHeld(1);
  return { ...held, running };
}

const listOnDisk = (file: string) => (readJson(file) as List).items;
const hotOnDisk = (dataDir: string, refId: string) =>
  (readJson(path.join(dataDir, hotFileName)) as { transactions: Record<string, TransactionRecord> }).transactions[refId];

describe('DurableFile.updateDeferred', () => {
  it('applies at once, writes within the deferral time, and many deferred changes share that one write', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const file = path.join(dirs.make(), 'list.json');
    const writes: WriteEvent[] = [];
    const list = await openList(file, writes);
    await list.update((data) => data.items.push(0));
    const before = writes.length;

    const results = Array.from({ length: 50 }, (_, i) => list.updateDeferred((data) => data.items.push(i + 1), 1000));
    expect(list.data.items).toHaveLength(51);
    expect(results[49]?.result).toBe(51);
    // Nothing written yet: the write waits for its timer.
    await new Promise((resolve) => setImmediate(resolve));
    expect(listOnDisk(file)).toEqual([0]);
    expect(writes.length).toBe(before);

    vi.advanceTimersByTime(1000);
    await Promise.all(results.map((r) => r.written));
    expect(listOnDisk(file)).toHaveLength(51);
    expect(writes.length).toBe(before + 1);
  });

  it('goes with the next ordinary write (which does not wait for the timer), and flush writes it at once', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const writes: WriteEvent[] = [];
    const list = await openList(file, writes);
    const deferred = list.updateDeferred((data) => data.items.push(1), 60_000);
    await list.update((data) => data.items.push(2));
    await deferred.written;
    expect(listOnDisk(file)).toEqual([1, 2]);
    expect(writes).toHaveLength(1);

    list.updateDeferred((data) => data.items.push(3), 60_000);
    await list.flush();
    expect(listOnDisk(file)).toEqual([1, 2, 3]);
    list.updateDeferred((data) => data.items.push(4), 60_000);
    await list.close();
    expect(listOnDisk(file)).toEqual([1, 2, 3, 4]);
  });

  it('a deferred change made while a write runs is written after it, once its timer fires', async () => {
    const { file, disk, list, running } = await listWhileWriting();
    const deferred = list.updateDeferred((data) => data.items.push(2), 500);
    disk.release();
    await running;
    await new Promise((resolve) => setImmediate(resolve));
    expect(listOnDisk(file)).toEqual([1]);
    vi.advanceTimersByTime(500);
    await deferred.written;
    expect(listOnDisk(file)).toEqual([1, 2]);
  });
});

describe('DurableFile.updateDeferred deadlines', () => {
  it('a change whose time came during a write is written right after it, not pushed back by a later deferred one', async () => {
    const { file, disk, list, running } = await listWhileWriting();
    const due = list.updateDeferred((data) => data.items.push(2), 500);
    vi.advanceTimersByTime(500);
    // Deferred again after its time came, while the write still runs.
    list.updateDeferred((data) => data.items.push(3), 500);
    disk.release();
    await running;
    // No timer advanced: the change that was due goes out with the next write at once.
    await due.written;
    expect(listOnDisk(file)).toEqual([1, 2, 3]);
  });

  it('a change deferred for less moves the write earlier', async () => {
    const { file, list } = await heldList();
    const long = list.updateDeferred((data) => data.items.push(1), 10_000);
    const short = list.updateDeferred((data) => data.items.push(2), 100);
    vi.advanceTimersByTime(100);
    await Promise.all([long.written, short.written]);
    expect(listOnDisk(file)).toEqual([1, 2]);
  });
});

describe('a still-Pending re-check stored with deferWrite', () => {
  const refId = 'TRX-DEFER-1';
  const rescheduled = '2026-11-26T12:00:00.000Z';

  async function storeWithPending(options: Parameters<typeof openStore>[0] extends infer O ? Partial<O> : never = {}) {
    const dataDir = dirs.make();
    const store = await openStore({ dataDir, vault: testVault(), ...options });
    opened.push(store);
    await store.transactions.create(purchase(refId, { status: 'Pending', nextCheckAt: '2026-11-26T09:00:00.000Z' }));
    return { dataDir, store };
  }

  it('resolves before its write, is in effect at once, and is on disk after the flush', async () => {
    const disk = createTestDisk();
    const { dataDir, store } = await storeWithPending({ writeFile: disk.write });
    disk.hold();
    const updated = await store.transactions.update(refId, { nextCheckAt: rescheduled, checks: 1 }, { deferWrite: true });
    expect(updated?.nextCheckAt).toBe(rescheduled);
    expect(store.transactions.get(refId)?.nextCheckAt).toBe(rescheduled);
    // Not due any more in memory: the watcher does not take it again.
    expect(store.transactions.due(Date.parse('2026-11-26T10:00:00.000Z')).map((tx) => tx.refId)).not.toContain(refId);
    expect(hotOnDisk(dataDir, refId)?.nextCheckAt).toBe('2026-11-26T09:00:00.000Z');
    disk.release();
    await store.flush();
    expect(hotOnDisk(dataDir, refId)?.nextCheckAt).toBe(rescheduled);
  });

  it('a crash before its write loses only the schedule: the transaction is still open, Pending and due', async () => {
    const { dataDir, store } = await storeWithPending();
    await store.transactions.update(refId, { nextCheckAt: rescheduled, checks: 1 }, { deferWrite: true });
    // What a kill -9 at this instant leaves on disk.
    const crashed = mkdtempSync(path.join(tmpdir(), 'kiosbot-crash-'));
    try {
      cpSync(dataDir, crashed, { recursive: true });
      rmSync(path.join(crashed, lockFileName), { force: true });
      const reopened = await openStore({ dataDir: crashed, vault: testVault() });
      try {
        const tx = reopened.transactions.get(refId);
        expect(tx?.status).toBe('Pending');
        expect(tx?.nextCheckAt).toBe('2026-11-26T09:00:00.000Z');
        expect(reopened.transactions.due(Date.parse('2026-11-26T10:00:00.000Z')).map((t) => t.refId)).toEqual([refId]);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(crashed, { recursive: true, force: true });
    }
  });

  it('a failed write (disk full) puts the schedule back in memory, so the transaction is due again; nothing throws', async () => {
    const disk = createTestDisk();
    const { store } = await storeWithPending({ writeFile: disk.write });
    disk.setFull(true);
    await store.transactions.update(refId, { nextCheckAt: rescheduled, checks: 1 }, { deferWrite: true });
    await expect(store.flush()).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(store.transactions.get(refId)?.nextCheckAt).toBe('2026-11-26T09:00:00.000Z');
    expect(store.transactions.due(Date.parse('2026-11-26T10:00:00.000Z')).map((tx) => tx.refId)).toEqual([refId]);
    disk.setFull(false);
  });

  it('is not deferred when it queues a notification: it resolves only once both are on disk', async () => {
    const disk = createTestDisk();
    const { dataDir, store } = await storeWithPending({ writeFile: disk.write });
    disk.hold();
    let resolved = false;
    const update = store.transactions
      .update(
        refId,
        { nextCheckAt: rescheduled, message: 'still waiting' },
        { deferWrite: true, notify: [{ chatId: -100, kind: 'operator', payload: { type: 'send', text: 'review' } }] },
      )
      .then(() => (resolved = true));
    await disk.whenHeld(1);
    expect(resolved).toBe(false);
    disk.release();
    await update;
    expect(hotOnDisk(dataDir, refId)?.nextCheckAt).toBe(rescheduled);
    expect(Object.keys((readJson(path.join(dataDir, hotFileName)) as { outbox: object }).outbox)).toHaveLength(1);
  });
});
