import path from 'node:path';
import { createConversationsRepo, type ConversationsRepo } from './conversations.ts';
import { createCredentialsRepo, type CredentialsRepo } from './credentials.ts';
import { DurableFile, ensureDir, type WriteEvent } from './durable-file.ts';
import { inboxFileName, openInbox, type Inbox } from './inbox.ts';
import { createGroupsRepo, type GroupsRepo } from './groups.ts';
import { createGameOrdersRepo, type GameOrdersRepo } from './game-orders.ts';
import { openHistory } from './history.ts';
import { acquireDirLock } from './lock.ts';
import { createOutboxRepo, type OutboxRepo } from './outbox.ts';
import { decodeHotFile, emptyHotData, type HotData } from './schema.ts';
import { createTransactionsRepo, type TransactionsRepo } from './transactions.ts';
import { createUsersRepo, type UsersRepo } from './users.ts';
import type { Vault } from './vault.ts';

/** Name of the hot file inside the data directory. */
export const hotFileName = 'kiosbot.json';
/** Name of the history directory inside the data directory. */
export const historyDirName = 'history';

export interface StoreOptions {
  /** Directory of all data files; created with mode 0700. One process owns it at a time. */
  dataDir: string;
  /** Seals credentials and conversation state. */
  vault: Vault;
  /** Clock for timestamps; defaults to the system clock. */
  now?: () => Date;
  /** Called after every completed file write (tests and benchmarks count writes with it). */
  onWrite?: (event: WriteEvent) => void;
}

/**
 * The bot's database. Reads are synchronous and come from memory; every change resolves once it
 * is on disk. Changes made in the same synchronous run land in the same (atomic) file write.
 */
export interface Store {
  readonly dataDir: string;
  /** Data version the hot file was upgraded from at open, if it was (for a log line). */
  readonly migratedFrom: number | undefined;
  users: UsersRepo;
  credentials: CredentialsRepo;
  transactions: TransactionsRepo;
  outbox: OutboxRepo;
  conversations: ConversationsRepo;
  groups: GroupsRepo;
  gameOrders: GameOrdersRepo;
  /** Updates that may move money, stored before Telegram is told they arrived (`inbox.json`). */
  inbox: Inbox;
  /** Resolves when every change made so far is on disk. */
  flush(): Promise<void>;
  /** Flushes, refuses further changes and releases the data directory. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens the store in `dataDir`: takes the directory lock (fails with StoreLockedError if another
 * live process holds it), reads and validates `kiosbot.json` (upgrading an older format after
 * backing it up; StoreCorruptError or StoreVersionError leave it untouched), and finishes any
 * settlement a crash interrupted.
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const now = options.now ?? (() => new Date());
  const dataDir = path.resolve(options.dataDir);
  await ensureDir(dataDir);
  const lock = await acquireDirLock(dataDir);
  const onWrite = options.onWrite ? { onWrite: options.onWrite } : {};
  try {
    const hot = await DurableFile.open<HotData>({
      path: path.join(dataDir, hotFileName),
      decode: (raw, file) => decodeHotFile(raw, file, now()),
      defaultData: () => emptyHotData(now()),
      ...onWrite,
    });
    // Write a new file right away, so an unwritable directory fails at start-up, not at the first purchase.
    if (!hot.existed) await hot.update(() => undefined);
    const history = await openHistory({ dir: path.join(dataDir, historyDirName), ...onWrite });
    const inbox = await openInbox({ path: path.join(dataDir, inboxFileName), vault: options.vault, now, ...onWrite });
    const context = { hot, vault: options.vault, now };
    const transactions = createTransactionsRepo(context, history);
    await transactions.archiveSettled();

    let closing: Promise<void> | undefined;
    return {
      dataDir,
      migratedFrom: hot.migratedFrom,
      users: createUsersRepo(context),
      credentials: createCredentialsRepo(context),
      transactions,
      outbox: createOutboxRepo(context),
      conversations: createConversationsRepo(context),
      groups: createGroupsRepo(context),
      gameOrders: createGameOrdersRepo(context),
      inbox,
      async flush() {
        await Promise.all([hot.flush(), history.flush(), inbox.flush()]);
      },
      close() {
        closing ??= (async () => {
          try {
            await Promise.all([hot.close(), history.close(), inbox.close()]);
          } finally {
            await lock.release();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
