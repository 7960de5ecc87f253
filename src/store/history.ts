/**
 * Settled transactions: one append-only segment per month of their createdAt (UTC),
 * `history/YYYY-MM.jsonl`, plus indexes in `history/index/` that say where a record is.
 *
 * Segment: a header line, then one settled transaction per line, each line `<json>\t<crc32>`
 * (so a line checks itself). A settlement appends its line and fsyncs before its caller's promise
 * resolves: the cost does not grow with the history. A line torn by a crash (the last one, never
 * acknowledged) is cut off at the next open. The same refId may be appended twice (a settlement
 * interrupted between the history append and the removal from the hot file is finished again on
 * open): the line appended last is the record, every read sees it once.
 *
 * Indexes: caches of the segments, never the truth. Hash-bucketed files of one JSON array per line,
 * each line written with a leading newline so a torn line is skipped, never merged into the next:
 *   ref-XXX.idx     [refId, month, offset, length]   where the record's line is
 *   trx-XXX.idx     [TRX ID (upper case), refId]
 *   target-XXX.idx  [target, refId, userId, createdAt ms]
 *   user-XXX.idx    [userId, refId, createdAt ms, month, offset, length]
 * A lookup reads one bucket (a few hundred KB at 1M transactions), then the record's line at its
 * offset, and checks that line (checksum, refId and the key looked up) before trusting it.
 * `index/state.json` says how far each segment is indexed (bytes, and the checksum of the last
 * indexed line); it is written (after fsyncing the buckets) on open, on close and every
 * `checkpointEvery` records. On open a segment longer than its indexed part is indexed from there
 * on (a crash between an append and its index lines); a missing or inconsistent state (a deleted
 * index, a segment replaced by a restore) rebuilds every index from the segments.
 *
 * Month files of before (`history/YYYY-MM.json`, one JSON document) are converted on open: the
 * segment is written to a temp file, fsynced and renamed into place, then the old file is renamed
 * to `YYYY-MM.json.bak`. A crash at any step leaves either the old file alone (converted again)
 * or a complete segment beside it (the old file is then just moved aside).
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { ensureDir, fileMode, writeFileAtomic, type WriteEvent } from './durable-file.ts';
import { StoreCorruptError, StoreError, StoreVersionError } from './errors.ts';
import { decodeHistoryFile, historyFileVersion, transactionSchema, type TransactionRecord } from './schema.ts';

/** Appends `bytes` to `file` (creating it 0600) and makes them durable (fsync) before resolving. */
export type SegmentAppender = (file: string, bytes: Buffer) => Promise<void>;

/** The real appender: O_APPEND write of the whole buffer, then fdatasync. */
export async function appendDurably(file: string, bytes: Buffer): Promise<void> {
  const handle = await fs.open(file, 'a', fileMode);
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Where a record's line is. */
interface Pointer {
  month: string;
  offset: number;
  length: number;
}

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
  /** Default `appendDurably`; tests fail it like a full disk. */
  appendFile?: SegmentAppender;
  /** Records indexed between two index checkpoints (default 1,000). */
  checkpointEvery?: number;
}

/** `YYYY-MM` (UTC) of an ISO time. */
export function monthOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 7);
}

/** Name of the index directory inside the history directory. */
export const historyIndexDirName = 'index';
/** File name of a month's segment. */
export const segmentFileName = (month: string) => `${month}.jsonl`;
const segmentFile = /^(\d{4}-\d{2})\.jsonl$/;
const legacyFile = /^(\d{4}-\d{2})\.json$/;
const monthPattern = /^\d{4}-\d{2}$/;

// ---------------------------------------------------------------- lines

const crcHex = (text: string) => crc32(text).toString(16).padStart(8, '0');

/** One segment line: the JSON, a tab (JSON never holds a raw one) and the CRC-32 of the JSON. */
export function encodeLine(value: unknown): string {
  const json = JSON.stringify(value);
  return `${json}\t${crcHex(json)}\n`;
}

/** The value of a segment line (without its newline), or undefined if it does not check. */
export function decodeLine(line: string): unknown {
  const tab = line.lastIndexOf('\t');
  if (tab < 0) return undefined;
  const json = line.slice(0, tab);
  if (crcHex(json) !== line.slice(tab + 1)) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

interface SegmentHeader {
  format: 'kiosbot-history';
  version: number;
  month: string;
}

const headerOf = (month: string): SegmentHeader => ({ format: 'kiosbot-history', version: historyFileVersion, month });

function isHeader(value: unknown): value is SegmentHeader {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'kiosbot-history';
}

function isRecordLike(value: unknown): value is TransactionRecord {
  return typeof value === 'object' && value !== null && typeof (value as { refId?: unknown }).refId === 'string';
}

/**
 * Checks a whole segment's text (a backup's copy): the header, and every line a valid transaction
 * of that month. Throws StoreVersionError for a newer format, an Error saying what is wrong otherwise.
 */
export function checkSegmentText(text: string, file: string): number {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = decodeLine(lines[0] ?? '');
  if (!isHeader(header)) throw new StoreError('corrupt', 'it does not start with a history header line');
  if (header.version > historyFileVersion) throw new StoreVersionError(file, header.version, historyFileVersion);
  for (let i = 1; i < lines.length; i++) {
    const value = decodeLine(lines[i] ?? '');
    const parsed = transactionSchema.safeParse(value);
    if (!parsed.success || monthOf(parsed.data.createdAt) !== header.month) {
      throw new StoreError('corrupt', `line ${i + 1} is not a settled transaction of ${header.month} (or fails its checksum)`);
    }
  }
  return lines.length - 1;
}

// ---------------------------------------------------------------- index buckets

type Kind = 'ref' | 'trx' | 'target' | 'user';
const bucketCounts: Record<Kind, number> = { ref: 1024, trx: 256, target: 256, user: 256 };
const indexFormat = { format: 'kiosbot-history-index', version: 2, buckets: bucketCounts };

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const bucketName = (kind: Kind, key: string | number) =>
  `${kind}-${(fnv1a(String(key)) % bucketCounts[kind]).toString(16).padStart(3, '0')}.idx`;

/** The index lines of one record at `pointer`. */
function indexLines(tx: TransactionRecord, pointer: Pointer): Array<[string, unknown[]]> {
  const created = Date.parse(tx.createdAt);
  const lines: Array<[string, unknown[]]> = [
    [bucketName('ref', tx.refId), [tx.refId, pointer.month, pointer.offset, pointer.length]],
    [bucketName('user', tx.userId), [tx.userId, tx.refId, created, pointer.month, pointer.offset, pointer.length]],
    [bucketName('target', tx.target), [tx.target, tx.refId, tx.userId, created]],
  ];
  if (tx.trxId !== undefined) lines.push([bucketName('trx', tx.trxId.toUpperCase()), [tx.trxId.toUpperCase(), tx.refId]]);
  return lines;
}

interface IndexState {
  format: string;
  version: number;
  buckets: Record<Kind, number>;
  /** Per month: bytes of the segment indexed, and the checksum of the last indexed line. */
  months: Record<string, { covered: number; crc: string }>;
  /** Bucket files that existed at the checkpoint (a deleted one means a rebuild). */
  files: string[];
}

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
  const appendFile = options.appendFile ?? appendDurably;
  const checkpointEvery = options.checkpointEvery ?? 1_000;
  await ensureDir(dir);
  await ensureDir(indexDir);

  // 1. Month files of before become segments; temp files of a conversion a crash cut short go.
  for (const name of (await fs.readdir(dir)).sort()) {
    if (name.startsWith('.') && name.endsWith('.tmp')) await fs.rm(path.join(dir, name), { force: true });
  }
  for (const name of (await fs.readdir(dir)).sort()) {
    const month = legacyFile.exec(name)?.[1];
    if (month) await convertLegacy(dir, month, options.onWrite);
  }

  // 2. Segments: check each header, cut off a torn last line.
  const segments = new Map<string, Segment>();
  for (const name of (await fs.readdir(dir)).sort()) {
    const month = segmentFile.exec(name)?.[1];
    if (!month) continue;
    const file = path.join(dir, name);
    const size = await repairSegment(file, month);
    segments.set(month, { month, file, size, indexedTo: 0, lastCrc: '', dirty: false });
  }

  // 3. Indexes: trust the state only where it fits the segments; index the rest.
  const touched = new Set<string>();
  let knownFiles = new Set<string>();
  let sinceCheckpoint = 0;
  let checkpointing: Promise<void> = Promise.resolve();
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  const writeIndexLines = async (lines: Array<[string, unknown[]]>) => {
    const byFile = new Map<string, string[]>();
    for (const [file, entry] of lines) {
      const list = byFile.get(file);
      const text = `\n${JSON.stringify(entry)}`;
      if (list) list.push(text);
      else byFile.set(file, [text]);
    }
    // A few files at a time: a rebuild touches every bucket, more than a low open-files limit allows.
    const files = [...byFile];
    for (let from = 0; from < files.length; from += 32) {
      await Promise.all(
        files.slice(from, from + 32).map(async ([file, texts]) => {
          touched.add(file);
          await fs.appendFile(path.join(indexDir, file), texts.join(''), { mode: fileMode });
        }),
      );
    }
  };

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

  /** Runs `work` after everything queued before it (appends and catch-ups never interleave). */
  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  /** Catches up every segment whose index is behind (after an index write failed). */
  const indexed = async () => {
    if ([...segments.values()].some((s) => s.indexedTo < s.size)) {
      await enqueue(async () => {
        for (const segment of segments.values()) await indexTail(segment);
      });
    }
  };

  let rebuilding: Promise<void> | undefined;
  /** An index line pointed at something else than it said: rebuild every index from the segments. */
  const rebuild = () => {
    rebuilding ??= enqueue(async () => {
      for (const name of await fs.readdir(indexDir)) if (name.endsWith('.idx')) await fs.rm(path.join(indexDir, name), { force: true });
      knownFiles = new Set();
      touched.clear();
      for (const segment of segments.values()) {
        segment.indexedTo = 0;
        segment.lastCrc = '';
        await indexTail(segment);
      }
      await checkpoint();
    }).finally(() => (rebuilding = undefined));
    return rebuilding;
  };

  /** The index lines of `key` in its bucket (lines that do not parse are skipped). */
  const entries = async (kind: Kind, key: string | number): Promise<unknown[][]> => {
    let text: string;
    try {
      text = await fs.readFile(path.join(indexDir, bucketName(kind, key)), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const needle = `\n[${JSON.stringify(key)},`;
    const found: unknown[][] = [];
    for (let at = text.indexOf(needle); at >= 0;) {
      const end = text.indexOf('\n', at + 1);
      const line = text.slice(at + 1, end < 0 ? text.length : end);
      try {
        const entry = JSON.parse(line) as unknown;
        if (Array.isArray(entry) && entry[0] === key) found.push(entry);
      } catch {
        // A torn line: its record is indexed again from the segment.
      }
      at = end < 0 ? -1 : text.indexOf(needle, end);
    }
    return found;
  };

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

  /** Reads the lines at `pointers`; undefined if one does not hold the record it should (a stale index). */
  const readRecords = async (pointers: Map<string, Pointer>): Promise<Map<string, TransactionRecord> | undefined> => {
    const byMonth = new Map<string, Array<[string, Pointer]>>();
    for (const [refId, pointer] of pointers) {
      const list = byMonth.get(pointer.month);
      if (list) list.push([refId, pointer]);
      else byMonth.set(pointer.month, [[refId, pointer]]);
    }
    const records = new Map<string, TransactionRecord>();
    for (const [month, list] of byMonth) {
      const segment = segments.get(month);
      if (!segment) return undefined;
      const handle = await fs.open(segment.file, 'r');
      try {
        for (const [refId, pointer] of list) {
          if (pointer.offset + pointer.length > segment.size) return undefined;
          const buffer = Buffer.alloc(pointer.length);
          await handle.read(buffer, 0, pointer.length, pointer.offset);
          const text = buffer.toString('utf8');
          const parsed = transactionSchema.safeParse(decodeLine(text.endsWith('\n') ? text.slice(0, -1) : text));
          if (!parsed.success || parsed.data.refId !== refId) return undefined;
          records.set(refId, parsed.data);
        }
      } finally {
        await handle.close();
      }
    }
    return records;
  };

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

  /** Appends to one month's segment and indexes the new lines. */
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
    // The index: from the records in hand when it is in step, else from the segment.
    if (segment.indexedTo === start) {
      let offset = start + Buffer.byteLength(head);
      const pending: Array<[string, unknown[]]> = [];
      records.forEach((tx, i) => {
        const length = Buffer.byteLength(lines[i] ?? '');
        pending.push(...indexLines(tx, { month, offset, length }));
        offset += length;
      });
      try {
        await writeIndexLines(pending);
        segment.indexedTo = segment.size;
        const last = lines.at(-1) ?? head;
        segment.lastCrc = last.slice(last.lastIndexOf('\t') + 1, -1);
        sinceCheckpoint += records.length;
      } catch {
        // The segment has them: the index catches up before the next lookup.
      }
    } else {
      await indexTail(segment).catch(() => undefined);
    }
    if (sinceCheckpoint >= checkpointEvery) void checkpoint();
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
      const refIds = (await entries('trx', wanted)).map((entry) => entry[1]).filter((refId) => typeof refId === 'string');
      return (await getMany(refIds)).filter((tx) => tx.trxId?.toUpperCase() === wanted);
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
    },
    async close() {
      if (closed) {
        await queue;
        await checkpointing;
        return;
      }
      closed = true;
      await queue;
      if (sinceCheckpoint > 0 || touched.size > 0) await checkpoint();
      await checkpointing;
    },
  };
}

// ---------------------------------------------------------------- files

/** The lines of `file` in [from, end) with their byte offsets, read in 64 KiB chunks. */
async function* readLines(file: string, from: number, end: number): AsyncGenerator<{ line: string; at: number; length: number }> {
  if (end <= from) return;
  let carry: Buffer = Buffer.alloc(0);
  let carryAt = from;
  for await (const chunk of createReadStream(file, { start: from, end: end - 1, highWaterMark: 64 * 1024 })) {
    const data: Buffer = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    let start = 0;
    for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10, start)) {
      yield { line: data.toString('utf8', start, nl), at: carryAt + start, length: nl + 1 - start };
      start = nl + 1;
    }
    carry = data.subarray(start);
    carryAt += start;
  }
}

/**
 * Checks the header of a segment and cuts off a torn tail: bytes after the last newline, and a
 * last line that fails its checksum (a crash while it was written; it was never acknowledged).
 * Returns the size of the whole lines.
 */
async function repairSegment(file: string, month: string): Promise<number> {
  const handle = await fs.open(file, 'r+');
  try {
    let size = (await handle.stat()).size;
    for (;;) {
      if (size === 0) break;
      // The last line: from the newline before it (searching back in growing windows).
      let window = Math.min(size, 64 * 1024);
      let text = '';
      let lineStart = -1;
      for (;;) {
        const buffer = Buffer.alloc(window);
        await handle.read(buffer, 0, window, size - window);
        const endsWell = buffer[window - 1] === 10;
        const searchTo = endsWell ? window - 2 : window - 1;
        const nl = searchTo >= 0 ? buffer.lastIndexOf(10, searchTo) : -1;
        if (nl >= 0 || window === size) {
          lineStart = size - window + nl + 1;
          text = buffer.toString('utf8', nl + 1, endsWell ? window - 1 : window);
          if (!endsWell) text = '\0torn';
          break;
        }
        window = Math.min(size, window * 4);
      }
      if (decodeLine(text) !== undefined) break;
      size = lineStart;
      await handle.truncate(size);
      await handle.sync();
    }
    if (size > 0) {
      const first = Buffer.alloc(Math.min(size, 4096));
      await handle.read(first, 0, first.length, 0);
      const nl = first.indexOf(10);
      const header = decodeLine(first.toString('utf8', 0, nl < 0 ? first.length : nl));
      if (!isHeader(header) || header.month !== month) {
        throw new StoreCorruptError(
          file,
          'it does not start with a history header line',
          `Stop kiosbot, then restore the file from your backups, or move it away (mv "${file}" "${file}.broken"). Then start kiosbot again.`,
        );
      }
      if (header.version > historyFileVersion) throw new StoreVersionError(file, header.version, historyFileVersion);
    }
    return size;
  } finally {
    await handle.close();
  }
}

/** The checksum of the line that ends at byte `end` of `file` ('' for 0), or undefined if there is none. */
async function crcOfLineEndingAt(file: string, end: number): Promise<string | undefined> {
  if (end === 0) return '';
  const handle = await fs.open(file, 'r');
  try {
    const window = Math.min(end, 256 * 1024);
    const buffer = Buffer.alloc(window);
    await handle.read(buffer, 0, window, end - window);
    if (buffer[window - 1] !== 10) return undefined;
    const nl = window >= 2 ? buffer.lastIndexOf(10, window - 2) : -1;
    const line = buffer.toString('utf8', nl + 1, window - 1);
    return decodeLine(line) === undefined ? undefined : line.slice(line.lastIndexOf('\t') + 1);
  } finally {
    await handle.close();
  }
}

async function readState(file: string): Promise<IndexState | undefined> {
  try {
    const raw = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<IndexState>;
    if (raw.format !== indexFormat.format || raw.version !== indexFormat.version) return undefined;
    if (typeof raw.months !== 'object' || raw.months === null || !Array.isArray(raw.files) || typeof raw.buckets !== 'object')
      return undefined;
    return raw as IndexState;
  } catch {
    return undefined;
  }
}

/**
 * Converts `YYYY-MM.json` (one JSON document) into the segment `YYYY-MM.jsonl`: written to a temp
 * file, fsynced, renamed into place, then the old file becomes `YYYY-MM.json.bak`.
 */
async function convertLegacy(dir: string, month: string, onWrite?: (event: WriteEvent) => void): Promise<void> {
  const legacy = path.join(dir, `${month}.json`);
  const target = path.join(dir, segmentFileName(month));
  const exists = await fs.stat(target).then(
    () => true,
    () => false,
  );
  if (!exists) {
    const startedAt = performance.now();
    let raw: unknown;
    try {
      raw = JSON.parse(await fs.readFile(legacy, 'utf8'));
    } catch (error) {
      throw corruptLegacy(legacy, error instanceof SyntaxError ? 'it is not valid JSON' : String(error));
    }
    let records: TransactionRecord[];
    try {
      records = Object.values(decodeHistoryFile(raw, legacy).data.transactions);
    } catch (error) {
      if (error instanceof StoreVersionError) throw error;
      throw corruptLegacy(legacy, 'it does not have the format of a history month file');
    }
    // Oldest first, the order settlements would have appended them in.
    records.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.refId < b.refId ? -1 : a.refId > b.refId ? 1 : 0));
    const temp = path.join(dir, `.${segmentFileName(month)}.${process.pid}.tmp`);
    const handle = await fs.open(temp, 'w', fileMode);
    let bytes = 0;
    try {
      let chunk = encodeLine(headerOf(month));
      for (const tx of records) {
        chunk += encodeLine(tx);
        if (chunk.length > 1 << 20) {
          bytes += Buffer.byteLength(chunk);
          await handle.write(chunk);
          chunk = '';
        }
      }
      bytes += Buffer.byteLength(chunk);
      await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
    await syncDir(dir);
    onWrite?.({ file: target, bytes, startedAt, durationMs: performance.now() - startedAt });
  }
  // The segment is durable: the old file steps aside (kept as .bak, replacing lowdb's older copy).
  await fs.rename(legacy, `${legacy}.bak`);
  await syncDir(dir);
}

/** A line inside a segment (not a torn last one, which open cuts off) fails its checksum. */
function damagedLine(file: string, at: number): StoreCorruptError {
  return new StoreCorruptError(
    file,
    `the line at byte ${at} fails its checksum`,
    `Stop kiosbot, then restore the file from your backups, or move it away (mv "${file}" "${file}.broken"). Then start kiosbot again.`,
  );
}

function corruptLegacy(file: string, reason: string): StoreCorruptError {
  return new StoreCorruptError(
    file,
    reason,
    `It is a history month of before, converted on open. Stop kiosbot, then restore it from your backups (or its "${file}.bak"), or move it away (mv "${file}" "${file}.broken"). Then start kiosbot again.`,
  );
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}

async function syncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
