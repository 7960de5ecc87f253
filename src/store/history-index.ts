/**
 * The history's on-disk indexes (history.ts).
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
 */
import { promises as fs } from 'node:fs';
import { fileMode } from './durable-file.ts';
import path from 'node:path';
import type { TransactionRecord } from './records/transactions.ts';

/** Where a record's line is. */
export interface Pointer {
  month: string;
  offset: number;
  length: number;
}

// ---------------------------------------------------------------- index buckets

export type Kind = 'ref' | 'trx' | 'target' | 'user';
export const bucketCounts: Record<Kind, number> = { ref: 1024, trx: 256, target: 256, user: 256 };
export const indexFormat = { format: 'kiosbot-history-index', version: 2, buckets: bucketCounts };

export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export const bucketName = (kind: Kind, key: string | number) =>
  `${kind}-${(fnv1a(String(key)) % bucketCounts[kind]).toString(16).padStart(3, '0')}.idx`;

/** The index lines of one record at `pointer`. */
export function indexLines(tx: TransactionRecord, pointer: Pointer): Array<[string, unknown[]]> {
  const created = Date.parse(tx.createdAt);
  const lines: Array<[string, unknown[]]> = [
    [bucketName('ref', tx.refId), [tx.refId, pointer.month, pointer.offset, pointer.length]],
    [bucketName('user', tx.userId), [tx.userId, tx.refId, created, pointer.month, pointer.offset, pointer.length]],
    [bucketName('target', tx.target), [tx.target, tx.refId, tx.userId, created]],
  ];
  if (tx.trxId !== undefined) lines.push([bucketName('trx', tx.trxId.toUpperCase()), [tx.trxId.toUpperCase(), tx.refId]]);
  return lines;
}

export interface IndexState {
  format: string;
  version: number;
  buckets: Record<Kind, number>;
  /** Per month: bytes of the segment indexed, and the checksum of the last indexed line. */
  months: Record<string, { covered: number; crc: string }>;
  /** Bucket files that existed at the checkpoint (a deleted one means a rebuild). */
  files: string[];
}

export async function readState(file: string): Promise<IndexState | undefined> {
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

/** The index lines of `key` in its bucket of `indexDir` (lines that do not parse are skipped). */
export async function readIndexEntries(indexDir: string, kind: Kind, key: string | number): Promise<unknown[][]> {
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
}

/**
 * Appends index lines ([bucket file, entry]) to their buckets in `indexDir`, each file once;
 * `written` is told each file once its lines are in it.
 */
export async function appendIndexLines(
  indexDir: string,
  lines: Array<[string, unknown[]]>,
  written: (file: string) => void,
): Promise<void> {
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
        await fs.appendFile(path.join(indexDir, file), texts.join(''), { mode: fileMode });
        written(file);
      }),
    );
  }
}
