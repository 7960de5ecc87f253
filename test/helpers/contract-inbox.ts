/**
 * The update inbox as the app uses it: the store contract's `inbox` (src/store/db.ts) over the
 * data directory's lowdb store, for tests of the getUpdates transformer without a whole app.
 */
import { openStore, type StoreOptions } from '../../src/store/store.ts';
import { createLowdbEngine } from '../../src/store/lowdb-engine.ts';
import { createDb, type InboxDb } from '../../src/store/db.ts';
import type { Vault } from '../../src/store/vault.ts';

export interface ContractInbox {
  inbox: InboxDb;
  /** Writes what is waiting (done marks, forgotten entries) now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Opens a lowdb store in `dataDir` (its inbox log is `inbox.jsonl` there) and returns its contract inbox. */
export async function openContractInbox(dataDir: string, vault: Vault, writeFile?: StoreOptions['writeFile']): Promise<ContractInbox> {
  const store = await openStore({ dataDir, vault, ...(writeFile ? { writeFile } : {}) });
  const db = createDb(createLowdbEngine(store), vault);
  return { inbox: db.inbox, flush: () => store.flush(), close: () => db.close() };
}
