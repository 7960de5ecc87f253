/**
 * Settled transactions: one append-only segment per month of their createdAt (UTC),
 * `history/YYYY-MM.jsonl`, plus indexes in `history/index/` that say where a record is.
 *
 * Segment: a header line, then one settled transaction per line, each line `<json>\t<crc32>`
 * (so a line checks itself). A settlement appends its line, on disk (a synchronous write to the
 * segment held open, or write + fdatasync) before its caller's promise resolves: the cost does not
 * grow with the history. Its index lines are written after that, in order; every lookup, flush and
 * close waits for them, and lines whose index write failed are indexed again from the segment. A
 * line torn by a crash (the last one, never acknowledged) is cut off at the next open. The same refId may be appended twice (a settlement
 * interrupted between the history append and the removal from the hot file is finished again on
 * open): the line appended last is the record, every read sees it once.
 *
 * Indexes: caches of the segments, never the truth (history-index.ts says how they are kept).
 *
 * Month files of before (`history/YYYY-MM.json`) are converted on open (history-lines.ts).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ensureDir, syncDir, writeFileAtomic, type WriteEvent } from './durable-file.ts';
import { StoreError } from './errors.ts';
import { transactionSchema, type TransactionRecord } from './records/transactions.ts';
import {
  createSegmentWriter,
  crcOfLineEndingAt,
  damagedLine,
  decodeLine,
  encodeLine,
  headerOf,
  ignoreMissing,
  isRecordLike,
  loadSegments,
  monthOf,
  readLines,
  readRecordLines,
  segmentFileName,
  syncFile,
  type SegmentAppender,
} from './history-lines.ts';
import {
  appendIndexLines,
  bucketCounts,
  indexFormat,
  indexLines,
  readIndexEntries,
  readState,
  type IndexState,
  type Kind,
  type Pointer,
} from './history-index.ts';

/** A user's settled transaction as the user index knows it (enough to sort and page without reading it). */
export interface HistoryEntry {
  refId: string;
  createdMs: number;
  /** Where its latest line is (a user's lines hold every copy of their refIds: the last one wins). */
  at?: Pointer;
}

export interface HistoryArchive {
  /** Months that have a segment, newest first. */
  months(): string[];
  /**
   * Appends settled transactions to their months' segments; resolves once they are on disk
   * (fsynced). A failed append rejects and leaves the segment as it was.
   */
  append(records: readonly TransactionRecord[]): Promise<void>;
  /** The settled transaction `refId` (its latest copy), if history has it. */
  get(refId: string): Promise<TransactionRecord | undefined>;
  /** Settled transactions with this provider trx id (any case). */
  byTrxId(trxId: string): Promise<TransactionRecord[]>;
  /** The user's settled transactions to `target`, newest first; `want` stops after that many. */
  byTarget(userId: number, target: string, want?: number): Promise<TransactionRecord[]>;
  /** What the user index holds for `userId`: one entry per refId, newest first. Reads no record. */
  userEntries(userId: number): Promise<HistoryEntry[]>;
  /** The records of these refIds or user-index entries (those history has), in the order asked. */
  getMany(items: ReadonlyArray<string | HistoryEntry>): Promise<TransactionRecord[]>;
  /**
   * Every record of `month` that `keep` accepts (its latest copy only), streamed from the segment
   * (memory: what is kept, plus one entry per refId of the month).
   */
  scan(month: string, keep: (tx: TransactionRecord) => boolean): Promise<TransactionRecord[]>;
  /** Resolves when every append so far has settled. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface HistoryOptions {
  dir: string;
  /** Called after every completed segment append (and every month converted from the old format). */
  onWrite?: (event: WriteEvent) => void;
  /**
   * Default: the segment written last is kept open in synchronous-write mode (closed by `close`);
   * tests fail it like a full disk.
   */
  appendFile?: SegmentAppender;
  /** Wraps the appender (the store's write gate, which holds appends during a backup). */
  guardAppend?: (append: SegmentAppender) => SegmentAppender;
  /** Records indexed between two index checkpoints (default 1,000). */
  checkpointEvery?: number;
}

/** Name of the index directory inside the history directory. */
export const historyIndexDirName = 'index';
const monthPattern = /^\d{4}-\d{2}$/;

// ---------------------------------------------------------------- segments in memory

interface Segment {
  month: string;
  file: string;
  /** Bytes of whole lines on disk (what reads may use). */
  size: number;
  /** Bytes indexed so far (<= size). */
  indexedTo: number;
  /** Checksum of the line ending at indexedTo ('' at 0). */
  lastCrc: string;
  /** A failed append could not be undone: the segment must be cut back to `size` before the next one. */
  dirty: boolean;
}

/** Opens the history (converting month files of before, repairing torn tails, catching the indexes up). */
export async function openHistory(options: HistoryOptions): Promise<HistoryArchive> {
  const dir = options.dir;
  const indexDir = path.join(dir, historyIndexDirName);
  const statePath = path.join(indexDir, 'state.json');
  const ownWriter = createSegmentWriter();
  const guardAppend = options.guardAppend ?? ((append: SegmentAppender) => append);
  const appendFile = guardAppend(options.appendFile ?? ownWriter.append);
  const checkpointEvery = options.checkpointEvery ?? 1_000;
  await ensureDir(dir);
  await ensureDir(indexDir);

  // 1. Segments: month files of before converted, torn tails cut off.
  const segments = new Map<string, Segment>();
  for (const { month, file, size } of await loadSegments(dir, options.onWrite)) {
    segments.set(month, { month, file, size, indexedTo: 0, lastCrc: '', dirty: false });
  }

  // 2. Indexes: trust the state only where it fits the segments; index the rest.
  const touched = new Set<string>();
  let knownFiles = new Set<string>();
  let sinceCheckpoint = 0;
  let checkpointing: Promise<void> = Promise.resolve();
  let queue: Promise<unknown> = Promise.resolve();
  /** Index writes, one after the other, behind the appends they index. */
  let indexing: Promise<unknown> = Promise.resolve();
  let closed = false;

  // A bucket counts for a checkpoint only once its lines are in it: the checkpoint must fsync it after that.
  const writeIndexLines = (lines: Array<[string, unknown[]]>) => appendIndexLines(indexDir, lines, (file) => touched.add(file));

  /** Indexes `segment` from indexedTo to size, reading it in chunks (never all of it at once). */
  const indexTail = async (segment: Segment) => {
    if (segment.indexedTo >= segment.size) return;
    const end = segment.size;
    let buffered: Array<[string, unknown[]]> = [];
    let offset = segment.indexedTo;
    let lastCrc = segment.lastCrc;
    let indexed = 0;
    for await (const { line, at, length } of readLines(segment.file, segment.indexedTo, end)) {
      const value = decodeLine(line);
      if (value === undefined) throw damagedLine(segment.file, at);
      if (isRecordLike(value)) {
        buffered.push(...indexLines(value, { month: segment.month, offset: at, length }));
        indexed++;
      }
      offset = at + length;
      lastCrc = line.slice(line.lastIndexOf('\t') + 1);
      if (buffered.length >= 40_000) {
        await writeIndexLines(buffered);
        buffered = [];
        segment.indexedTo = offset;
        segment.lastCrc = lastCrc;
      }
    }
    await writeIndexLines(buffered);
    segment.indexedTo = offset;
    segment.lastCrc = lastCrc;
    sinceCheckpoint += indexed;
  };

  const state = await readState(statePath);
  const present = new Set((await fs.readdir(indexDir)).filter((name) => name.endsWith('.idx')));
  let trusted =
    state !== undefined &&
    JSON.stringify(state.buckets) === JSON.stringify(bucketCounts) &&
    state.files.every((name) => present.has(name)) &&
    Object.keys(state.months).every((month) => segments.has(month));
  if (trusted && state) {
    for (const segment of segments.values()) {
      const known = state.months[segment.month];
      if (!known) continue;
      if (known.covered > segment.size || (await crcOfLineEndingAt(segment.file, known.covered)) !== known.crc) {
        trusted = false;
        break;
      }
      segment.indexedTo = known.covered;
      segment.lastCrc = known.crc;
    }
  }
  if (!trusted) {
    // Rebuild: no bucket may keep lines of a segment that is not the one on disk now.
    for (const name of present) await fs.rm(path.join(indexDir, name), { force: true });
    for (const segment of segments.values()) {
      segment.indexedTo = 0;
      segment.lastCrc = '';
    }
  } else if (state) {
    knownFiles = new Set(state.files);
  }
  for (const name of present) if (trusted) knownFiles.add(name);

  /** Makes the buckets written so far durable, then records how far they reach. */
  const checkpoint = () => {
    const months: IndexState['months'] = {};
    for (const segment of segments.values()) months[segment.month] = { covered: segment.indexedTo, crc: segment.lastCrc };
    const files = [...touched];
    touched.clear();
    sinceCheckpoint = 0;
    checkpointing = checkpointing.then(async () => {
      try {
        for (let from = 0; from < files.length; from += 32) {
          await Promise.all(files.slice(from, from + 32).map((file) => syncFile(path.join(indexDir, file))));
        }
        for (const file of files) knownFiles.add(file);
        const next: IndexState = { ...indexFormat, months, files: [...knownFiles].sort() };
        await writeFileAtomic(statePath, JSON.stringify(next), { backup: false });
      } catch {
        // The state stays where it was: the next open indexes a little more again.
        for (const file of files) touched.add(file);
      }
    });
    return checkpointing;
  };

  for (const segment of segments.values()) await indexTail(segment);
  if (!trusted || sinceCheckpoint > 0 || !state) await checkpoint();

  /** Runs `work` after every append queued before it (appends never interleave). */
  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  /** Runs `work` after every index write queued before it (a segment's index grows in order). */
  const enqueueIndexing = <T>(work: () => Promise<T>): Promise<T> => {
    const run = indexing.then(work, work);
    indexing = run.catch(() => undefined);
    return run;
  };

  /** Waits for the index writes of every append so far, then catches up an index left behind (a failed index write). */
  const indexed = async () => {
    await indexing;
    if ([...segments.values()].some((s) => s.indexedTo < s.size)) {
      await enqueueIndexing(async () => {
        for (const segment of segments.values()) await indexTail(segment);
      });
    }
  };

  let rebuilding: Promise<void> | undefined;
  /** An index line pointed at something else than it said: rebuild every index from the segments. */
  const rebuild = () => {
    rebuilding ??= enqueue(() =>
      enqueueIndexing(async () => {
        for (const name of await fs.readdir(indexDir)) if (name.endsWith('.idx')) await fs.rm(path.join(indexDir, name), { force: true });
        knownFiles = new Set();
        touched.clear();
        for (const segment of segments.values()) {
          segment.indexedTo = 0;
          segment.lastCrc = '';
          await indexTail(segment);
        }
        await checkpoint();
      }),
    ).finally(() => (rebuilding = undefined));
    return rebuilding;
  };

  const entries = (kind: Kind, key: string | number) => readIndexEntries(indexDir, kind, key);

  /** Where each refId's latest copy is (refIds history does not have are left out). */
  const locate = async (refIds: readonly string[]): Promise<Map<string, Pointer>> => {
    const pointers = new Map<string, Pointer>();
    for (const refId of new Set(refIds)) {
      for (const entry of await entries('ref', refId)) {
        const [, month, offset, length] = entry;
        if (typeof month !== 'string' || typeof offset !== 'number' || typeof length !== 'number') continue;
        const known = pointers.get(refId);
        if (!known || offset > known.offset) pointers.set(refId, { month, offset, length });
      }
    }
    return pointers;
  };

  const readRecords = (pointers: Map<string, Pointer>) => readRecordLines((month) => segments.get(month), pointers);

  const getMany = async (items: ReadonlyArray<string | HistoryEntry>): Promise<TransactionRecord[]> => {
    await indexed();
    const refIds = items.map((item) => (typeof item === 'string' ? item : item.refId));
    for (let attempt = 0; ; attempt++) {
      // First through the pointers the entries carry (no ref bucket to read), after a rebuild through the ref index.
      const pointers = new Map<string, Pointer>();
      if (attempt === 0) for (const item of items) if (typeof item !== 'string' && item.at) pointers.set(item.refId, item.at);
      for (const [refId, pointer] of await locate(refIds.filter((refId) => !pointers.has(refId)))) pointers.set(refId, pointer);
      const records = await readRecords(pointers);
      if (records) return refIds.flatMap((refId) => records.get(refId) ?? []);
      if (attempt > 0)
        throw new StoreError('corrupt', `The history index under ${indexDir} does not fit its segments even after a rebuild.`);
      await rebuild();
    }
  };

  const newestFirst = (a: HistoryEntry, b: HistoryEntry) =>
    b.createdMs - a.createdMs || (a.refId < b.refId ? 1 : a.refId > b.refId ? -1 : 0);

  /**
   * Writes the index lines of `records` (encoded as `lines`), appended to `segment` at [start, end)
   * with the first record at `recordsAt`, unless a catch-up indexed them already.
   */
  const indexAppended = async (
    segment: Segment,
    { start, recordsAt, end }: { start: number; recordsAt: number; end: number },
    records: readonly TransactionRecord[],
    lines: string[],
  ) => {
    if (segment.indexedTo === start) {
      let offset = recordsAt;
      const pending: Array<[string, unknown[]]> = [];
      records.forEach((tx, i) => {
        const length = Buffer.byteLength(lines[i] ?? '');
        pending.push(...indexLines(tx, { month: segment.month, offset, length }));
        offset += length;
      });
      try {
        await writeIndexLines(pending);
        segment.indexedTo = end;
        const last = lines.at(-1) ?? '';
        segment.lastCrc = last.slice(last.lastIndexOf('\t') + 1, -1);
        sinceCheckpoint += records.length;
      } catch {
        // The segment has them: the index catches up from it before the next lookup.
      }
    } else if (segment.indexedTo < end) {
      await indexTail(segment).catch(() => undefined);
    }
    if (sinceCheckpoint >= checkpointEvery) void checkpoint();
  };

  /** Appends to one month's segment; its index lines follow (indexAppended). */
  const appendMonth = async (month: string, records: readonly TransactionRecord[]) => {
    const file = path.join(dir, segmentFileName(month));
    let segment = segments.get(month);
    const created = !segment;
    if (!segment) {
      segment = { month, file, size: 0, indexedTo: 0, lastCrc: '', dirty: false };
    }
    if (segment.dirty) {
      await fs.truncate(segment.file, segment.size).catch(ignoreMissing);
      segment.dirty = false;
    }
    const head = segment.size === 0 ? encodeLine(headerOf(month)) : '';
    const lines = records.map((tx) => encodeLine(tx));
    const bytes = Buffer.from(head + lines.join(''));
    const startedAt = performance.now();
    try {
      await appendFile(file, bytes);
    } catch (error) {
      // Cut off whatever part of the write reached the file; if even that fails, before the next append.
      const before = segment.size;
      await fs.truncate(file, before).catch((cutError: unknown) => {
        // No file: the failed write created nothing, so nothing is left to cut.
        if (segment && (cutError as NodeJS.ErrnoException).code !== 'ENOENT') segment.dirty = true;
      });
      if (created && segment.dirty) segments.set(month, segment);
      throw error;
    }
    if (created) {
      await syncDir(dir);
      segments.set(month, segment);
    }
    const start = segment.size;
    segment.size += bytes.length;
    options.onWrite?.({ file, bytes: bytes.length, startedAt, durationMs: performance.now() - startedAt });
    // The records are on disk: the caller goes on while the index lines are written.
    const appended = segment;
    const span = { start, recordsAt: start + Buffer.byteLength(head), end: segment.size };
    void enqueueIndexing(() => indexAppended(appended, span, records, lines));
  };

  return {
    months: () =>
      [...segments.values()]
        .filter((s) => s.size > 0)
        .map((s) => s.month)
        .sort()
        .reverse(),
    append(records) {
      if (closed) return Promise.reject(new StoreError('closed', 'The history is closed; nothing more is appended.'));
      const byMonth = new Map<string, TransactionRecord[]>();
      for (const tx of records) {
        const month = monthOf(tx.createdAt);
        if (!monthPattern.test(month)) return Promise.reject(new Error(`Not a history month: ${month}`));
        const list = byMonth.get(month);
        if (list) list.push(tx);
        else byMonth.set(month, [tx]);
      }
      return enqueue(async () => {
        for (const [month, txs] of byMonth) await appendMonth(month, txs);
      });
    },
    async get(refId) {
      return (await getMany([refId]))[0];
    },
    getMany,
    async byTrxId(trxId) {
      await indexed();
      const wanted = trxId.toUpperCase();
      // Once each: a segment part indexed again (after a crash or a failed index write) has its lines twice.
      const refIds = new Set((await entries('trx', wanted)).map((entry) => entry[1]).filter((refId) => typeof refId === 'string'));
      return (await getMany([...refIds])).filter((tx) => tx.trxId?.toUpperCase() === wanted);
    },
    async byTarget(userId, target, want = Infinity) {
      await indexed();
      const candidates = new Map<string, HistoryEntry>();
      for (const [, refId, owner, createdMs] of await entries('target', target)) {
        if (typeof refId === 'string' && owner === userId && typeof createdMs === 'number') candidates.set(refId, { refId, createdMs });
      }
      const ordered = [...candidates.values()].sort(newestFirst);
      const found: TransactionRecord[] = [];
      // In pages: a line whose record no longer has this target (a later copy changed it) is skipped.
      for (let from = 0; from < ordered.length && found.length < want; from += 20) {
        const page = await getMany(ordered.slice(from, from + 20).map((entry) => entry.refId));
        found.push(...page.filter((tx) => tx.target === target && tx.userId === userId));
      }
      return found;
    },
    async userEntries(userId) {
      await indexed();
      const found = new Map<string, HistoryEntry>();
      for (const [, refId, createdMs, month, offset, length] of await entries('user', userId)) {
        if (typeof refId !== 'string' || typeof createdMs !== 'number') continue;
        if (typeof month !== 'string' || typeof offset !== 'number' || typeof length !== 'number') continue;
        const known = found.get(refId);
        if (!known?.at || offset > known.at.offset) found.set(refId, { refId, createdMs, at: { month, offset, length } });
      }
      return [...found.values()].sort(newestFirst);
    },
    async scan(month, keep) {
      const segment = segments.get(month);
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
    },
    async flush() {
      await queue;
      await indexing;
    },
    async close() {
      if (closed) {
        await queue;
        await indexing;
        await checkpointing;
        return;
      }
      closed = true;
      await queue;
      await indexing;
      try {
        if (sinceCheckpoint > 0 || touched.size > 0) await checkpoint();
        await checkpointing;
      } finally {
        await ownWriter.close();
      }
    },
  };
}
