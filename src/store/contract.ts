/**
 * The store contract: the repositories services and jobs use, as one asynchronous interface with
 * two engines behind it. `lowdb-engine.ts` runs it over the embedded lowdb store (one process, one
 * data directory); `pg/engine.ts` runs it on PostgreSQL, shared by several bot instances.
 *
 * Everything here resolves once the change is durable (on disk, or committed). Secrets cross this
 * contract sealed only: credentials, conversation states and stored updates are vault tokens made
 * above it (see `sealCredential`, `sealConversation`, `sealUpdate`), so no engine ever sees a plain
 * key. Two rules the engines share beyond their single-process behaviour:
 * - a purchase confirmation id makes one set of transactions, however many callers race it;
 * - due outbox items and due transaction checks are *claimed* with a lease, so several workers
 *   never take the same one while its lease runs.
 */
import type { ServiceName } from '../domain.ts';
import type { BalanceEntry } from './records/balances.ts';
import type { BroadcastJob, BroadcastOutcome, BroadcastProgress, NewBroadcastJob } from './records/broadcasts.ts';
import type { CredentialRecord } from './records/credentials.ts';
import type { GameOrderRecord } from './records/game-orders.ts';
import type { LinkedGroup } from './records/groups.ts';
import type { NewOutboxItem, OutboxEntry, OutboxItem, OutboxPatch } from './records/outbox.ts';
import type { PriceSnapshot } from './records/price-watch.ts';
import type { ListOptions, NewTransaction, TransactionPatch, TransactionRecord } from './records/transactions.ts';
import type { SealedUpdate } from './records/updates.ts';
import type { NewUser, UserFilter, UserPatch, UserRecord } from './records/users.ts';

/** Which engine runs the contract. */
export type StoreEngineKind = 'lowdb' | 'postgres';

/** A claim's holder and how long it holds: a claimed row is not handed to anyone else until then. */
export interface Lease {
  /** Who claims (an instance id); only the same owner's claim is ended by its update/removal. */
  owner: string;
  /** Lease length (ms from the engine's clock). A holder that dies lets its rows go after it. */
  ms: number;
}

/** What a caller leaves out of a claim of due transactions. */
export interface DueFilter {
  /** Leaves this one out (a check of it runs already) and looks further. */
  skip?: (refId: string) => boolean;
  /** At most this many of the account's (0 skips the account and looks further). */
  room?: (userId: number) => number;
}

export interface TransactionUpdateOptions {
  /** Queued in the same commit as the change. */
  notify?: NewOutboxItem[];
  /**
   * Not on disk yet when the call resolves: the lowdb engine writes it with the next write (within `deferredWriteMs`), so a
   * wave of changes shares a few writes (PostgreSQL commits at once). Only for a change whose loss in a crash costs nothing
   * (a re-check that found the transaction still Pending is made again). Ignored with `notify`: queued messages are on disk first.
   */
  deferWrite?: boolean;
}

export interface ClaimOptions {
  /** At most this many rows. */
  limit: number;
  lease: Lease;
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

/**
 * Purchases, open and settled (the lowdb engine keeps settled ones in its history segments, the
 * PostgreSQL engine in the same table).
 */
export interface TransactionStore {
  /** Stores one new transaction; StoreError('duplicate') if its refId exists (open or settled). */
  create(tx: NewTransaction): Promise<TransactionRecord>;
  /**
   * Stores a confirmation's transactions all or none, committed before any provider call. With a
   * `confirmationId` that was used already (by any caller, any instance) it throws
   * StoreError('duplicate') and stores nothing: one confirmation, one set of transactions.
   */
  createMany(txs: readonly NewTransaction[], options?: { confirmationId?: string }): Promise<TransactionRecord[]>;
  /**
   * The ref ids a confirmation was turned into, if it was (kept 7 days), once that is durable: a
   * concurrent caller's write still in flight is waited for, and one that failed reads as none.
   */
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
  /**
   * Changes an open transaction (a final status is refused: use `settle`), `notify` in the same
   * commit; ends a claim on it. Undefined, nothing queued, if it is not open.
   */
  update(refId: string, patch: TransactionPatch, options?: TransactionUpdateOptions): Promise<TransactionRecord | undefined>;
  /**
   * Gives an open transaction its final status and queues `notify` in one commit; undefined,
   * nothing queued, if it is not open (so of two racing settlements exactly one notifies).
   */
  settle(refId: string, patch: TransactionPatch, options?: { notify?: NewOutboxItem[] }): Promise<TransactionRecord | undefined>;
  /**
   * Open transactions due for a check at `nowMs` (nextCheckAt, else createdAt). Order: lowdb by
   * account (earliest account first, each account's earliest first), PostgreSQL by due time.
   */
  due(nowMs: number, options?: { limit?: number }): Promise<TransactionRecord[]>;
  /**
   * Claims due open transactions not under another live lease, earliest due first (lowdb: by
   * account, as `due`). `skip` leaves one out and `room` caps one account's share (0 passes the
   * account over); both are asked in the caller's process, so they must answer at once.
   */
  claimDue(nowMs: number, options: ClaimOptions & DueFilter): Promise<TransactionRecord[]>;
  /**
   * Ends `owner`'s claim on a transaction whose check ended without writing it (a write ends the
   * claim itself): it is due again at its stored time, for any instance. Another owner's claim is
   * left as it is.
   */
  releaseClaim(refId: string, owner: string): Promise<void>;
  /** When the earliest open transaction is due (ms), undefined with none open. */
  nextDueAt(): Promise<number | undefined>;
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
  /**
   * Claims one pending item for `lease.owner` unless another owner's lease on it still runs;
   * undefined if it is gone or held elsewhere (the sender of a fleet takes each item this way).
   */
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
   * Stores the updates not held yet; resolves with the ids that were new, lowest first (the rest
   * were duplicates). With `lease`, the new ones are held by the caller, who handles them, until
   * they are done or the lease runs out (its holder died): only then may a replay claim them.
   */
  add(updates: readonly SealedUpdate[], options?: { lease?: Lease }): Promise<number[]>;
  /**
   * Marks the update done. With `owner` only while `owner` still holds it (fenced: a holder whose
   * claim moved to another instance marks nothing); resolves whether it was marked.
   */
  markDone(updateId: number, owner?: string): Promise<boolean>;
  /** Whether the update is stored, not done, and held by `owner` (its handler may run it now). */
  holds(updateId: number, owner: string): Promise<boolean>;
  /** Ids not done, lowest first. */
  pendingIds(): Promise<number[]>;
  /**
   * Whether an update of `chatId` with an id below `updateId` is stored and not done (handled by
   * someone now, waiting for a retry, or left by a dead instance): a later update of the chat
   * waits for it, so each chat's updates run in order across instances.
   */
  earlierOpen(chatId: number, updateId: number): Promise<boolean>;
  /**
   * Claims updates not done that nobody holds (added without a lease, or its lease ran out),
   * lowest id first, at most `limit`, counting one replay attempt each (committed before it
   * resolves). One already replayed `maxAttempts` times is marked done instead and only its id
   * returned in `givenUp`: a start that crashes on the same update again and again gives it up.
   */
  claimForReplay(options: ClaimOptions & { maxAttempts: number }): Promise<{ updates: SealedUpdate[]; givenUp: number[] }>;
  /**
   * Forgets done updates received more than `maxAgeMs` ago, and all but the newest `maxCount` done
   * ones (Telegram does not deliver those again); resolves once that is durable. Pending ones stay.
   */
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
  /**
   * Ends the job (an ended one keeps its end). With `report`, the admin's final report is queued
   * in the same write (one SQL transaction), unless the job's report was queued already: a crash
   * can neither lose it nor, by a retry, queue it twice.
   */
  finish(id: string, status: 'done' | 'cancelled', report?: readonly NewOutboxItem[]): Promise<BroadcastJob | undefined>;
  /** An ended job whose final report is still to be queued (cancelled, and the runner stopped before it ended the job), if any. */
  unreported(): Promise<BroadcastProgress | undefined>;
}

/** The last price list of each watched reseller account. */
export interface PriceWatchStore {
  get(accountKey: string): Promise<PriceSnapshot | undefined>;
  save(accountKey: string, snapshot: PriceSnapshot): Promise<void>;
  /** Forgets the accounts not in `accountKeys`. */
  retain(accountKeys: ReadonlySet<string>): Promise<void>;
}

/**
 * Updates of one chat handled one at a time, across every instance that shares the store: a
 * flow's next answer never races the step before it, whichever instance each update reached.
 */
export interface ChatLockStore {
  /**
   * Runs `work` holding the chat's lock (waiting for it first). The lock goes when `work` settles,
   * or when its holder dies (PostgreSQL: with the holder's connection). Chats do not wait for each other.
   * `held` is aborted (with StoreError('lock-lost')) if the lock goes while `work` still runs — on
   * PostgreSQL when the connection holding it is lost — so work that lasts stops acting as the holder.
   */
  run<T>(chatId: number, work: (held: AbortSignal) => Promise<T>): Promise<T>;
}

/** What the holder of a send claim learns when it gets it. */
export interface SendClaim {
  /**
   * True when another sender held the ref first and this caller waited for it to finish. The
   * waiter should take that sender's answer from the store rather than ask the provider again.
   */
  waited: boolean;
  /**
   * Aborted (with StoreError('lock-lost')) if the claim goes while the task still runs — on
   * PostgreSQL with the connection holding it — so the task stops acting as the ref's sender.
   */
  held: AbortSignal;
}

/**
 * One sender per ref at a time (DESIGN invariant 8): who may talk to the provider about one ref id
 * right now, across every instance sharing the store.
 */
export interface SendClaimStore {
  /**
   * Runs `task` as the only holder of `refId`'s claim: a caller that finds it taken (in this
   * instance or another) waits until it is free, is told so through `waited`, then runs. Claims of
   * different refs never wait for each other. The claim goes when `task` settles, or with its
   * holder (PostgreSQL: with the holder's connection, signalled through `held`).
   */
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

/**
 * Send slots shared by every instance: each message the bot sends on its own is given an instant,
 * so that the fleet together keeps Telegram's limits, not each instance alone.
 */
export interface SendSlotStore {
  /**
   * Reserves and resolves the earliest instant (ms, engine clock) at or after `atMs` at which one
   * message to `chatId` keeps `limits` together with every reservation before it: the overall
   * rate cut into slots of 1000 / perSecond ms, one message each (so any second holds at most
   * perSecond), `perChatMs` after the chat's previous message, and for a group 60 s /
   * perGroupPerMinute after its previous one (so any minute holds at most perGroupPerMinute).
   */
  reserve(chatId: number, atMs: number, limits: FleetLimits): Promise<number>;
}

/** The whole contract: one engine's repositories, and its end. */
export interface StoreEngine {
  readonly kind: StoreEngineKind;
  users: UserStore;
  credentials: CredentialStore;
  transactions: TransactionStore;
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
  /**
   * Extends every claim `lease.owner` holds (stored updates, due checks, outbox items) to
   * `lease.ms` from now: a live holder renews its claims, so only a dead one's run out.
   */
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
