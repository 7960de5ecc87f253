import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DurableFile, ensureDir, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { StoreError } from './errors.ts';
import { decodeHistoryFile, emptyHistoryData, type HistoryData } from './schema.ts';

/**
 * Settled transactions, one file per month of their createdAt (UTC): `history/YYYY-MM.json`.
 * Files are written rarely (once per settlement, coalesced) and read only when asked for; a file
 * once read stays cached in memory.
 */
export interface HistoryArchive {
  /** Months that have a history file, newest first. */
  months(): string[];
  /** The month's data if it has a file (read on first use), else undefined. */
  read(month: string): Promise<HistoryData | undefined>;
  /** The month's file, created empty if missing (for writing). */
  file(month: string): Promise<DurableFile<HistoryData>>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

const monthFile = /^(\d{4}-\d{2})\.json$/;

/** `YYYY-MM` (UTC) of an ISO time. */
export function monthOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 7);
}

/** Lists the history directory (creating it, 0700) without reading any file yet. */
export async function openHistory(options: {
  dir: string;
  onWrite?: (event: WriteEvent) => void;
  writeFile?: AtomicWriter;
}): Promise<HistoryArchive> {
  await ensureDir(options.dir);
  const known = new Set<string>();
  for (const name of await fs.readdir(options.dir)) {
    const month = monthFile.exec(name)?.[1];
    if (month) known.add(month);
  }
  const files = new Map<string, Promise<DurableFile<HistoryData>>>();
  let closed = false;

  const file = (month: string): Promise<DurableFile<HistoryData>> => {
    if (!/^\d{4}-\d{2}$/.test(month)) return Promise.reject(new Error(`Not a history month: ${month}`));
    if (closed && !files.has(month)) return Promise.reject(new StoreError('closed', 'The history is closed; no more files are opened.'));
    let opening = files.get(month);
    if (!opening) {
      opening = DurableFile.open<HistoryData>({
        path: path.join(options.dir, `${month}.json`),
        decode: decodeHistoryFile,
        defaultData: () => emptyHistoryData(month),
        onWrite: options.onWrite,
        writeFile: options.writeFile,
      });
      // A file that failed to open is retried (and fails again, loudly) on the next request.
      opening.catch(() => files.delete(month));
      files.set(month, opening);
      known.add(month);
    }
    return opening;
  };

  // Every file opened so far; one that failed to open is left out (it holds nothing to flush).
  const opened = async () =>
    (await Promise.all([...files.values()].map((opening) => opening.catch(() => undefined)))).filter((f) => f !== undefined);

  return {
    months: () => [...known].sort().reverse(),
    async read(month) {
      if (!known.has(month)) return undefined;
      return (await file(month)).data;
    },
    file,
    async flush() {
      await Promise.all((await opened()).map((f) => f.flush()));
    },
    async close() {
      closed = true;
      await Promise.all((await opened()).map((f) => f.close()));
    },
  };
}
