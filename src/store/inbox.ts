import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Update } from 'grammy/types';
import { ensureDir, fileMode, namingFile, releaseAppendHandle, removeStaleTemps, reportWrite, tightenMode } from './atomic-file.ts';
import { newBatch, writeFileAtomic, type AtomicWriter, type Batch, type WriteEvent } from './durable-file.ts';
import { StoreError, unreadableFileError } from './errors.ts';
import { compactedLog, cutBack, entryLine, marksLine, migrateLegacyInbox, parseInboxLog, type InboxEntry } from './inbox-log.ts';
import type { StoredSecret } from './key-audit.ts';
import type { Vault } from './vault.ts';
import { inboxAad, sealUpdate, type SealedUpdate } from './records/updates.ts';
import type { ResealReport } from './reseal.ts';

export type { InboxEntry } from './inbox-log.ts';

export { inboxFileName, legacyInboxFileName } from './inbox-log.ts';

/** The stored updates as the key audit sees them: one sealed value each. */
export function inboxSecrets(entries: Iterable<InboxEntry>): StoredSecret[] {
  return [...entries].map((entry) => ({ token: entry.sealed, aad: inboxAad(entry.id), name: `the stored update ${entry.id}` }));
}

/**
 * The update inbox of the data directory (the contract's `InboxStore` over it): updates that may
 * move money, on disk before Telegram is told they arrived, replayed at the next start until
 * marked done; held by update id, so it is the de-duplication record too.
 */
export interface Inbox {
  /** Whether an update with this id is held (done or not). */
  has(updateId: number): boolean;
  /**
   * Stores (sealed) the updates not held yet; resolves with them once on disk. A failed write
   * takes them out again (so they are not mistaken for duplicates later) and rejects.
   */
  add(updates: readonly Update[]): Promise<Update[]>;
  /** `add` for updates `sealUpdate` sealed already; resolves with the ids that were new. */
  addSealed(updates: readonly SealedUpdate[]): Promise<number[]>;
  /** Handled: the mark joins the next write, at the latest after `doneDelayMs`; resolves once on disk. */
  markDone(updateId: number): Promise<void>;
  /** Forgets done entries received more than `maxAgeMs` ago and all but the newest `maxCount` done ones (lazily). */
  pruneDone(limits: { maxAgeMs: number; maxCount: number }): void;
  /**
   * The entries not done (that `take` accepts, at most `limit`), lowest id first, still sealed;
   * counts one attempt each (on disk before it resolves). One replayed `maxAttempts` times
   * already is marked done instead and returned in `givenUp`.
   */
  takeSealedForReplay(
    maxAttempts: number,
    choice?: { limit?: number; take?: (updateId: number) => boolean },
  ): Promise<{ entries: Array<{ id: number; sealed: string }>; givenUp: number[] }>;
  /** Whether an update of `chatId` below `updateId` is stored and not done. */
  earlierOpen(chatId: number, updateId: number): boolean;
  /** Ids of the entries not done (for logs and tests). */
  pendingIds(): number[];
  /** Seals every stored update that is not sealed with the vault's current key again (key rotation). */
  reseal(): Promise<ResealReport>;
  /** Writes what is waiting (done marks, forgotten entries) now; resolves once on disk. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface InboxOptions {
  /** `inbox.jsonl` in the data directory. */
  path: string;
  vault: Vault;
  now?: () => Date;
  /** How long a done mark may wait for another write to join (ms). Default 200. */
  doneDelayMs?: number;
  onWrite?: (event: WriteEvent) => void;
  /** The store's file writer (behind its write gate); default writeFileAtomic. */
  writeFile?: AtomicWriter;
  /** The inbox file of before (`inbox.json`), migrated into the log at open if it is there. */
  legacyPath?: string;
  /** Dead lines (marks, forgotten entries) at which the log is compacted, if they are half of it or more. Default 1000. */
  compactAfterLines?: number;
}

type PruneLimits = { maxAgeMs: number; maxCount: number };

/** One write of the log and the callers waiting for it (a Batch of durable-file.ts). */
interface Write extends Batch {
  adds: InboxEntry[];
  done: Set<number>;
  tried: Set<number>;
  forget: Set<number>;
  /** New tokens of a key rotation, by update id (with the token they replace). */
  reseal?: Map<number, { from: string; to: string }>;
  /** Rewrite the whole log (its live entries only) instead of appending. */
  compact: boolean;
  /** Written as soon as the write before is done (not only when the done marks' delay is up). */
  due: boolean;
}

function newWrite(): Write {
  // Done marks nobody awaits: a failed write is no unhandled rejection (newBatch: the next write carries the state on).
  return { adds: [], done: new Set(), tried: new Set(), forget: new Set(), compact: false, due: false, ...newBatch() };
}

/** Memory holds the live entries; changes coalesce into the next write (one at a time), which appends and syncs once, or compacts. */
class LogInbox implements Inbox {
  private readonly entries: Map<number, InboxEntry>;
  /** Lines in the file (header included) and its size up to the last whole line. */
  private lines: number;
  private size: number;
  private fileExists: boolean;
  /** An append failed: the file may hold part of it past `size`, cut off before the next append. */
  private cutNeeded = false;
  private next: Write | undefined;
  private writing: Write | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Lines no longer needed at which the next compaction starts (moved on after one failed, so a failing disk is not retried in a loop). */
  private compactAt: number;
  private pruneLimits: PruneLimits | undefined;
  private closed = false;
  private readonly now: () => Date;
  private readonly write: AtomicWriter;

  constructor(
    private readonly options: InboxOptions,
    state: { entries: Map<number, InboxEntry>; lines: number; size: number } | undefined,
  ) {
    this.entries = state?.entries ?? new Map<number, InboxEntry>();
    this.lines = state?.lines ?? 0;
    this.size = state?.size ?? 0;
    // An empty file (never written by kiosbot) gets its header with the first write.
    this.fileExists = state !== undefined && state.lines > 0;
    this.now = options.now ?? (() => new Date());
    this.write = options.writeFile ?? writeFileAtomic;
    this.compactAt = options.compactAfterLines ?? 1000;
  }

  has(updateId: number): boolean {
    return this.entries.has(updateId);
  }

  async add(updates: readonly Update[]): Promise<Update[]> {
    const byId = new Map<number, Update>();
    for (const update of updates)
      if (!this.entries.has(update.update_id) && !byId.has(update.update_id)) byId.set(update.update_id, update);
    const added = await this.addSealed([...byId.values()].map((update) => sealUpdate(this.options.vault, update)));
    return added.map((id) => byId.get(id)).filter((update) => update !== undefined);
  }

  async addSealed(updates: readonly SealedUpdate[]): Promise<number[]> {
    if (this.closed) throw new StoreError('closed', `${this.options.path} is closed; no more changes are accepted.`);
    const receivedAt = this.now().toISOString();
    const fresh: InboxEntry[] = [];
    for (const { id, sealed, chatId } of updates) {
      if (this.entries.has(id)) continue;
      const entry: InboxEntry = { id, sealed, receivedAt, ...(chatId === undefined ? {} : { chatId }) };
      // Held from now on, so that a second delivery while the write runs is a duplicate.
      this.entries.set(id, entry);
      fresh.push(entry);
    }
    if (fresh.length === 0) return [];
    const write = this.join(true);
    write.adds.push(...fresh);
    await write.promise;
    return fresh.map((entry) => entry.id);
  }

  markDone(updateId: number): Promise<void> {
    const entry = this.entries.get(updateId);
    if (!entry || entry.done || this.closed) return Promise.resolve();
    if (this.writing?.done.has(updateId)) return this.writing.promise;
    const write = this.join(false);
    write.done.add(updateId);
    return write.promise;
  }

  pruneDone(limits: PruneLimits): void {
    this.pruneLimits = limits;
    // Marks on their way to the disk count as done: the pruning follows their write.
    if ((this.next?.done.size ?? 0) > 0 || (this.writing?.done.size ?? 0) > 0) void this.join(false);
    else this.prune();
  }

  async takeSealedForReplay(
    maxAttempts: number,
    choice: { limit?: number; take?: (updateId: number) => boolean } = {},
  ): Promise<{ entries: Array<{ id: number; sealed: string }>; givenUp: number[] }> {
    const open = this.openEntries()
      .filter((entry) => choice.take?.(entry.id) ?? true)
      .slice(0, choice.limit ?? Infinity);
    const taken: Array<{ id: number; sealed: string }> = [];
    const givenUp: number[] = [];
    for (const entry of open) {
      if ((entry.attempts ?? 0) < maxAttempts) taken.push({ id: entry.id, sealed: entry.sealed });
      else givenUp.push(entry.id);
    }
    if (open.length === 0) return { entries: taken, givenUp };
    const write = this.join(true);
    for (const { id } of taken) write.tried.add(id);
    for (const id of givenUp) write.done.add(id);
    await write.promise;
    return { entries: taken, givenUp };
  }

  earlierOpen(chatId: number, updateId: number): boolean {
    for (const entry of this.entries.values()) if (entry.chatId === chatId && entry.id < updateId && this.isOpen(entry)) return true;
    return false;
  }

  pendingIds(): number[] {
    return this.openEntries().map((entry) => entry.id);
  }

  async reseal(): Promise<ResealReport> {
    const report: ResealReport = { resealed: { credentials: 0, conversations: 0, inbox: 0 }, unreadable: [] };
    const fresh = new Map<number, { from: string; to: string }>();
    for (const entry of this.entries.values()) {
      if (this.options.vault.isCurrent(entry.sealed)) continue;
      try {
        fresh.set(entry.id, { from: entry.sealed, to: this.options.vault.reseal(entry.sealed, inboxAad(entry.id)) });
      } catch {
        report.unreadable.push(`the stored update ${entry.id}`);
      }
    }
    if (fresh.size > 0) {
      // A rewrite: the file then holds no token of the key before, not even in a line no longer needed.
      const write = this.join(true);
      write.compact = true;
      write.reseal = fresh;
      await write.promise;
    }
    report.resealed.inbox = fresh.size;
    return report;
  }

  flush(): Promise<void> {
    const next = this.next;
    if (next && !next.due) this.makeDue(next);
    return (next ?? this.writing)?.promise ?? Promise.resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.flush();
    } finally {
      await releaseAppendHandle(this.options.path);
    }
  }

  private isOpen(entry: InboxEntry): boolean {
    return !entry.done && !this.next?.done.has(entry.id) && !this.writing?.done.has(entry.id);
  }

  private openEntries(): InboxEntry[] {
    return [...this.entries.values()].filter((entry) => this.isOpen(entry)).sort((a, b) => a.id - b.id);
  }

  /** Forgets done entries (no longer needed to recognise a re-delivery); the log learns it with its next write. */
  private forget(ids: number[]): void {
    if (ids.length === 0) return;
    for (const id of ids) this.entries.delete(id);
    const write = this.join(false);
    for (const id of ids) write.forget.add(id);
  }

  private prune(): void {
    const limits = this.pruneLimits;
    if (!limits) return;
    this.pruneLimits = undefined;
    const oldest = this.now().getTime() - limits.maxAgeMs;
    const done = [...this.entries.values()].filter((entry) => entry.done).sort((a, b) => a.id - b.id);
    const excess = done.length - limits.maxCount;
    this.forget(done.filter((entry, index) => index < excess || Date.parse(entry.receivedAt) < oldest).map((entry) => entry.id));
  }

  /** The next write, `due` now or at the latest `doneDelayMs` from the first change that waits for it. */
  private join(due: boolean): Write {
    if (this.closed && !due) {
      // After close nothing lazy is written any more (as the file's last write went out with close).
      return this.next ?? newWrite();
    }
    const write = (this.next ??= newWrite());
    if (due) {
      if (!write.due) this.makeDue(write);
    } else if (!write.due && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (this.next === write) this.makeDue(write);
      }, this.options.doneDelayMs ?? 200);
      this.timer.unref();
    }
    return write;
  }

  private makeDue(write: Write): void {
    write.due = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // After the current synchronous run, so that all its changes land in this one write.
    if (!this.writing) queueMicrotask(() => void this.writeNext());
  }

  private async writeNext(): Promise<void> {
    const write = this.next;
    if (!write || this.writing) return;
    this.next = undefined;
    this.writing = write;
    try {
      await this.put(write);
      this.applyWritten(write);
      this.writing = undefined;
      write.resolve();
    } catch (error) {
      // Not on disk: the new entries are not held (Telegram's next delivery of them is stored
      // again), the marks are lost (the entries are open again), the rest is as before.
      for (const entry of write.adds) if (this.entries.get(entry.id) === entry) this.entries.delete(entry.id);
      this.writing = undefined;
      write.reject(error);
    }
    this.prune();
    // Changes made while this write ran (the narrowing above does not see them).
    const after = this.next as Write | undefined;
    if (after?.due) await this.writeNext();
    else if (!after && this.deadLines() >= this.compactAt && this.deadLines() >= this.entries.size) {
      // In the background: the current callers are resolved already; a batch arriving meanwhile joins it.
      setImmediate(() => {
        if (this.closed) return;
        const compaction = this.join(true);
        compaction.compact = true;
      });
    }
  }

  private deadLines(): number {
    return this.lines - 1 - this.entries.size;
  }

  private async put(write: Write): Promise<void> {
    await this.putLines(write).catch(namingFile(this.options.path));
  }

  /** Appends the write's lines, or writes the live entries as a new file. */
  private async putLines(write: Write): Promise<void> {
    const startedAt = performance.now();
    const file = this.options.path;
    let compact = write.compact || !this.fileExists;
    if (!compact && this.cutNeeded) {
      // What a failed append may have left goes, or the whole file is written anew.
      compact = !(await cutBack(file, this.size).then(
        () => true,
        () => false,
      ));
      if (!compact) this.cutNeeded = false;
    }
    let text: string;
    if (compact) {
      text = compactedLog(this.compactedEntries(write));
      try {
        await this.write(file, text, { backup: false });
      } catch (error) {
        this.compactAt = this.deadLines() + (this.options.compactAfterLines ?? 1000);
        throw error;
      }
      this.compactAt = this.options.compactAfterLines ?? 1000;
      this.fileExists = true;
      this.cutNeeded = false;
      this.lines = this.entries.size + 1;
      this.size = Buffer.byteLength(text);
    } else {
      text = marksLine({ forget: [...write.forget] });
      for (const entry of write.adds) text += entryLine(entry);
      text += marksLine({ done: [...write.done], tried: [...write.tried] });
      if (text === '') return;
      try {
        await this.write(file, text, { backup: false, append: true });
      } catch (error) {
        this.cutNeeded = true;
        throw error;
      }
      this.lines += countLines(text);
      this.size += Buffer.byteLength(text);
    }
    reportWrite(this.options.onWrite, file, Buffer.byteLength(text), startedAt);
  }

  /** The live entries as they are once `write` is on disk, lowest id first. */
  private compactedEntries(write: Write): InboxEntry[] {
    return [...this.entries.values()]
      .sort((a, b) => a.id - b.id)
      .map((entry) => {
        const done = entry.done || write.done.has(entry.id);
        const attempts = (entry.attempts ?? 0) + (write.tried.has(entry.id) ? 1 : 0);
        const token = write.reseal?.get(entry.id);
        return {
          ...entry,
          ...(token && token.from === entry.sealed ? { sealed: token.to } : {}),
          ...(done ? { done: true as const } : {}),
          ...(attempts > 0 ? { attempts } : {}),
        };
      });
  }

  /** What a write put on disk becomes true in memory. */
  private applyWritten(write: Write): void {
    for (const id of write.done) {
      const entry = this.entries.get(id);
      if (entry) entry.done = true;
    }
    for (const id of write.tried) {
      const entry = this.entries.get(id);
      if (entry) entry.attempts = (entry.attempts ?? 0) + 1;
    }
    for (const [id, { from, to }] of write.reseal ?? []) {
      const entry = this.entries.get(id);
      if (entry?.sealed === from) entry.sealed = to;
    }
  }
}

function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Opens (or prepares) the inbox log, migrating the file of before first; a torn last line is cut off. */
export async function openInbox(options: InboxOptions): Promise<Inbox> {
  await ensureDir(path.dirname(options.path));
  // A compaction a crash cut short left its temp file: the log itself is whole.
  await removeStaleTemps(options.path);
  if (options.legacyPath) await migrateLegacyInbox(options.legacyPath, options);
  const text = await fs.readFile(options.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw unreadableFileError(options.path, error);
  });
  const state = text === undefined ? undefined : parseInboxLog(text, options.path);
  if (state) {
    // Nothing may be appended after a torn line: it would be damage in the middle then.
    if (state.size < Buffer.byteLength(text ?? '')) await cutBack(options.path, state.size);
    await tightenMode(options.path, fileMode);
  }
  return new LogInbox(options, state);
}
