/**
 * The store contract services and jobs use, with two engines behind it: `lowdb-engine.ts` (one
 * process, one data directory) and `pg/engine.ts` (PostgreSQL, shared by several instances).
 * Everything resolves once durable (on disk, or committed). Secrets cross it sealed only (vault
 * tokens made above it: `sealCredential`, `sealConversation`, `sealUpdate`). Across instances a
 * confirmation id makes one set of transactions, and due work is claimed with a lease.
 */
import type { ServiceName } from '../domain.ts';
import type { BalanceEntry } from './records/balances.ts';
import type { BroadcastJob, BroadcastOutcome, BroadcastProgress, NewBroadcastJob } from './records/broadcasts.ts';
import type { CredentialRecord } from './records/credentials.ts';
import type { GameOrderRecord } from './records/game-orders.ts';
import type { LinkedGroup } from './records/groups.ts';
import type { LedgerAppend, LedgerEntry, NewLedgerEntry, StatementOptions, WalletSummary } from './records/ledger.ts';
import type { NewOutboxItem, OutboxEntry, OutboxItem, OutboxPatch } from './records/outbox.ts';
import type { PriceSnapshot } from './records/price-watch.ts';
import type { ListOptions, NewTransaction, TransactionPatch, TransactionRecord } from './records/transactions.ts';
import type { SealedUpdate } from './records/updates.ts';
import type { NewUser, UserFilter, UserPatch, UserRecord } from './records/users.ts';

/**
 * How long, and how many, done inbox entries are kept to recognise a re-delivery. Long polling:
 * Telegram re-sends an update only until a later getUpdates offset acknowledges it, so after a
 * crash at most the last answer (100 updates, getUpdates' limit) comes again. Webhook: by count in
 * the data directory's log (its live entries stay in memory), by age only on PostgreSQL, where a
 * fleet handles hundreds of updates a second and a count would forget one within seconds.
 */
export const inboxRetention = {
  polling: { maxAgeMs: 24 * 60 * 60_000, maxCount: 100 },
  webhook: {
    lowdb: { maxAgeMs: 60 * 60_000, maxCount: 200 },
    postgres: { maxAgeMs: 60 * 60_000, maxCount: Number.MAX_SAFE_INTEGER },
  },
} as const;

/** `T` with the methods `K` answering at once, not with a promise (the lowdb repositories: their data is in memory). */
export type AnsweredAtOnce<T, K extends keyof T> = Omit<T, K> & {
  [P in K]: T[P] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** A lowdb repository with a file of its own. */
export interface FileRepo {
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Which engine runs the contract. */
export type StoreEngineKind = 'lowdb' | 'postgres';

/** A claim's holder (an instance id) and its length (ms, engine clock): nobody else gets the row until then. */
export interface Lease {
  owner: string;
  ms: number;
}

/** What a caller leaves out of a claim of due transactions. */
export interface DueFilter {
  /** Leaves this one out (a check of it runs already) and looks further. */
  skip?: (refId: string) => boolean;
  /** At most this many of the account's (by `accountOf`: a downline's purchases are their upline's; 0 skips the account and looks further). */
  room?: (userId: number) => number;
}

export interface TransactionUpdateOptions {
  /** Queued in the same commit as the change. */
  notify?: NewOutboxItem[];
  /**
   * lowdb may write the change with its next write (within `deferredWriteMs`: a wave of changes
   * shares a few writes; PostgreSQL commits at once). Only for a change whose loss in a crash costs
   * nothing (a re-check that found it still Pending); ignored with `notify`.
   */
  deferWrite?: boolean;
}

export interface TransactionCreateOptions {
  confirmationId?: string;
  /**
   * Wallet entries (a downline's hold of what the purchases cost) appended in the same write /
   * SQL transaction as the transactions, under the ledger's rules: a refusal (LedgerRefusedError,
   * LedgerShortError) stores no transaction, and a duplicate refId or confirmation no entry.
   */
  ledger?: readonly NewLedgerEntry[];
}

export interface TransactionSettleOptions {
  /** Queued in the same commit as the final status. */
  notify?: NewOutboxItem[];
  /**
   * Wallet entries (the hold's refund of a Gagal, its final of a Sukses) appended in the same
   * commit as the final status; none if the transaction is not open. A refusal settles nothing.
   */
  ledger?: readonly NewLedgerEntry[];
}

export interface ClaimOptions {
  /** At most this many rows. */
  limit: number;
  lease: Lease;
}

/** What a change of several users makes: their patches, stored in one commit with `notify`, and the caller's result. */
export interface UsersChange<R> {
  patches: Array<{ id: number; patch: UserPatch }>;
  notify?: NewOutboxItem[];
  result: R;
}

/** Bot users by Telegram id (no secrets). */
export interface UserStore {
  get(id: number): Promise<UserRecord | undefined>;
  /** Creates the user (active) on first contact, or refreshes name, username and (if given) locale. */
  upsert(input: NewUser): Promise<{ user: UserRecord; created: boolean }>;
  /** Applies `patch`, with `notify` queued atomically (undefined for an unknown user); `deferWrite` as for transactions. */
  update(id: number, patch: UserPatch, options?: { notify?: NewOutboxItem[]; deferWrite?: boolean }): Promise<UserRecord | undefined>;
  setActive(id: number, active: boolean): Promise<UserRecord | undefined>;
  /** Users ordered by id; `filter.where` runs on the engine's side of the contract, in memory. */
  list(filter?: UserFilter): Promise<UserRecord[]>;
  count(filter?: UserFilter): Promise<number>;
  /**
   * Runs `change` on the current records of `ids` (absent: unknown users) and stores its patches
   * and `notify` in one commit, no other change of those users in between (PostgreSQL: their rows
   * locked); nothing is written when it patches nothing. `change` must be pure: it may run again.
   */
  transact<R>(ids: readonly number[], change: (users: ReadonlyMap<number, UserRecord>) => UsersChange<R>): Promise<R>;
}

/** Each user's credentials per service, as vault tokens (`sealCredential` makes them). */
export interface CredentialStore {
  /** Stores the sealed record, replacing an earlier one of the service. */
  saveSealed(userId: number, record: CredentialRecord): Promise<void>;
  /** The sealed record, or undefined if not connected. */
  sealed(userId: number, service: ServiceName): Promise<CredentialRecord | undefined>;
  /** Resolves true if there were credentials to forget. */
  remove(userId: number, service: ServiceName): Promise<boolean>;
  listServices(userId: number): Promise<ServiceName[]>;
  /** Connected accounts per service (every service named, 0 if none). */
  countByService(): Promise<Record<ServiceName, number>>;
}

/** Purchases, open and settled. */
export interface TransactionStore {
  /** Stores one new transaction; StoreError('duplicate') if its refId exists (open or settled). */
  create(tx: NewTransaction, options?: Pick<TransactionCreateOptions, 'ledger'>): Promise<TransactionRecord>;
  /** A confirmation's transactions (and `ledger` entries), all or none; a `confirmationId` used already (anywhere): StoreError('duplicate'). */
  createMany(txs: readonly NewTransaction[], options?: TransactionCreateOptions): Promise<TransactionRecord[]>;
  /** The ref ids a confirmation became (kept 7 days), once durable: a write in flight is waited for, a failed one reads as none. */
  confirmation(confirmationId: string): Promise<string[] | undefined>;
  /** An open transaction. */
  get(refId: string): Promise<TransactionRecord | undefined>;
  /** Any transaction, open or settled. */
  find(refId: string): Promise<TransactionRecord | undefined>;
  /** The transaction if it is `userId`'s. */
  findForUser(userId: number, refId: string): Promise<TransactionRecord | undefined>;
  /** The user's transaction with this provider trx id (any case). */
  findByTrxId(userId: number, trxId: string): Promise<TransactionRecord | undefined>;
  /** Open transactions, oldest first. */
  listOpen(): Promise<TransactionRecord[]>;
  /** A user's transactions, newest first (default limit 10). */
  listByUser(userId: number, options?: ListOptions): Promise<TransactionRecord[]>;
  /** A user's transactions to exactly `target`, newest first (default limit 10). */
  listByTarget(userId: number, target: string, options?: ListOptions): Promise<TransactionRecord[]>;
  /** A user's transactions created in [from, to), oldest first. */
  listByUserBetween(userId: number, from: Date, to: Date): Promise<TransactionRecord[]>;
  /** Every transaction created at or after `since`, newest first. */
  listCreatedSince(since: Date): Promise<TransactionRecord[]>;
  /** Users with a purchase created at or after `since` that did not fail. */
  buyersSince(since: Date): Promise<Set<number>>;
  /** Changes an open transaction (not to a final status: `settle`), `notify` in the same commit; ends a claim on it. Undefined if not open. */
  update(refId: string, patch: TransactionPatch, options?: TransactionUpdateOptions): Promise<TransactionRecord | undefined>;
  /** Final status, `notify` and `ledger` in one commit; undefined, nothing queued or appended, if not open (of two racing settlements one notifies). */
  settle(refId: string, patch: TransactionPatch, options?: TransactionSettleOptions): Promise<TransactionRecord | undefined>;
  /** Open transactions due at `nowMs` (nextCheckAt, else createdAt); lowdb by account, earliest first, PostgreSQL by due time. */
  due(nowMs: number, options?: { limit?: number }): Promise<TransactionRecord[]>;
  /** Claims due transactions under no other live lease, in `due`'s order; `skip` and `room` run in the caller's process, synchronously. */
  claimDue(nowMs: number, options: ClaimOptions & DueFilter): Promise<TransactionRecord[]>;
  /** Ends `owner`'s claim (only its own) after a check that wrote nothing: due again at its stored time, for anyone. */
  releaseClaim(refId: string, owner: string): Promise<void>;
  /** When the earliest open transaction is due (ms), undefined with none open. */
  nextDueAt(): Promise<number | undefined>;
}

export interface LedgerAppendOptions {
  /** The messages to queue with the entries created (pure: it may run again); not called when none was created. */
  notify?: (created: readonly LedgerEntry[]) => NewOutboxItem[];
}

/**
 * Downlines' wallets, each a ledger of immutable entries (records/ledger.ts has the rules). A
 * wallet is its downline's user id; one without entries holds 0. Purchases' holds and refunds go
 * with their transactions (`transactions.createMany` / `settle` with `ledger`); the rest here.
 */
export interface LedgerStore {
  /**
   * Appends `entries` in order, all or none, in one write / SQL transaction, under the wallet's
   * lock (of two instances appending to one wallet, the second sees the first's balance). A key
   * the wallet has already answers with its stored entry (`created` false) and appends nothing.
   * `notify` makes the messages queued in the same commit from the entries created, and is not
   * called when none was: a movement is told once, however often its append is repeated.
   */
  append(entries: readonly NewLedgerEntry[], options?: LedgerAppendOptions): Promise<LedgerAppend[]>;
  /** The wallet's balance (the sum of its entries). */
  balance(wallet: number): Promise<number>;
  /** A statement page, newest first, each entry with the balance after it (default 10 from the newest). */
  statement(wallet: number, options?: StatementOptions): Promise<LedgerEntry[]>;
  /** The wallet's entries of one purchase (its hold, final or refund), oldest first. */
  byRef(wallet: number, refId: string): Promise<LedgerEntry[]>;
  /** Who keeps the wallet now (its latest entry's upline), its balance and open holds; undefined without entries. */
  summary(wallet: number): Promise<WalletSummary | undefined>;
}

/** Messages the bot sends on its own, kept until Telegram accepted them. */
export interface OutboxStore {
  /** Queues an item; with a `dedupeKey` a pending item of, it resolves that one instead. */
  enqueue(item: NewOutboxItem): Promise<OutboxItem>;
  get(id: string): Promise<OutboxItem | undefined>;
  /** Every pending item. */
  list(): Promise<OutboxItem[]>;
  /** Items due at `at` (notBefore passed, or none), oldest due first. */
  listDue(at: Date): Promise<OutboxItem[]>;
  /** Claims one pending item unless another owner's lease on it runs; undefined if gone or held elsewhere. */
  claim(id: string, lease: Lease): Promise<OutboxItem | undefined>;
  /** Claims due items not under another live lease, oldest due first. */
  claimDue(at: Date, options: ClaimOptions): Promise<OutboxItem[]>;
  /** Changes a pending item (and ends a claim on it); undefined if it is gone. */
  update(id: string, patch: OutboxPatch): Promise<OutboxItem | undefined>;
  /** Removes an item (sent or given up); true if it was there. */
  remove(id: string): Promise<boolean>;
  size(): Promise<number>;
  /** Scheduling fields of every pending item, no payload. */
  entries(): Promise<OutboxEntry[]>;
  /** Moves every item of `fromChatId` to `toChatId` in one commit; resolves how many. */
  retarget(fromChatId: number, toChatId: number): Promise<number>;
}

/** Conversation states by storage key, as vault tokens (`sealConversation` makes them). */
export interface ConversationStore {
  readSealed(key: string): Promise<string | undefined>;
  /** Stores the token; `undefined` deletes. */
  writeSealed(key: string, sealed: string | undefined): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Groups linked for notifications: one group per owner, one owner per group. */
export interface GroupStore {
  /** Links `chatId` to `ownerId` (and sets the owner's linkedGroupId) in one commit. */
  link(input: { chatId: number; ownerId: number; title?: string }): Promise<LinkedGroup>;
  /** Moves a link to the group's new (supergroup) id; false if `oldId` was not linked. */
  migrate(oldId: number, newId: number): Promise<boolean>;
  unlink(chatId: number): Promise<boolean>;
  get(chatId: number): Promise<LinkedGroup | undefined>;
  byOwner(ownerId: number): Promise<LinkedGroup[]>;
}

/** Game shop orders. */
export interface GameOrderStore {
  /** Stores the order with `notify` (its expiry reminder) in one commit. */
  save(order: GameOrderRecord, options?: { notify?: NewOutboxItem[] }): Promise<GameOrderRecord>;
  get(orderId: string): Promise<GameOrderRecord | undefined>;
  /** The user's orders, newest first (default limit 10). */
  listByUser(userId: number, options?: ListOptions): Promise<GameOrderRecord[]>;
}

/** Updates that may move money, stored before Telegram is told they arrived; the de-duplication record. */
export interface InboxStore {
  has(updateId: number): Promise<boolean>;
  /**
   * Stores the updates not held yet; resolves with the new ids, lowest first. With `lease` the
   * caller holds the new ones until done or its lease runs out: only then may a replay claim them.
   */
  add(updates: readonly SealedUpdate[], options?: { lease?: Lease }): Promise<number[]>;
  /** Marks the update done; with `owner` only while `owner` holds it (fenced); resolves whether it was marked. */
  markDone(updateId: number, owner?: string): Promise<boolean>;
  /** Whether the update is stored, not done, and held by `owner` (its handler may run it now). */
  holds(updateId: number, owner: string): Promise<boolean>;
  /** Ids not done, lowest first. */
  pendingIds(): Promise<number[]>;
  /** Whether an update of `chatId` below `updateId` is stored and not done: a later one waits, so a chat's updates run in order. */
  earlierOpen(chatId: number, updateId: number): Promise<boolean>;
  /**
   * Claims updates not done that nobody holds, lowest id first, counting one replay attempt each
   * (durable before it resolves). One replayed `maxAttempts` times is marked done instead and
   * returned in `givenUp`: a start that crashes on it again and again gives it up.
   */
  claimForReplay(options: ClaimOptions & { maxAttempts: number }): Promise<{ updates: SealedUpdate[]; givenUp: number[] }>;
  /** Forgets done updates older than `maxAgeMs` and all but the newest `maxCount` done ones (see `inboxRetention`); pending ones stay. */
  pruneDone(limits: { maxAgeMs: number; maxCount: number }): Promise<void>;
}

/** The reseller balances the bot saw, changes only. */
export interface BalanceStore {
  /** Records `balance` unless it equals the last one of the account; true when stored. */
  record(userId: number, account: string, balance: number): Promise<boolean>;
  /** Oldest first; with a range, only those read in [from, to). */
  list(userId: number, range?: { from: Date; to: Date }): Promise<BalanceEntry[]>;
}

/** Broadcast jobs: audience and progress; one runs at a time. */
export interface BroadcastStore {
  /** StoreError('duplicate') while another job runs. */
  create(job: NewBroadcastJob): Promise<BroadcastJob>;
  get(id: string): Promise<BroadcastJob | undefined>;
  running(): Promise<BroadcastJob | undefined>;
  /** The running job without its recipient list (cheap: for status checks). */
  runningProgress(): Promise<BroadcastProgress | undefined>;
  isDone(id: string, index: number): Promise<boolean>;
  progress(id: string): Promise<BroadcastProgress | undefined>;
  /** Records one delivery's outcome (a second record of the same position is ignored). */
  record(id: string, index: number, outcome: BroadcastOutcome): Promise<void>;
  setProgressMessage(id: string, messageId: number): Promise<void>;
  /** Ends the job (an ended one keeps its end), with `report` queued in the same commit unless queued already: never lost, never twice. */
  finish(id: string, status: 'done' | 'cancelled', report?: readonly NewOutboxItem[]): Promise<BroadcastJob | undefined>;
  /** An ended job whose final report is still to be queued (cancelled, and the runner stopped first), if any. */
  unreported(): Promise<BroadcastProgress | undefined>;
}

/** The last price list of each watched reseller account. */
export interface PriceWatchStore {
  get(accountKey: string): Promise<PriceSnapshot | undefined>;
  save(accountKey: string, snapshot: PriceSnapshot): Promise<void>;
  /** Forgets the accounts not in `accountKeys`. */
  retain(accountKeys: ReadonlySet<string>): Promise<void>;
}

/** One update of a chat at a time across every instance: a flow's next answer never races the step before. */
export interface ChatLockStore {
  /**
   * Runs `work` holding the chat's lock, which goes when `work` settles or with its holder (on
   * PostgreSQL its connection; `held` then aborts with StoreError('lock-lost')).
   */
  run<T>(chatId: number, work: (held: AbortSignal) => Promise<T>): Promise<T>;
}

export interface SendClaim {
  /** Another sender held the ref first and this caller waited: take its answer from the store, do not ask the provider again. */
  waited: boolean;
  /** Aborted (StoreError('lock-lost')) if the claim goes while the task runs (PostgreSQL: its connection was lost). */
  held: AbortSignal;
}

/** One sender per ref at a time (DESIGN invariant 8), across every instance. */
export interface SendClaimStore {
  /** Runs `task` as the only holder of `refId`'s claim, waiting for it if taken; it goes when `task` settles or with its holder. */
  withClaim<T>(refId: string, task: (claim: SendClaim) => Promise<T>): Promise<T>;
}

/** Telegram's limits as the whole fleet keeps them (one set for every instance sharing the store). */
export interface FleetLimits {
  /** Messages per second over all chats (Telegram allows about 30). */
  perSecond: number;
  /** Milliseconds between two messages to one chat (Telegram: about 1 s). */
  perChatMs: number;
  /** Messages to one group (chat id < 0) per minute (Telegram: 20). */
  perGroupPerMinute: number;
}

/** Send instants shared by every instance, so the fleet together keeps Telegram's limits. */
export interface SendSlotStore {
  /**
   * Reserves the earliest instant (ms, engine clock) from `atMs` at which a message to `chatId`
   * keeps `limits` with every reservation before it: one per 1000 / perSecond ms slot,
   * `perChatMs` after the chat's last, for a group 60 s / perGroupPerMinute after its last.
   */
  reserve(chatId: number, atMs: number, limits: FleetLimits): Promise<number>;
}

/** The whole contract: one engine's repositories, and its end. */
export interface StoreEngine {
  readonly kind: StoreEngineKind;
  users: UserStore;
  credentials: CredentialStore;
  transactions: TransactionStore;
  ledger: LedgerStore;
  outbox: OutboxStore;
  conversations: ConversationStore;
  groups: GroupStore;
  gameOrders: GameOrderStore;
  inbox: InboxStore;
  balances: BalanceStore;
  broadcasts: BroadcastStore;
  priceWatch: PriceWatchStore;
  chatLocks: ChatLockStore;
  sendSlots: SendSlotStore;
  sendClaims: SendClaimStore;
  /** How the engine reaches its data (PostgreSQL: the database server); the embedded engine has none to report. */
  health?(): StoreHealth;
  /** Extends every claim of `lease.owner` (updates, due checks, outbox items) to `lease.ms` from now: only a dead holder's run out. */
  renewLeases(lease: Lease): Promise<void>;
  /** Waits for what is in flight and releases the engine (its files or connections). */
  close(): Promise<void>;
}

/** How a shared store's connections are doing, for /health. */
export interface StoreHealth {
  /** False from a failed attempt to reach the database until an operation reaches it again. */
  reachable: boolean;
  /** Connections lost (or not opened) by operations since the engine opened. */
  connectionLosses: number;
  /** Chat locks and send claims that went with their connection while their work ran. */
  locksLost: number;
}
