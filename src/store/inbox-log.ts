/**
 * The update inbox's file, `inbox.jsonl`: an append-only log of self-checking lines
 * (`<json>\t<crc32>`, as the history segments): a header, then stored updates and marks (done,
 * replay attempts, forgotten) in the order written; compaction rewrites one line per live entry.
 * A bad last line is a crash mid-append (never acknowledged): ignored and cut off before the next
 * append. A bad line anywhere else is damage: the open refuses.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { exists, reportWrite } from './atomic-file.ts';
import { syncDir, writeFileAtomic, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { StoreCorruptError, StoreVersionError } from './errors.ts';
import { decodeLine, encodeLine } from './history-lines.ts';
import { versionedDecoder } from './versioned.ts';

/** Data version of the log (1 was the whole-file `inbox.json`). */
export const inboxLogVersion = 2;

const headerSchema = z.object({ format: z.literal('kiosbot-inbox'), version: z.number().int() });

export const inboxEntrySchema = z.object({
  /** Telegram's update_id. */
  id: z.number().int(),
  /** The update as JSON, sealed with the vault (AAD `inbox:<id>`): a message may hold a PIN or an API key. */
  sealed: z.string(),
  receivedAt: z.string(),
  /** Its handling finished (successfully or with a handled error). */
  done: z.literal(true).optional(),
  /** How many times a start replayed it (a crash loop on one update gives up after a few). */
  attempts: z.number().int().nonnegative().optional(),
  /** The chat it belongs to (`updateChatId`), for per-chat order; absent in entries of before. */
  chatId: z.number().int().optional(),
});
export type InboxEntry = z.infer<typeof inboxEntrySchema>;

/** Name of the inbox log inside the data directory (inbox-log.ts). */
export const inboxFileName = 'inbox.jsonl';
/** Name of the inbox file of before (one JSON document, rewritten whole on every write): migrated at open. */
export const legacyInboxFileName = 'inbox.json';
const inboxFileSchema = z.object({ version: z.literal(1), entries: z.array(inboxEntrySchema) });
type InboxData = z.infer<typeof inboxFileSchema>;

/** Decodes the inbox file of before (`inbox.json`). */
export const decodeInboxFile = versionedDecoder(inboxFileSchema, 1);

/**
 * The entries the inbox of `dataDir` holds, lowest update id first: from the log, or from the
 * file of before when it was not migrated yet; none when there is neither. Throws on a damaged file.
 */
export async function readInboxEntries(dataDir: string): Promise<InboxEntry[]> {
  const log = await readInboxLog(path.join(dataDir, inboxFileName));
  if (log) return [...log.entries.values()].sort((a, b) => a.id - b.id);
  const legacyFile = path.join(dataDir, legacyInboxFileName);
  const text = await fs.readFile(legacyFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return text === undefined ? [] : decodeInboxFile(JSON.parse(text), legacyFile).data.entries;
}

const ids = z.array(z.number().int()).optional();
/** A marks line: entries handled, replayed once more, forgotten (done and no longer needed for de-duplication). */
const marksSchema = z.object({ done: ids, tried: ids, forget: ids }).strict();
export type InboxMarks = z.infer<typeof marksSchema>;

/** The log's first line. */
export const inboxLogHeader = (): string => encodeLine({ format: 'kiosbot-inbox', version: inboxLogVersion });

/** An entry's line (a stored update, or in a compacted log the entry with its marks folded in). */
export const entryLine = (entry: InboxEntry): string => encodeLine(entry);

/** A marks line; empty when there is nothing to mark. */
export function marksLine(marks: InboxMarks): string {
  const present = Object.fromEntries(Object.entries(marks).filter(([, list]) => list !== undefined && list.length > 0));
  return Object.keys(present).length === 0 ? '' : encodeLine(present);
}

/** What a log holds once its lines are applied in order. */
export interface InboxLogState {
  /** The live entries by update id (forgotten ones left out). */
  entries: Map<number, InboxEntry>;
  /** Lines of the log, header included, up to `size`. */
  lines: number;
  /** Bytes of whole, valid lines: where the next append goes (a torn tail beyond it is cut off). */
  size: number;
}

const damaged = (file: string, reason: string) =>
  new StoreCorruptError(
    file,
    reason,
    `Stop kiosbot, then restore the data directory from your backups (npm run restore), or move the file away (mv "${file}" "${file}.broken"): ` +
      'kiosbot then starts without the stored updates, and those not handled yet are lost. Then start kiosbot again.',
  );

/** Applies one decoded line to `entries`; false if it is neither an entry nor marks. */
function apply(entries: Map<number, InboxEntry>, value: unknown): boolean {
  const entry = inboxEntrySchema.safeParse(value);
  if (entry.success) {
    entries.set(entry.data.id, entry.data);
    return true;
  }
  const marks = marksSchema.safeParse(value);
  if (!marks.success) return false;
  for (const id of marks.data.forget ?? []) entries.delete(id);
  for (const id of marks.data.done ?? []) {
    const held = entries.get(id);
    if (held) held.done = true;
  }
  for (const id of marks.data.tried ?? []) {
    const held = entries.get(id);
    if (held) held.attempts = (held.attempts ?? 0) + 1;
  }
  return true;
}

/**
 * Reads a log's text: throws StoreVersionError for a newer format, StoreCorruptError for a bad
 * header or a bad line before the last one; a torn last line is left out of `size`.
 */
export function parseInboxLog(text: string, file: string): InboxLogState {
  const entries = new Map<number, InboxEntry>();
  let at = 0;
  let lines = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    // No newline: the end of an append a crash cut short.
    if (nl < 0) break;
    const value = decodeLine(text.slice(at, nl));
    const last = nl === text.length - 1;
    if (lines === 0) {
      const header = headerSchema.safeParse(value);
      if (!header.success) throw damaged(file, 'it does not start with an inbox header line');
      if (header.data.version > inboxLogVersion) throw new StoreVersionError(file, header.data.version, inboxLogVersion);
    } else if (value === undefined || !apply(entries, value)) {
      if (value === undefined && last) break;
      throw damaged(file, `line ${lines + 1} (at byte ${Buffer.byteLength(text.slice(0, at))}) fails its checksum or is not an inbox line`);
    }
    lines++;
    at = nl + 1;
  }
  if (lines === 0 && text.length > 0) throw damaged(file, 'it does not start with an inbox header line');
  return { entries, lines, size: Buffer.byteLength(text.slice(0, at)) };
}

/** The log at `file`, or undefined if there is none (other read errors are thrown). */
export async function readInboxLog(file: string): Promise<InboxLogState | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseInboxLog(text, file);
}

/** The text of a log holding exactly `entries` (compaction, migration, a restore). */
export function compactedLog(entries: Iterable<InboxEntry>): string {
  let text = inboxLogHeader();
  for (const entry of entries) text += entryLine(entry);
  return text;
}

/** Cuts the file back to `size` bytes (a torn or failed append beyond it) and syncs that. */
export async function cutBack(file: string, size: number): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    if ((await handle.stat()).size === size) return;
    await handle.truncate(size);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
 * Moves the inbox file of before into the log: the log written first (atomically, from the old
 * file's entries), the old file and its `.bak` removed last, so that a crash at any step leaves
 * the old file to migrate again. A log beside the old file is a migration cut short: written anew.
 */
export async function migrateLegacyInbox(
  legacy: string,
  options: { path: string; writeFile?: AtomicWriter; onWrite?: (event: WriteEvent) => void },
): Promise<void> {
  let text: string | undefined;
  try {
    text = await fs.readFile(legacy, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text === undefined) {
    const hasLog = await exists(options.path);
    if (hasLog) await fs.rm(`${legacy}.bak`, { force: true });
    else if (await exists(`${legacy}.bak`)) {
      throw new StoreCorruptError(
        legacy,
        'the file is missing, but its backup is there',
        `If it was lost by accident, stop kiosbot and restore the previous version: cp "${legacy}.bak" "${legacy}", then start kiosbot again. ` +
          `Starting without it loses the updates it held that were not handled yet; if that is really wanted, move "${legacy}.bak" away and start again.`,
      );
    }
    return;
  }
  let data: InboxData;
  try {
    data = decodeInboxFile(JSON.parse(text), legacy).data;
  } catch (error) {
    if (error instanceof StoreVersionError) throw error;
    throw new StoreCorruptError(
      legacy,
      'it is not the inbox file of before',
      `Stop kiosbot, then restore it from your backups (or its "${legacy}.bak"), or move it away (mv "${legacy}" "${legacy}.broken"). Then start kiosbot again.`,
    );
  }
  const startedAt = performance.now();
  const log = compactedLog([...data.entries].sort((a, b) => a.id - b.id));
  await (options.writeFile ?? writeFileAtomic)(options.path, log, { backup: false });
  reportWrite(options.onWrite, options.path, Buffer.byteLength(log), startedAt);
  await fs.rm(legacy);
  await fs.rm(`${legacy}.bak`, { force: true });
  await syncDir(path.dirname(legacy));
}
