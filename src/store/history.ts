/**
 * Settled transactions: one append-only segment per month of their createdAt (UTC),
 * `history/YYYY-MM.jsonl` (a header line, then one self-checking line `<json>\t<crc32>` per
 * record), plus indexes in `history/index/`: caches of the segments, never the truth
 * (history-index.ts, history-indexer.ts).
 *
 * A settlement's line is on disk before its caller resolves (the cost does not grow with the
 * history); its index lines follow, and every lookup, flush and close waits for them. The same
 * refId may be appended twice (a settlement a crash cut short is finished again on open): the
 * line appended last is the record, every read sees it once.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ensureDir, reportWrite, syncDir, type WriteEvent } from './atomic-file.ts';
import { StoreError } from './errors.ts';
import { transactionSchema, type TransactionRecord } from './records/transactions.ts';
import {
  createSegmentWriter,
  damagedLine,
  decodeLine,
  encodeLine,
  headerOf,
  ignoreMissing,
  isRecordLike,
  loadSegments,
  monthOf,
  newSegment,
  readLines,
  readRecordLines,
  segmentFileName,
  type Segment,
  type SegmentAppender,
} from './history-lines.ts';
import type { Pointer } from './history-index.ts';
import { HistoryIndexer } from './history-indexer.ts';

/** A user's settled transaction as the user index knows it (enough to sort and page without reading it). */
export interface HistoryEntry {
  refId: string;
  createdMs: number;
  /** Where its latest line is (a user's lines hold every copy of their refIds: the last one wins). */
  at?: Pointer;
}

export interface HistoryOptions {
  dir: string;
  /** After every segment append (and every month converted from the old format). */
  onWrite?: (event: WriteEvent) => void;
  /** Default createSegmentWriter's; tests fail it like a full disk. */
  appendFile?: SegmentAppender;
  /** Wraps the appender (the store's write gate, which holds appends during a backup). */
  guardAppend?: (append: SegmentAppender) => SegmentAppender;
  /** Records indexed between two index checkpoints (default 1,000). */
  checkpointEvery?: number;
}

/** Name of the index directory inside the history directory. */
export const historyIndexDirName = 'index';
const monthPattern = /^\d{4}-\d{2}$/;

/** Opens the history (converting month files of before, repairing torn tails, catching the indexes up). */
export async function openHistory(options: HistoryOptions): Promise<HistoryArchive> {
  const dir = options.dir;
  const indexDir = path.join(dir, historyIndexDirName);
  const ownWriter = createSegmentWriter();
  const guardAppend = options.guardAppend ?? ((append: SegmentAppender) => append);
  await ensureDir(dir);
  await ensureDir(indexDir);
  // 1. Segments: month files of before converted, torn tails cut off.
  const segments = new Map<string, Segment>();
  for (const { month, file, size } of await loadSegments(dir, options.onWrite)) segments.set(month, newSegment(month, file, size));
  // 2. Indexes: trusted where they fit the segments, the rest indexed again.
  const indexer = await HistoryIndexer.open(indexDir, segments, options.checkpointEvery ?? 1_000);
  return new HistoryArchive(
    dir,
    segments,
    indexer,
    guardAppend(options.appendFile ?? ownWriter.append),
    () => ownWriter.close(),
    options.onWrite,
  );
}

/** Newest createdAt first; among equal times, the greater refId first. */
const newestFirst = (a: HistoryEntry, b: HistoryEntry) => b.createdMs - a.createdMs || (a.refId < b.refId ? 1 : a.refId > b.refId ? -1 : 0);

/** An open history: its segments (appended to here) and their indexes (kept by `indexer`). */
export class HistoryArchive {
  /** Appends, one after the other. */
  private queue: Promise<unknown> = Promise.resolve();
  private rebuilding: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly segments: Map<string, Segment>,
    private readonly indexer: HistoryIndexer,
    /** Every segment write goes through it (guarded). */
    private readonly appendFile: SegmentAppender,
    /** Closes the history's own appender. */
    private readonly closeWriter: () => Promise<void>,
    private readonly onWrite: ((event: WriteEvent) => void) | undefined,
  ) {}

  /** Months that have a segment, newest first. */
  months(): string[] {
    return [...this.segments.values()]
      .filter((s) => s.size > 0)
      .map((s) => s.month)
      .sort()
      .reverse();
  }

  // ---------------------------------------------------------------- appending

  /** Runs `work` after every append queued before it (appends never interleave). */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Appends settled transactions to their months' segments; resolves once on disk. A failed append leaves the segment as it was. */
  append(records: readonly TransactionRecord[]): Promise<void> {
    if (this.closed) return Promise.reject(new StoreError('closed', 'The history is closed; nothing more is appended.'));
    const byMonth = new Map<string, TransactionRecord[]>();
    for (const tx of records) {
      const month = monthOf(tx.createdAt);
      if (!monthPattern.test(month)) return Promise.reject(new Error(`Not a history month: ${month}`));
      const list = byMonth.get(month);
      if (list) list.push(tx);
      else byMonth.set(month, [tx]);
    }
    return this.enqueue(async () => {
      for (const [month, txs] of byMonth) await this.appendMonth(month, txs);
    });
  }

  /** Appends to one month's segment; its index lines follow (HistoryIndexer.indexAppend). */
  private async appendMonth(month: string, records: readonly TransactionRecord[]): Promise<void> {
    const file = path.join(this.dir, segmentFileName(month));
    const known = this.segments.get(month);
    const segment = known ?? newSegment(month, file);
    const created = !known;
    if (segment.dirty) {
      await fs.truncate(segment.file, segment.size).catch(ignoreMissing);
      segment.dirty = false;
    }
    const head = segment.size === 0 ? encodeLine(headerOf(month)) : '';
    const lines = records.map((tx) => encodeLine(tx));
    const bytes = Buffer.from(head + lines.join(''));
    const startedAt = performance.now();
    try {
      await this.appendFile(file, bytes);
    } catch (error) {
      // Cut off whatever part of the write reached the file; if even that fails, before the next append.
      const before = segment.size;
      await fs.truncate(file, before).catch((cutError: unknown) => {
        // No file: the failed write created nothing, so nothing is left to cut.
        if ((cutError as NodeJS.ErrnoException).code !== 'ENOENT') segment.dirty = true;
      });
      if (created && segment.dirty) this.segments.set(month, segment);
      throw error;
    }
    if (created) {
      await syncDir(this.dir);
      this.segments.set(month, segment);
    }
    const start = segment.size;
    segment.size += bytes.length;
    reportWrite(this.onWrite, file, bytes.length, startedAt);
    // The records are on disk: the caller goes on while the index lines are written.
    const span = { start, recordsAt: start + Buffer.byteLength(head), end: segment.size };
    this.indexer.indexAppend(segment, span, records, lines);
  }

  // ---------------------------------------------------------------- reading

  /** The settled transaction `refId` (its latest copy), if history has it. */
  async get(refId: string): Promise<TransactionRecord | undefined> {
    return (await this.getMany([refId]))[0];
  }

  /** The records of these refIds or user-index entries (those history has), in the order asked. */
  async getMany(items: ReadonlyArray<string | HistoryEntry>): Promise<TransactionRecord[]> {
    await this.indexer.caughtUp();
    const refIds = items.map((item) => (typeof item === 'string' ? item : item.refId));
    for (let attempt = 0; ; attempt++) {
      // First through the pointers the entries carry (no ref bucket to read), after a rebuild through the ref index.
      const pointers = new Map<string, Pointer>();
      if (attempt === 0) for (const item of items) if (typeof item !== 'string' && item.at) pointers.set(item.refId, item.at);
      const unknown = refIds.filter((refId) => !pointers.has(refId));
      for (const [refId, pointer] of await this.indexer.locate(unknown)) pointers.set(refId, pointer);
      const records = await readRecordLines((month) => this.segments.get(month), pointers);
      if (records) return refIds.flatMap((refId) => records.get(refId) ?? []);
      if (attempt > 0)
        throw new StoreError('corrupt', `The history index under ${this.indexer.indexDir} does not fit its segments even after a rebuild.`);
      await this.rebuild();
    }
  }

  /** Rebuilds the indexes once every append queued so far is done (one rebuild for all who ask meanwhile). */
  private rebuild(): Promise<void> {
    this.rebuilding ??= this.enqueue(() => this.indexer.rebuild()).finally(() => (this.rebuilding = undefined));
    return this.rebuilding;
  }

  /** Settled transactions with this provider trx id (any case). */
  async byTrxId(trxId: string): Promise<TransactionRecord[]> {
    await this.indexer.caughtUp();
    const wanted = trxId.toUpperCase();
    // Once each: a segment part indexed again (after a crash or a failed index write) has its lines twice.
    const entries = await this.indexer.entries('trx', wanted);
    const refIds = new Set(entries.map((entry) => entry[1]).filter((refId) => typeof refId === 'string'));
    return (await this.getMany([...refIds])).filter((tx) => tx.trxId?.toUpperCase() === wanted);
  }

  /** The user's settled transactions to `target`, newest first; `want` stops after that many. */
  async byTarget(userId: number, target: string, want = Infinity): Promise<TransactionRecord[]> {
    await this.indexer.caughtUp();
    const candidates = new Map<string, HistoryEntry>();
    for (const [, refId, owner, createdMs] of await this.indexer.entries('target', target)) {
      if (typeof refId === 'string' && owner === userId && typeof createdMs === 'number') candidates.set(refId, { refId, createdMs });
    }
    const ordered = [...candidates.values()].sort(newestFirst);
    const found: TransactionRecord[] = [];
    // In pages: a line whose record no longer has this target (a later copy changed it) is skipped.
    for (let from = 0; from < ordered.length && found.length < want; from += 20) {
      const page = await this.getMany(ordered.slice(from, from + 20).map((entry) => entry.refId));
      found.push(...page.filter((tx) => tx.target === target && tx.userId === userId));
    }
    return found;
  }

  /** What the user index holds for `userId`, one entry per refId, newest first; reads no record. */
  async userEntries(userId: number): Promise<HistoryEntry[]> {
    await this.indexer.caughtUp();
    const found = new Map<string, HistoryEntry>();
    for (const [, refId, createdMs, month, offset, length] of await this.indexer.entries('user', userId)) {
      if (typeof refId !== 'string' || typeof createdMs !== 'number') continue;
      if (typeof month !== 'string' || typeof offset !== 'number' || typeof length !== 'number') continue;
      const known = found.get(refId);
      if (!known?.at || offset > known.at.offset) found.set(refId, { refId, createdMs, at: { month, offset, length } });
    }
    return [...found.values()].sort(newestFirst);
  }

  /** Every record of `month` that `keep` accepts (its latest copy), streamed from the segment. */
  async scan(month: string, keep: (tx: TransactionRecord) => boolean): Promise<TransactionRecord[]> {
    const segment = this.segments.get(month);
    if (!segment) return [];
    const latest = new Map<string, TransactionRecord | null>();
    for await (const { line, at } of readLines(segment.file, 0, segment.size)) {
      const value = decodeLine(line);
      if (value === undefined) throw damagedLine(segment.file, at);
      if (!isRecordLike(value)) continue;
      latest.set(value.refId, keep(value) ? value : null);
    }
    const kept: TransactionRecord[] = [];
    for (const value of latest.values()) {
      if (value === null) continue;
      const parsed = transactionSchema.safeParse(value);
      if (parsed.success) kept.push(parsed.data);
    }
    return kept;
  }

  /** Resolves when every append so far has settled. */
  async flush(): Promise<void> {
    await this.queue;
    await this.indexer.settled();
  }

  async close(): Promise<void> {
    if (this.closed) {
      await this.queue;
      await this.indexer.settled();
      await this.indexer.checkpointed();
      return;
    }
    this.closed = true;
    await this.queue;
    await this.indexer.settled();
    try {
      await this.indexer.close();
    } finally {
      await this.closeWriter();
    }
  }
}
