import path from 'node:path';
import { createConversationsRepo, type ConversationsRepo } from './conversations.ts';
import { createCredentialsRepo, type CredentialsRepo } from './credentials.ts';
import { DurableFile, ensureDir, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { inboxSecrets, openInbox, type Inbox } from './inbox.ts';
import { inboxFileName, legacyInboxFileName, readInboxEntries } from './inbox-log.ts';
import { allSealedWithCurrentKey, describeUnreadable, findUnreadable, type StoredSecret } from './key-audit.ts';
import { createGroupsRepo, type GroupsRepo } from './groups.ts';
import { createGameOrdersRepo, type GameOrdersRepo } from './game-orders.ts';
import { openHistory } from './history.ts';
import type { SegmentAppender } from './history-lines.ts';
import { acquireDirLock } from './lock.ts';
import { createOutboxRepo, type OutboxRepo } from './outbox.ts';
import { openBroadcasts, type BroadcastsRepo } from './broadcasts.ts';
import { openBalances, type BalancesRepo } from './balances.ts';
import { openPriceWatch, type PriceWatchRepo } from './price-watch.ts';
import { openLedger, type LedgerRepo } from './ledger.ts';
import { decodeHotFile, emptyHotData, type HotData } from './schema.ts';
import { createTransactionsRepo, type TransactionsRepo } from './transactions.ts';
import { copyPendingUsers, createUsersRepo, type UsersRepo } from './users.ts';
import { sealKeyCheck, verifyKeyCheck, type Vault } from './vault.ts';
import { StoreKeyError } from './errors.ts';
import { resealHot, resealShards, type ResealReport } from './reseal.ts';
import { credentialsAad } from './records/credentials.ts';
import { conversationAad } from './records/conversations.ts';
import { createWriteGate } from './write-gate.ts';
import { splitLegacyHotFile, type KeyCheckInput } from './split.ts';
import { openUserShards } from './user-shards.ts';
import {
  checkDataFilesPresent,
  checkHistoryPresent,
  checkHotFilePresent,
  createDataFilesRecorder,
  recordsDataFiles,
} from './missing-data.ts';

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
  /** Writes each data file; default the real atomic writer (tests simulate a full disk with it). */
  writeFile?: AtomicWriter;
  /**
   * Opens data holding secrets none of the vault's keys opens (they stay as they are), instead of
   * refusing it: for `npm run rotate-key`, which names them in its report. Default false.
   */
  allowUnreadableSecrets?: boolean;
  /**
   * Appends to a history segment durably; default the history's own (the segment kept open in
   * synchronous-write mode). Tests simulate a full disk with it.
   */
  appendFile?: SegmentAppender;
  /**
   * Open although a piece of the data directory is missing (ACCEPT_MISSING_DATA): what it held is
   * lost, and `lostData` says what. Without it such an open fails with StoreMissingError.
   */
  acceptMissingData?: boolean;
}

/**
 * The bot's database. Reads are synchronous and come from memory; every change resolves once it
 * is on disk. Changes to one file made in the same synchronous run land in the same (atomic) file
 * write: the hot file (open transactions, confirmations, outbox, groups, game orders), or one
 * user's shard file (their record, credentials, conversation states). A user change that must be
 * atomic with a hot-file change (`users.update` with `notify`, group links) is carried by the
 * hot file's write (`pendingUsers`) and copied into the shard after it.
 */
export interface Store {
  readonly dataDir: string;
  /** Data version the hot file was upgraded from at open, if it was (for a log line). */
  readonly migratedFrom: number | undefined;
  /** What was missing at open and started without (only with `acceptMissingData`), in words; empty normally. */
  readonly lostData: readonly string[];
  users: UsersRepo;
  credentials: CredentialsRepo;
  transactions: TransactionsRepo;
  /** The downlines' wallets (`ledger.json`, entries on their way in the hot file). */
  ledger: LedgerRepo;
  outbox: OutboxRepo;
  conversations: ConversationsRepo;
  groups: GroupsRepo;
  gameOrders: GameOrdersRepo;
  /** Broadcast jobs: audience and progress (`broadcasts.json`). */
  broadcasts: BroadcastsRepo;
  /** The reseller balances the bot saw, changes only (`balances.json`). */
  balances: BalancesRepo;
  /** The last price list of each watched reseller account (`price-watch.json`). */
  priceWatch: PriceWatchRepo;
  /** Updates that may move money, stored before Telegram is told they arrived (the log `inbox.jsonl`). */
  inbox: Inbox;
  /**
   * Resolves when every change made so far is on disk. Rejects (once every file's write settled)
   * if a write failed: those changes are then undone in memory too.
   */
  flush(): Promise<void>;
  /**
   * Seals every stored secret (credentials, conversation states, stored updates) that is not
   * sealed with the vault's current key again: the step of a key rotation that makes the previous
   * key unnecessary. Secrets no configured key opens are left as they are and named in the report.
   */
  resealSecrets(): Promise<ResealReport>;
  /**
   * Runs `task` while no data file is being written (writes in flight finish first; new ones wait
   * until it is done, changes go on in memory): a backup reads one consistent state this way.
   */
  holdWrites<T>(task: () => Promise<T>): Promise<T>;
  /** Flushes, refuses further changes and releases the data directory. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens the store in `dataDir`: takes the directory lock (fails with StoreLockedError if another
 * live process holds it), reads and validates the users' shard files and `kiosbot.json`
 * (upgrading an older format after backing it up: a hot file from before the split first has its
 * users written into the shards; StoreCorruptError or StoreVersionError leave it untouched),
 * copies user records and broadcast ends a crash left in the hot file into their own files, and finishes any settlement
 * a crash interrupted.
 */
/** Opens the history; the months on disk now (converted, or accepted as lost) are recorded in the hot file as the ones to expect from here on. */
async function openRecordedHistory(
  hot: DurableFile<HotData>,
  options: Parameters<typeof openHistory>[0],
): Promise<Awaited<ReturnType<typeof openHistory>>> {
  const history = await openHistory(options);
  const months = [...history.months()].sort();
  if (JSON.stringify(hot.data.meta.historyMonths) !== JSON.stringify(months)) {
    await hot.update((data) => {
      data.meta.historyMonths = months;
    });
  }
  return history;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const now = options.now ?? (() => new Date());
  const dataDir = path.resolve(options.dataDir);
  await ensureDir(dataDir);
  const lock = await acquireDirLock(dataDir);
  const gate = createWriteGate();
  const files = createDataFilesRecorder(dataDir);
  const onWrite = {
    onWrite: (event: WriteEvent) => {
      files.wrote(event.file);
      options.onWrite?.(event);
    },
    writeFile: gate.wrap(options.writeFile),
  };
  try {
    const hotPath = path.join(dataDir, hotFileName);
    const historyDir = path.join(dataDir, historyDirName);
    const accept = options.acceptMissingData ?? false;
    // Before anything is written: a data directory with a piece gone is not a new one.
    const lostData = await checkHotFilePresent({ dataDir, hotFile: hotPath, historyDir, accept });
    const inboxPath = path.join(dataDir, inboxFileName);
    const storedUpdates = await readInboxSecrets(dataDir);
    const keyCheck = (input: KeyCheckInput) =>
      checkKey({ ...input, vault: options.vault, file: hotPath, storedUpdates, allowUnreadable: options.allowUnreadableSecrets ?? false });
    await splitLegacyHotFile({ dataDir, hotFile: hotPath, checkKey: keyCheck, ...onWrite });
    const shards = await openUserShards({ dataDir, ...onWrite });
    const hot = await DurableFile.open<HotData>({
      path: hotPath,
      decode: (raw, file) => decodeHotFile(raw, file, now()),
      defaultData: () => emptyHotData(now()),
      // Before anything is written (no migration, no backup rotation): a wrong key stops here. Data
      // without a key check value is tried on its oldest secret, so every shard is read for it.
      verify: (data) =>
        keyCheck({
          keyCheck: data.keyCheck,
          sources: (data.keyCheck ? shards.withKeysBeyond(options.vault.keyIds) : shards.all).map((shard) => shard.data),
        }),
      ...onWrite,
    });
    lostData.push(...(await checkHistoryPresent({ dataDir, historyDir, listed: hot.data.meta.historyMonths, accept })));
    const dataFiles = await checkDataFilesPresent({ dataDir, listed: hot.data.meta, accept });
    lostData.push(...dataFiles.lost);
    // A new file is written right away, so an unwritable directory fails at start-up, not at the
    // first purchase. It carries the key check value, which an older file gets here too, sealed
    // with the current key only when every stored secret is: otherwise the key check would let
    // the current key alone start on data that needs another one. A key rotation moves it (resealSecrets).
    const everySecretCurrent = () =>
      allSealedWithCurrentKey(
        options.vault,
        storedUpdates,
        shards.withKeysBeyond([options.vault.keyId]).map((shard) => shard.data),
      );
    const addCheck = !hot.data.keyCheck && everySecretCurrent();
    // The files there now (found, or accepted as lost) are the ones to expect from here on.
    const recordFiles = !recordsDataFiles(hot.data.meta, dataFiles.present);
    if (!hot.existed || addCheck || recordFiles) {
      await hot.update((data) => {
        if (addCheck) data.keyCheck = { ...sealKeyCheck(options.vault), at: now().toISOString() };
        if (recordFiles) Object.assign(data.meta, dataFiles.present);
      });
    }
    files.attach(hot);
    const history = await openRecordedHistory(hot, {
      dir: historyDir,
      onWrite: options.onWrite,
      appendFile: options.appendFile,
      guardAppend: (append) => gate.guard(append),
    });
    const inbox = await openInbox({
      path: inboxPath,
      legacyPath: path.join(dataDir, legacyInboxFileName),
      vault: options.vault,
      now,
      ...onWrite,
    });
    const broadcasts = await openBroadcasts({ dataDir, hot, now, ...onWrite });
    const balances = await openBalances({ dataDir, now, ...onWrite });
    const priceWatch = await openPriceWatch({ dataDir, ...onWrite });
    const context = { hot, shards, copying: new Map<string, number>(), vault: options.vault, now };
    // User records a crash left between the hot file and their shards.
    await copyPendingUsers(context, Object.values(hot.data.pendingUsers));
    // Broadcast ends a crash left between the hot file (with their reports) and broadcasts.json.
    await broadcasts.copyCarriedEnds();
    await hot.flush();
    // After the pending users: its open copies the wallet entries a crash left in the hot file.
    const ledger = await openLedger({ dataDir, hot, now, ...onWrite });
    const transactions = createTransactionsRepo(context, history, ledger);
    await transactions.archiveSettled();

    let closing: Promise<void> | undefined;
    return {
      dataDir,
      migratedFrom: hot.migratedFrom,
      lostData,
      users: createUsersRepo(context),
      credentials: createCredentialsRepo(context),
      transactions,
      ledger,
      outbox: createOutboxRepo(context),
      conversations: createConversationsRepo(context),
      groups: createGroupsRepo(context),
      gameOrders: createGameOrdersRepo(context),
      inbox,
      broadcasts,
      balances,
      priceWatch,
      async resealSecrets() {
        // The key check value (in the hot file) last, and only once every other secret opens with the current key.
        const fromShards = await resealShards(shards, options.vault);
        const fromInbox = await inbox.reseal();
        const unreadable = [...fromShards.unreadable, ...fromInbox.unreadable];
        await resealHot(hot, options.vault, now, unreadable.length === 0);
        return { resealed: { ...fromShards.resealed, inbox: fromInbox.resealed.inbox }, unreadable };
      },
      holdWrites: (task) => gate.hold(task),
      // All settle before this does, so that after a rejection each file's memory is what is on disk.
      flush: () => settleAll([shards, hot, ledger, history, inbox, broadcasts, balances, priceWatch].map((file) => file.flush())),
      close() {
        closing ??= (async () => {
          try {
            await Promise.all([
              shards.close(),
              // The ledger first: its last copy drops entries from the hot file, and ledger.json's first write is recorded there.
              ledger.close().finally(() => hot.close()),
              history.close(),
              inbox.close(),
              broadcasts.close(),
              balances.close(),
              priceWatch.close(),
            ]);
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

/** Waits for every one of `work` to settle, then rejects with the first failure, if any. */
async function settleAll(work: ReadonlyArray<Promise<void>>): Promise<void> {
  const results = await Promise.allSettled(work);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
}

/**
 * Refuses a vault whose keys do not fit the data, before anything is written. The key check
 * value must open; data from before the check value must open its oldest stored secret (the one
 * sealed first, so with the key the data was created with), if it has any. Then every stored
 * secret must be sealed with one of the vault's keys (key-audit.ts), unless `allowUnreadable`.
 */
function checkKey(
  input: KeyCheckInput & { vault: Vault; file: string; storedUpdates: readonly StoredSecret[]; allowUnreadable: boolean },
): void {
  const { vault, file } = input;
  const unreadable = () => findUnreadable(vault, input.storedUpdates, input.sources);
  if (input.keyCheck) {
    const problem = verifyKeyCheck(vault, input.keyCheck.sealed);
    if (problem) {
      const found = unreadable();
      throw new StoreKeyError(file, found.names.length > 0 ? `${problem}; ${describeUnreadable(found)}` : problem);
    }
  } else {
    const secret = oldestSecret(input);
    if (secret) {
      try {
        vault.decrypt(secret.sealed, secret.aad);
      } catch {
        throw new StoreKeyError(file, `it cannot open ${secret.what}`);
      }
    }
  }
  if (input.allowUnreadable) return;
  const found = unreadable();
  if (found.names.length > 0) throw new StoreKeyError(file, describeUnreadable(found));
}

/** The stored updates of the inbox (its log, or the file of before) as the key check sees them; none if it is missing or unreadable (its open reports that). */
async function readInboxSecrets(dataDir: string): Promise<StoredSecret[]> {
  try {
    return inboxSecrets(await readInboxEntries(dataDir));
  } catch {
    return [];
  }
}

/** The stored secret sealed first (in any shard): the oldest credentials, else a conversation state. */
function oldestSecret({ sources }: KeyCheckInput): { sealed: string; aad: string; what: string } | undefined {
  const credentials = sources
    .flatMap((source) => Object.entries(source.credentials))
    .sort(([ka, a], [kb, b]) => Date.parse(a.connectedAt) - Date.parse(b.connectedAt) || (ka < kb ? -1 : ka > kb ? 1 : 0));
  const [first] = credentials;
  if (first) {
    const [key, record] = first;
    const userId = Number(key.slice(0, key.indexOf(':')));
    return {
      sealed: record.sealed,
      aad: credentialsAad(userId, record.service),
      what: `the stored ${record.service} credentials of user ${userId}`,
    };
  }
  const [conversation] = sources.flatMap((source) => Object.entries(source.conversations)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (conversation) return { sealed: conversation[1], aad: conversationAad(conversation[0]), what: 'the stored conversation state' };
  return undefined;
}
