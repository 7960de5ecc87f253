/**
 * The update inbox's log (inbox.jsonl) at every instant a crash can come: the process killed in
 * the middle of any write (an append of a batch, of done marks, a compaction), or a disk that
 * fills up half-way through an append. After a restart no update whose storing was acknowledged
 * is lost, none whose handling was marked done is handled again, and the log opens (a torn end is
 * dropped, damage in the middle refuses the start, naming the line).
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Update } from 'grammy/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, type AtomicWriter } from '../../src/store/durable-file.ts';
import { StoreCorruptError } from '../../src/store/errors.ts';
import { openInbox, type Inbox } from '../../src/store/inbox.ts';
import { readInboxLog } from '../../src/store/inbox-log.ts';
import { inboxAad } from '../../src/store/records/updates.ts';
import { createVault } from '../../src/store/vault.ts';
import { enospc } from '../helpers/disk.ts';
import { privateTextUpdate } from '../helpers/updates.ts';

const vault = createVault({ key: Buffer.alloc(32, 8) });
const update = (id: number): Update => privateTextUpdate(id, `TSEL10.0812${id}`);

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-inbox-log-'));
  file = path.join(dir, 'inbox.jsonl');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const open = (writeFile?: AtomicWriter, compactAfterLines = 4) =>
  openInbox({ path: file, vault, doneDelayMs: 60_000, compactAfterLines, ...(writeFile ? { writeFile } : {}) });

/** Prunes every done entry (none is needed to recognise a re-delivery any more). */
const forgetDone = { maxAgeMs: Infinity, maxCount: 0 };

/** What the bot was told was on disk: updates stored (so Telegram was acknowledged) and updates marked done (handled). */
interface Acknowledged {
  stored: Set<number>;
  done: Set<number>;
}

/**
 * A day of the inbox in small: batches stored, done marks (coalesced with the next batch and
 * alone), every done entry forgotten, a replay's attempts, and compactions (every
 * few lines here). Stops at the first write that fails, as a killed process would.
 */
async function day(inbox: Inbox, acknowledged: Acknowledged): Promise<void> {
  const add = async (...ids: number[]) => {
    const stored = await inbox.add(ids.map(update));
    for (const { update_id: id } of stored) acknowledged.stored.add(id);
  };
  // A mark whose write failed is simply not acknowledged (the update is handled again after the restart).
  const done = (...ids: number[]) =>
    ids.map((id) =>
      inbox.markDone(id).then(
        () => void acknowledged.done.add(id),
        () => undefined,
      ),
    );
  const settle = (marks: Array<Promise<void>>) => Promise.all(marks);
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  await add(1, 2, 3);
  const first = done(1, 2);
  await add(4, 5);
  await settle(first);
  inbox.pruneDone(forgetDone);
  await add(6);
  await settle([...done(3, 4), inbox.flush()]);
  await inbox.takeSealedForReplay(3);
  inbox.pruneDone(forgetDone);
  // Marks waiting when a compaction starts go with it.
  const second = done(5);
  await tick();
  await add(7, 8);
  await settle([...second, ...done(6, 7), inbox.flush()]);
  const third = done(8);
  await tick();
  await add(9, 10);
  await settle([...third, ...done(9), inbox.flush()]);
  await tick();
  await inbox.flush();
}

/** Checks a restarted inbox against what was acknowledged before the crash. */
async function expectNothingLostOrRepeated(acknowledged: Acknowledged): Promise<void> {
  const inbox = await open();
  try {
    for (const id of acknowledged.stored) {
      // Forgotten only once done: an acknowledged update is either held or was handled.
      if (!acknowledged.done.has(id)) expect(inbox.has(id), `update ${id} was acknowledged to Telegram`).toBe(true);
    }
    const pending = inbox.pendingIds();
    for (const id of acknowledged.done) expect(pending, `update ${id} was handled`).not.toContain(id);
    // Everything a replay would hand out opens.
    const { entries } = await inbox.takeSealedForReplay(100);
    for (const entry of entries) expect((JSON.parse(vault.decrypt(entry.sealed, inboxAad(entry.id))) as Update).update_id).toBe(entry.id);
    // The log takes more after the restart, and opens again.
    expect(await inbox.add([update(500)])).toHaveLength(1);
  } finally {
    await inbox.close();
  }
  const again = await open();
  expect(again.has(500)).toBe(true);
  await again.close();
}

/** The writes of a clean run of `day`: whether each appended or replaced, and its size. */
async function writesOfADay(): Promise<Array<{ append: boolean; bytes: number }>> {
  const writes: Array<{ append: boolean; bytes: number }> = [];
  const inbox = await open(async (target, content, options) => {
    writes.push({ append: options.append === true, bytes: Buffer.byteLength(content) });
    await writeFileAtomic(target, content, options);
  });
  await day(inbox, { stored: new Set(), done: new Set() });
  await inbox.close();
  await rm(file);
  return writes;
}

/**
 * A process killed during its write number `at`, after `keep` bytes of it reached the file: an
 * append leaves those bytes at the end; a compaction (temp file, rename) leaves its temp file
 * unless it got as far as the rename (`keep` = all of it). Nothing is written after.
 */
function killedDuring(at: number, keep: number): AtomicWriter {
  let count = 0;
  let dead = false;
  return async (target, content, options) => {
    if (dead) throw new Error('the process is gone');
    if (count++ < at) return writeFileAtomic(target, content, options);
    dead = true;
    const bytes = Buffer.from(content);
    if (keep >= bytes.length) await writeFileAtomic(target, content, options);
    else if (options.append) await appendFile(target, bytes.subarray(0, keep));
    else await writeFile(path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.dead.tmp`), bytes.subarray(0, keep));
    throw new Error('killed');
  };
}

describe('the inbox log, killed at any write', () => {
  it('after a kill in the middle of any append, done mark or compaction, nothing acknowledged is lost and nothing handled is replayed', async () => {
    const writes = await writesOfADay();
    // The day appends batches and marks, and compacts (the first write creates the file).
    expect(writes.filter((write) => !write.append).length).toBeGreaterThanOrEqual(3);
    expect(writes.filter((write) => write.append).length).toBeGreaterThanOrEqual(5);
    let runs = 0;
    for (const [at, write] of writes.entries()) {
      for (const keep of new Set([0, 1, Math.floor(write.bytes / 2), write.bytes - 1, write.bytes])) {
        const acknowledged: Acknowledged = { stored: new Set(), done: new Set() };
        const inbox = await open(killedDuring(at, keep));
        await day(inbox, acknowledged).catch(() => undefined);
        // The process is gone: its inbox is dropped unclosed.
        await expectNothingLostOrRepeated(acknowledged);
        await rm(dir, { recursive: true, force: true });
        runs++;
      }
    }
    expect(runs).toBeGreaterThan(40);
  });

  it('a compaction cut short leaves no temp file behind after the restart', async () => {
    const writes = await writesOfADay();
    const compaction = writes.findIndex((write, index) => index > 0 && !write.append);
    const inbox = await open(killedDuring(compaction, 10));
    await day(inbox, { stored: new Set(), done: new Set() }).catch(() => undefined);
    expect((await readdir(dir)).some((name) => name.endsWith('.tmp'))).toBe(true);
    await (await open()).close();
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('the inbox log on a disk that fills up', () => {
  it('an append cut short by a full disk is not acknowledged, is cut off, and the next batch is stored after it', async () => {
    let full = false;
    const disk: AtomicWriter = async (target, content, options) => {
      if (full && options.append) {
        // Part of the batch reaches the file before the disk is full, as a real short write.
        appendFileSync(target, Buffer.from(content).subarray(0, 40));
        throw enospc(target);
      }
      await writeFileAtomic(target, content, options);
    };
    const inbox = await open(disk);
    await inbox.add([update(1), update(2)]);
    full = true;
    await expect(inbox.add([update(3), update(4)])).rejects.toMatchObject({ code: 'ENOSPC', path: file });
    // Not stored: Telegram's next delivery of them is stored again, not taken for a duplicate.
    expect(inbox.has(3)).toBe(false);
    full = false;
    expect((await inbox.add([update(3), update(5)])).map((u) => u.update_id)).toEqual([3, 5]);
    await inbox.close();

    const reopened = await open();
    expect(reopened.pendingIds()).toEqual([1, 2, 3, 5]);
    await reopened.close();
  });
});

describe('a compaction that fails', () => {
  it('is not retried at once in a loop: the next try waits for as many lines again, and batches go on being appended', async () => {
    let replaces = 0;
    const disk: AtomicWriter = async (target, content, options) => {
      if (!options.append && replaces++ > 0) throw enospc(target);
      await writeFileAtomic(target, content, options);
    };
    const inbox = await open(disk, 4);
    for (let id = 1; id <= 6; id++) {
      await inbox.add([update(id)]);
      void inbox.markDone(id);
      await inbox.flush();
      inbox.pruneDone(forgetDone);
    }
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    // The file's creation, then one failed compaction per 4 lines no longer needed, not one per turn.
    expect(replaces).toBeLessThanOrEqual(4);
    expect(await inbox.add([update(7)])).toHaveLength(1);
    await inbox.close();
    expect((await open()).pendingIds()).toEqual([7]);
  });
});

describe('reading the inbox log', () => {
  async function logOf(...ids: number[]): Promise<void> {
    const inbox = await open(undefined, 10_000);
    for (const id of ids) await inbox.add([update(id)]);
    await inbox.close();
  }

  it('a torn last line (a crash during its append) is dropped and cut off; the next append follows the whole lines', async () => {
    await logOf(1, 2);
    const whole = readFileSync(file, 'utf8');
    appendFileSync(file, '{"id":3,"sealed":"v1.');
    const inbox = await open();
    expect(inbox.pendingIds()).toEqual([1, 2]);
    expect(readFileSync(file, 'utf8')).toBe(whole);
    await inbox.add([update(3)]);
    await inbox.close();
    expect((await open()).pendingIds()).toEqual([1, 2, 3]);
  });

  it('a last line failing its checksum is dropped too', async () => {
    await logOf(1, 2);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"id":2', '"id":9');
    writeFileSync(file, lines.join('\n'));
    const inbox = await open();
    expect(inbox.pendingIds()).toEqual([1]);
    await inbox.close();
  });

  it('a damaged line in the middle refuses the start, names the line and says what to do, and changes nothing', async () => {
    await logOf(1, 2, 3);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2]!.replace('"id":2', '"id":7');
    writeFileSync(file, lines.join('\n'));
    const before = readFileSync(file, 'utf8');
    const refused = await open().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreCorruptError);
    expect((refused as Error).message).toMatch(/inbox\.jsonl is unreadable: line 3 .*fails its checksum.*restore/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('the inbox file of before (inbox.json) becomes the log at open, entries and marks kept; a crash before the old file went migrates again', async () => {
    const legacy = path.join(dir, 'inbox.json');
    const sealed = (id: number) => vault.encrypt(JSON.stringify(update(id)), inboxAad(id));
    const entries = [
      { id: 1, sealed: sealed(1), receivedAt: '2026-11-01T00:00:00.000Z', done: true },
      { id: 2, sealed: sealed(2), receivedAt: '2026-11-01T00:00:00.000Z', attempts: 2, chatId: 5 },
    ];
    writeFileSync(legacy, JSON.stringify({ version: 1, entries }));
    writeFileSync(`${legacy}.bak`, JSON.stringify({ version: 1, entries: [] }));
    // The log is written, then the process dies before the old file is removed: it is migrated again.
    await expect(openInbox({ path: file, vault, legacyPath: legacy, writeFile: killedDuring(0, Number.MAX_SAFE_INTEGER) })).rejects.toThrow(
      'killed',
    );
    expect(existsSync(legacy)).toBe(true);

    const inbox = await openInbox({ path: file, vault, legacyPath: legacy });
    expect(inbox.has(1) && inbox.has(2)).toBe(true);
    expect(inbox.pendingIds()).toEqual([2]);
    expect(inbox.earlierOpen(5, 3)).toBe(true);
    // Its attempts count on: the third replay gives up on it.
    expect((await inbox.takeSealedForReplay(2)).givenUp).toEqual([2]);
    await inbox.close();
    expect(existsSync(legacy) || existsSync(`${legacy}.bak`)).toBe(false);
    expect([...((await readInboxLog(file))?.entries.keys() ?? [])]).toEqual([1, 2]);
  });
});

describe('the inbox log stays proportional to the batches', () => {
  it('each batch appends bytes for its own updates, however many the inbox holds; compaction keeps the file to the live entries', async () => {
    const appended: number[] = [];
    const inbox = await open(async (target, content, options) => {
      if (options.append) appended.push(Buffer.byteLength(content));
      await writeFileAtomic(target, content, options);
    }, 200);
    let next = 1;
    for (let batch = 0; batch < 60; batch++) {
      const ids = Array.from({ length: 50 }, () => next++);
      await inbox.add(ids.map(update));
      for (const id of ids) void inbox.markDone(id);
      await inbox.flush();
      inbox.pruneDone(forgetDone);
    }
    await inbox.flush();
    await new Promise((resolve) => setImmediate(resolve));
    await inbox.flush();
    await inbox.close();
    // Batches of 50 alike cost alike, the 60th as the first (marks and forgotten ids are a few bytes each).
    const batches = appended.filter((bytes) => bytes > 5_000);
    expect(batches.length).toBeGreaterThanOrEqual(59);
    expect(Math.max(...batches) / Math.min(...batches)).toBeLessThan(1.05);
    // 3,000 updates went through; the file holds what was not compacted away yet, not all of them.
    expect(readFileSync(file).length).toBeLessThan(6 * Math.max(...batches));
  });
});
