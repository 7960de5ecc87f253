/**
 * The history's segment lines and files (history.ts): each line `<json>\t<crc32>` checks itself;
 * appending durably, repairing a torn tail, converting the month files of before.
 */
import { constants as fsConstants, createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { exists, reportWrite } from './atomic-file.ts';
import { crcHex, fileMode, syncDir, type WriteEvent } from './durable-file.ts';
import type { Pointer } from './history-index.ts';
import { StoreCorruptError, StoreError, StoreVersionError } from './errors.ts';
import { decodeHistoryFile, historyFileVersion } from './schema.ts';
import { transactionSchema, type TransactionRecord } from './records/transactions.ts';

/** File name of a month's segment. */
export const segmentFileName = (month: string) => `${month}.jsonl`;

/** A month's segment as the history holds it in memory. */
export interface Segment {
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

/** A segment of `size` bytes, none of them indexed yet. */
export const newSegment = (month: string, file: string, size = 0): Segment => ({
  month,
  file,
  size,
  indexedTo: 0,
  lastCrc: '',
  dirty: false,
});

/** Appends `bytes` to `file` (creating it 0600) and makes them durable (fsync) before resolving. */
export type SegmentAppender = (file: string, bytes: Buffer) => Promise<void>;

/** O_APPEND | O_DSYNC: each write returns once its data (and the size that reaches it) is on disk, as write + fdatasync. */
const appendSyncFlags = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_APPEND | fsConstants.O_DSYNC;

/**
 * The history's appender: the segment appended to last stays open in synchronous-write mode, so a
 * settlement costs one write that returns once on disk. Another file, or a failed write, closes it.
 */
export function createSegmentWriter(): { append: SegmentAppender; close(): Promise<void> } {
  let held: { file: string; handle: fs.FileHandle } | undefined;
  const release = async () => {
    const current = held;
    held = undefined;
    await current?.handle.close();
  };
  return {
    async append(file, bytes) {
      if (held?.file !== file) {
        await release();
        held = { file, handle: await fs.open(file, appendSyncFlags, fileMode) };
      }
      try {
        await held.handle.writeFile(bytes);
      } catch (error) {
        await release().catch(() => undefined);
        throw error;
      }
    },
    close: release,
  };
}

/** `YYYY-MM` (UTC) of an ISO time. */
export function monthOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 7);
}

// ---------------------------------------------------------------- lines

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

export const headerOf = (month: string): SegmentHeader => ({ format: 'kiosbot-history', version: historyFileVersion, month });

function isHeader(value: unknown): value is SegmentHeader {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'kiosbot-history';
}

export function isRecordLike(value: unknown): value is TransactionRecord {
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

/** Checks a segment's header and cuts off a torn tail (a last line a crash cut short, never acknowledged); the size of the whole lines. */
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
export async function crcOfLineEndingAt(file: string, end: number): Promise<string | undefined> {
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

/**
 * Converts a month file of before (`YYYY-MM.json`, one JSON document) into its segment: a temp
 * file, fsynced, renamed into place, then the old file becomes `YYYY-MM.json.bak`. A crash at any
 * step leaves the old file alone (converted again) or a whole segment beside it (moved aside then).
 */
async function convertLegacy(dir: string, month: string, onWrite?: (event: WriteEvent) => void): Promise<void> {
  const legacy = path.join(dir, `${month}.json`);
  const target = path.join(dir, segmentFileName(month));
  if (!(await exists(target))) {
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
    reportWrite(onWrite, target, bytes, startedAt);
  }
  // The segment is durable: the old file steps aside (kept as .bak, replacing lowdb's older copy).
  await fs.rename(legacy, `${legacy}.bak`);
  await syncDir(dir);
}

/** A line inside a segment (not a torn last one, which open cuts off) fails its checksum. */
export function damagedLine(file: string, at: number): StoreCorruptError {
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

export function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}

export async function syncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Reads the lines at `pointers` from the segments `segmentOf` knows; undefined if one does not hold
 * the record it should (a stale index).
 */
export async function readRecordLines(
  segmentOf: (month: string) => { file: string; size: number } | undefined,
  pointers: Map<string, Pointer>,
): Promise<Map<string, TransactionRecord> | undefined> {
  const byMonth = new Map<string, Array<[string, Pointer]>>();
  for (const [refId, pointer] of pointers) {
    const list = byMonth.get(pointer.month);
    if (list) list.push([refId, pointer]);
    else byMonth.set(pointer.month, [[refId, pointer]]);
  }
  const records = new Map<string, TransactionRecord>();
  for (const [month, list] of byMonth) {
    const segment = segmentOf(month);
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
}

const segmentFile = /^(\d{4}-\d{2})\.jsonl$/;
const legacyFile = /^(\d{4}-\d{2})\.json$/;

/**
 * The segments of `dir`, oldest month first, ready to append to: month files of before converted
 * first (temp files of a conversion a crash cut short removed), each header checked and a torn
 * last line cut off.
 */
export async function loadSegments(
  dir: string,
  onWrite?: (event: WriteEvent) => void,
): Promise<Array<{ month: string; file: string; size: number }>> {
  for (const name of (await fs.readdir(dir)).sort()) {
    if (name.startsWith('.') && name.endsWith('.tmp')) await fs.rm(path.join(dir, name), { force: true });
  }
  for (const name of (await fs.readdir(dir)).sort()) {
    const month = legacyFile.exec(name)?.[1];
    if (month) await convertLegacy(dir, month, onWrite);
  }
  const segments = [];
  for (const name of (await fs.readdir(dir)).sort()) {
    const month = segmentFile.exec(name)?.[1];
    if (!month) continue;
    const file = path.join(dir, name);
    segments.push({ month, file, size: await repairSegment(file, month) });
  }
  return segments;
}

/** The lines of `file` in [from, end) with their byte offsets, read in 64 KiB chunks. */
export async function* readLines(file: string, from: number, end: number): AsyncGenerator<{ line: string; at: number; length: number }> {
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
