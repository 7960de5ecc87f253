/**
 * The last price list seen for each watched reseller account, in its own file
 * (`price-watch.json`). Why not the hot file: a price list is a few hundred products per account
 * and the watcher replaces it every few minutes, while the hot file is rewritten on every purchase
 * (lowdb writes a whole file each time, see DESIGN.md "Store layout"). Kept apart, the snapshots
 * never make a purchase's write longer, and a purchase never rewrites the snapshots.
 *
 * Compact: one `[code, name, price, status]` row per product (no repeated field names), an
 * account is known by a hash of its api id (the api id itself stays sealed in the hot file), and
 * the file is written only when a list changed.
 */
import path from 'node:path';
import { z } from 'zod';
import { DurableFile, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { versionedDecoder } from './versioned.ts';
import { copy } from './context.ts';
import { fromStoredSnapshot, storedSnapshotSchema, toStoredSnapshot, type PriceSnapshot } from './records/price-watch.ts';

export const priceWatchFileName = 'price-watch.json';
const fileVersion = 1;

const fileSchema = z.object({ version: z.literal(fileVersion), accounts: z.record(z.string(), storedSnapshotSchema) });

/** Decodes `price-watch.json` (also for backups); a newer version is refused with StoreVersionError. */
export const decodePriceWatchFile = versionedDecoder(fileSchema, fileVersion);
type PriceWatchData = z.infer<typeof fileSchema>;

export interface PriceWatchRepo {
  /** The last list stored for an account, or undefined before its first fetch. */
  get(accountKey: string): PriceSnapshot | undefined;
  /** Replaces the account's list; resolves once it is on disk. */
  save(accountKey: string, snapshot: PriceSnapshot): Promise<void>;
  /** Forgets accounts nobody watches any more (one write, only if something was dropped). */
  retain(accountKeys: ReadonlySet<string>): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

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
