/**
 * The last price list seen for each watched reseller account, in `price-watch.json`: a few
 * hundred products per account, replaced every few minutes, so kept out of the hot file (lowdb
 * rewrites a whole file per write). One `[code, name, price, status]` row per product; an account
 * is known by a hash of its api id (the id itself stays sealed).
 */
import path from 'node:path';
import { z } from 'zod';
import { DurableFile, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { versionedDecoder } from './versioned.ts';
import { copy } from './context.ts';
import type { AnsweredAtOnce, FileRepo, PriceWatchStore } from './contract.ts';
import { fromStoredSnapshot, storedSnapshotSchema, toStoredSnapshot } from './records/price-watch.ts';

export const priceWatchFileName = 'price-watch.json';
const fileVersion = 1;

const fileSchema = z.object({ version: z.literal(fileVersion), accounts: z.record(z.string(), storedSnapshotSchema) });

/** Decodes `price-watch.json` (also for backups); a newer version is refused with StoreVersionError. */
export const decodePriceWatchFile = versionedDecoder(fileSchema, fileVersion);
type PriceWatchData = z.infer<typeof fileSchema>;

/** The contract's PriceWatchStore over `price-watch.json`. */
export type PriceWatchRepo = AnsweredAtOnce<PriceWatchStore, 'get'> & FileRepo;

export async function openPriceWatch(options: {
  dataDir: string;
  onWrite?: (event: WriteEvent) => void;
  writeFile?: AtomicWriter;
}): Promise<PriceWatchRepo> {
  const file = await DurableFile.open<PriceWatchData>({
    path: path.join(options.dataDir, priceWatchFileName),
    decode: decodePriceWatchFile,
    defaultData: () => ({ version: fileVersion, accounts: {} }),
    onWrite: options.onWrite,
    writeFile: options.writeFile,
  });

  return {
    get(accountKey) {
      const stored = file.data.accounts[accountKey];
      return stored ? fromStoredSnapshot(stored) : undefined;
    },
    async save(accountKey, snapshot) {
      const stored = toStoredSnapshot(snapshot);
      await file.update((data) => {
        data.accounts[accountKey] = copy(stored);
      });
    },
    async retain(accountKeys) {
      const gone = Object.keys(file.data.accounts).filter((key) => !accountKeys.has(key));
      if (gone.length === 0) return;
      await file.update((data) => {
        for (const key of gone) delete data.accounts[key];
      });
    },
    flush: () => file.flush(),
    close: () => file.close(),
  };
}
