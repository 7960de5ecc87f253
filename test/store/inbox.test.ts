import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Update } from 'grammy/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { privateTextUpdate } from '../helpers/updates.ts';
import { openInbox, type Inbox } from '../../src/store/inbox.ts';
import { readInboxLog } from '../../src/store/inbox-log.ts';
import { inboxAad } from '../../src/store/records/updates.ts';
import { createVault } from '../../src/store/vault.ts';
import type { WriteEvent } from '../../src/store/durable-file.ts';

const vault = createVault({ key: Buffer.alloc(32, 7) });

const privateMessage = (updateId: number, text: string): Update => privateTextUpdate(updateId, text);

/** The entries a restart would find in the log: id, and whether done. */
async function onDiskEntries(file: string): Promise<Array<{ id: number; done?: true }>> {
  const log = await readInboxLog(file);
  return [...(log?.entries.values() ?? [])].sort((a, b) => a.id - b.id);
}

describe('update inbox (inbox.jsonl)', () => {
  let dir: string;
  let file: string;
  let inbox: Inbox | undefined;
  let writes: WriteEvent[];
  let clock: number;
  const open = async (doneDelayMs = 10_000) => {
    inbox = await openInbox({ path: file, vault, now: () => new Date(clock), doneDelayMs, onWrite: (event) => writes.push(event) });
    return inbox;
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-inbox-'));
    file = path.join(dir, 'inbox.jsonl');
    writes = [];
    clock = Date.parse('2026-01-01T00:00:00Z');
  });
  afterEach(async () => {
    await inbox?.close();
    inbox = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('stores updates sealed and on disk before add resolves; a second add of the same id is a duplicate', async () => {
    const box = await open();
    const fresh = await box.add([privateMessage(10, 'PIN 123456'), privateMessage(11, 'TSEL10.081234567890')]);
    expect(fresh.map((u) => u.update_id)).toEqual([10, 11]);
    const onDisk = await readFile(file, 'utf8');
    expect((await onDiskEntries(file)).map((e) => e.id)).toEqual([10, 11]);
    // What a user typed (a PIN, an API key) is never on disk in plain text.
    expect(onDisk).not.toContain('123456');
    expect(onDisk).not.toContain('TSEL10');

    expect(await box.add([privateMessage(11, 'again'), privateMessage(12, 'new')])).toEqual([privateMessage(12, 'new')]);
    expect(box.has(11)).toBe(true);
    expect(box.has(13)).toBe(false);
  });

  it('survives a reopen: held ids, and the entries not done come back for a replay in update-id order', async () => {
    const box = await open();
    await box.add([privateMessage(21, 'b'), privateMessage(20, 'a')]);
    await box.add([privateMessage(19, 'z')]);
    void box.markDone(21);
    await box.flush();
    await box.close();
    inbox = undefined;

    const reopened = await open();
    expect([19, 20, 21].map((id) => reopened.has(id))).toEqual([true, true, true]);
    const { entries, givenUp } = await reopened.takeSealedForReplay(3);
    expect(entries.map((entry) => entry.id)).toEqual([19, 20]);
    expect((JSON.parse(vault.decrypt(entries[0]!.sealed, inboxAad(19))) as Update).message?.text).toBe('z');
    expect(givenUp).toEqual([]);
  });

  it('done marks are coalesced: many marks, one write, after the delay or with the next add', async () => {
    const box = await open(50);
    await box.add([privateMessage(1, 'a'), privateMessage(2, 'b'), privateMessage(3, 'c')]);
    const before = writes.length;
    const marks = [box.markDone(1), box.markDone(2), box.markDone(3)];
    expect(writes.length).toBe(before);
    await Promise.all(marks);
    expect(writes.length).toBe(before + 1);
    expect(box.pendingIds()).toEqual([]);

    // A mark waiting when an add writes goes out with it.
    await box.add([privateMessage(4, 'd')]);
    const mark = box.markDone(4);
    const afterAdd = writes.length;
    await box.add([privateMessage(5, 'e')]);
    expect(writes.length).toBe(afterAdd + 1);
    await mark;
    expect(writes.length).toBe(afterAdd + 1);
    expect((await onDiskEntries(file)).find((e) => e.id === 4)?.done).toBe(true);
  });

  it('pruning by count forgets the oldest done entries beyond it, never an entry not done', async () => {
    const box = await open();
    await box.add([privateMessage(1, 'a'), privateMessage(2, 'b'), privateMessage(3, 'c')]);
    void box.markDone(1);
    void box.markDone(3);
    await box.flush();
    box.pruneDone({ maxAgeMs: Infinity, maxCount: 1 });
    await box.flush();
    const ids = (await onDiskEntries(file)).map((e) => e.id);
    // 1: done and past the count; 2: not done (kept for the replay); 3: the newest done one (kept for dedup).
    expect(ids).toEqual([2, 3]);
    expect(box.has(1)).toBe(false);
  });

  it('webhook pruning: done entries past the age or count limit go, entries not done stay', async () => {
    const box = await open();
    await box.add([privateMessage(1, 'old')]);
    clock += 2 * 60 * 60_000;
    await box.add([privateMessage(2, 'a'), privateMessage(3, 'b'), privateMessage(4, 'c'), privateMessage(5, 'not done')]);
    for (const id of [1, 2, 3, 4]) void box.markDone(id);
    await box.flush();
    box.pruneDone({ maxAgeMs: 60 * 60_000, maxCount: 2 });
    await box.flush();
    // 1 is too old, 2 is beyond the newest two done ones, 5 is not done.
    expect([1, 2, 3, 4, 5].filter((id) => box.has(id))).toEqual([3, 4, 5]);
  });

  it('gives up on an update every start crashed on, after the attempts allowed', async () => {
    const box = await open();
    await box.add([privateMessage(7, 'poison'), privateMessage(8, 'fine')]);
    for (let start = 1; start <= 2; start++) {
      const { entries } = await box.takeSealedForReplay(2);
      expect(entries.map((entry) => entry.id)).toEqual([7, 8]);
      if (start === 2) void box.markDone(8);
    }
    const third = await box.takeSealedForReplay(2);
    expect(third.entries).toEqual([]);
    expect(third.givenUp).toEqual([7]);
    expect(box.pendingIds()).toEqual([]);
  });
});
