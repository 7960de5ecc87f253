import { copy, type RepoContext } from './context.ts';
import { DueIndex } from './due-index.ts';
import type { HistoryArchive } from './history.ts';
import { monthOf } from './history-lines.ts';
import { insertOutboxItem } from './outbox.ts';
import { buildOutboxItem, type NewOutboxItem } from './records/outbox.ts';
import type { HotData } from './schema.ts';
import {
  isFinalStatus,
  newTransactionRecord,
  settledTransaction,
  updatedTransaction,
  confirmationTtlMs,
  confirmationUsed,
  duplicateTransaction,
  type ListOptions,
  type NewTransaction,
  type TransactionPatch,
  type TransactionRecord,
} from './records/transactions.ts';
import type { TransactionUpdateOptions } from './contract.ts';
import { noop } from './atomic-file.ts';

/** The longest a deferred change (`update(…, { deferWrite: true })`) waits for its write. */
export const deferredWriteMs = 1000;

export interface DueOptions {
  /** At most this many in all. Default: no limit. */
  limit?: number;
  /** At most this many of the account's (0 skips the account and looks further). Default: no limit. */
  room?: (userId: number) => number;
  /** Leaves this one out (e.g. a check of it is running already) and looks further. */
  skip?: (refId: string) => boolean;
}

/**
 * Purchases. Open ones (not Sukses/Gagal/Unresolved) live in the hot file; `settle` moves a
 * transaction to its month's history file. A transaction is stored under the bot-minted ref_id
 * before the provider is called, so a crash leaves a record to reconcile.
 */
export interface TransactionsRepo {
  /**
   * Stores a new transaction; resolves once it is on disk. Throws StoreError('duplicate') if the
   * refId exists already (open or settled): one confirmation never makes two records.
   */
  create(tx: NewTransaction): Promise<TransactionRecord>;
  /** Stores several new transactions (one confirmation) in one atomic write: all or none. */
  createMany(txs: readonly NewTransaction[], options?: { confirmationId?: string }): Promise<TransactionRecord[]>;
  /**
   * The ref ids a purchase confirmation was turned into, if it was. `createMany` with a
   * `confirmationId` records them in the same write as the transactions, so a double tap or a
   * replayed update finds them and creates nothing new. Entries are kept for 7 days.
   */
  confirmation(confirmationId: string): string[] | undefined;
  /** An open transaction (or one being moved to history right now). */
  get(refId: string): TransactionRecord | undefined;
  /**
   * Changes an open transaction; resolves undefined (nothing written, nothing queued) if it is not
   * open. A final status is refused: use `settle`. `notify` is queued in the same write as the
   * change (an operator request to review it, say), so it is queued exactly once.
   */
  update(refId: string, patch: TransactionPatch, options?: TransactionUpdateOptions): Promise<TransactionRecord | undefined>;
  /** Open transactions, oldest first. */
  listOpen(): TransactionRecord[];
  /**
   * Open transactions whose next check is due at `nowMs` (their nextCheckAt, or createdAt without
   * one), from a due-time index kept on every change: accounts in order of their earliest due
   * transaction, from each its earliest due ones first. Costs what is due, never a pass over every
   * open transaction; with nothing due, one comparison.
   */
  due(nowMs: number, options?: DueOptions): TransactionRecord[];
  /** When the earliest open transaction is due (ms since the epoch), or undefined with none open. */
  nextDueAt(): number | undefined;
  /**
   * Every transaction (any user) created at or after `since`, open and settled, newest first.
   * Reads only the history months from `since`'s month on (for the operator's /stats).
   */
  listCreatedSince(since: Date): Promise<TransactionRecord[]>;
  /**
   * Every transaction, open and settled, a batch at a time: the open ones, then each history month
   * (newest first, the latest copy of each). Holds one month in memory, not the whole history
   * (`npm run migrate-store` copies a store this way).
   */
  batches(): AsyncGenerator<TransactionRecord[]>;
  /** Ids of the users with a purchase created at or after `since` that did not fail (Gagal). */
  buyersSince(since: Date): Promise<Set<number>>;
  /**
   * A user's transactions created in [from, to), open and settled, oldest first (for /export).
   * Reads only the history months (UTC) the range touches.
   */
  listByUserBetween(userId: number, from: Date, to: Date): Promise<TransactionRecord[]>;
  /** A user's transactions, open and settled, newest first. Reads only as many history months as needed. */
  listByUser(userId: number, options?: ListOptions): Promise<TransactionRecord[]>;
  /** Any transaction by refId, open or settled (for internal use; user-facing code uses findForUser). */
  find(refId: string): Promise<TransactionRecord | undefined>;
  /**
   * The user's transaction with this provider trx id (the "Trx ID" of the receipt; case does not
   * matter), open or settled; undefined if none, or if it is someone else's.
   */
  findByTrxId(userId: number, trxId: string): Promise<TransactionRecord | undefined>;
  /** The user's transactions to exactly this target, open and settled, newest first (default limit 10). */
  listByTarget(userId: number, target: string, options?: ListOptions): Promise<TransactionRecord[]>;
  /** The transaction if it exists and belongs to `userId` (open or settled); otherwise undefined. */
  findForUser(userId: number, refId: string): Promise<TransactionRecord | undefined>;
  /**
   * Settles an open transaction: applies `patch` (which must leave a final status), sets
   * settledAt, queues `notify` in the same write (and marks it notified), then moves it to
   * history. Resolves with the settled record, or undefined if it is not open (already settled,
   * or unknown) - then nothing changes and nothing is queued, so a settlement happens once.
   */
  settle(refId: string, patch: TransactionPatch, options?: { notify?: NewOutboxItem[] }): Promise<TransactionRecord | undefined>;
  /**
   * Moves transactions that are final in the hot file to history (finishing a settlement that a
   * crash or a failed history write interrupted). Runs on open; resolves with how many moved.
   */
  archiveSettled(): Promise<number>;
}

/**
 * The due-time index over the open transactions of the hot data's record map, built from the
 * records at first use and rebuilt whenever the hot data is not the one it was built on (a failed
 * write puts back what is on disk as new objects).
 */
class HotDueIndex {
  private index = new DueIndex();
  private indexed: HotData['transactions'] | undefined;

  constructor(private readonly hot: RepoContext['hot']) {}

  /** When `tx` is next due, or undefined if it is final (or its time unreadable). */
  private static dueAt(tx: TransactionRecord): number | undefined {
    const at = Date.parse(tx.nextCheckAt ?? tx.createdAt);
    return isFinalStatus(tx.status) || Number.isNaN(at) ? undefined : at;
  }

  /** The index over the current hot data. */
  current(): DueIndex {
    const records = this.hot.data.transactions;
    if (this.indexed !== records) {
      this.index = new DueIndex();
      for (const tx of Object.values(records)) this.index.set(tx.refId, tx.userId, HotDueIndex.dueAt(tx));
      this.indexed = records;
    }
    return this.index;
  }

  /** Stores `tx` in `data` and keeps the index in step (inside a hot-file mutator). */
  put(data: HotData, tx: TransactionRecord): TransactionRecord {
    data.transactions[tx.refId] = tx;
    if (this.indexed === data.transactions) this.index.set(tx.refId, tx.userId, HotDueIndex.dueAt(tx));
    return tx;
  }
}

const time = (tx: TransactionRecord) => Date.parse(tx.createdAt);
const newestFirst = (a: TransactionRecord, b: TransactionRecord) =>
  time(b) - time(a) || (a.refId < b.refId ? 1 : a.refId > b.refId ? -1 : 0);

/** The transactions repository over the hot file and the history archive. */
class LowdbTransactionsRepo implements TransactionsRepo {
  /** The history checks of creates, settled in call order. */
  private createOrder: Promise<void> = Promise.resolve();
  /** Settlements in progress (between the final status and the removal from the hot file). */
  private readonly moving = new Set<string>();
  private readonly dueIndex: HotDueIndex;
  private readonly hot: RepoContext['hot'];
  private readonly now: () => Date;

  constructor(
    { hot, now }: RepoContext,
    private readonly history: HistoryArchive,
  ) {
    this.hot = hot;
    this.now = now;
    this.dueIndex = new HotDueIndex(hot);
  }

  /** Looks in the hot file, then in history (through its ref index). */
  private async lookUp(refId: string): Promise<TransactionRecord | undefined> {
    return this.hot.data.transactions[refId] ?? (await this.history.get(refId));
  }

  /** The user's open transactions that `matches`, with `settled` (history's, where the hot copy wins), newest first. */
  private withOpen(userId: number, matches: (tx: TransactionRecord) => boolean, settled: readonly TransactionRecord[]) {
    const found = new Map<string, TransactionRecord>();
    for (const tx of Object.values(this.hot.data.transactions)) if (tx.userId === userId && matches(tx)) found.set(tx.refId, tx);
    for (const tx of settled) if (!found.has(tx.refId) && !this.hot.data.transactions[tx.refId]) found.set(tx.refId, tx);
    return [...found.values()].sort(newestFirst);
  }

  /**
   * The user's transactions created in [start, end), open and settled: the settled ones from the
   * user index (which knows each one's createdAt), reading only those in the range.
   */
  private async userBetween(userId: number, start: number, end: number): Promise<TransactionRecord[]> {
    const inRange = (at: number) => at >= start && at < end;
    const entries = end > start ? (await this.history.userEntries(userId)).filter((entry) => inRange(entry.createdMs)) : [];
    const settled = await this.history.getMany(entries.filter((entry) => !this.hot.data.transactions[entry.refId]));
    return this.withOpen(userId, (tx) => inRange(time(tx)), settled).filter((tx) => inRange(time(tx)));
  }

  /** Writes the records to their months' history segments, then removes those still final from the hot file. */
  private async archive(records: TransactionRecord[]) {
    await this.history.append(records);
    await this.hot.update((data) => {
      // Listed once the segment has its line: a listed month whose segment is gone is a loss.
      const months = new Set(data.meta.historyMonths);
      for (const tx of records) months.add(monthOf(tx.createdAt));
      if (months.size !== data.meta.historyMonths?.length) data.meta.historyMonths = [...months].sort();
      for (const tx of records) {
        const current = data.transactions[tx.refId];
        if (current && isFinalStatus(current.status)) delete data.transactions[tx.refId];
      }
    });
  }

  /** Validates every input, refuses any duplicate refId, then stores all of them in one write. */
  private async createAll(inputs: readonly NewTransaction[], confirmationId?: string): Promise<TransactionRecord[]> {
    const records = inputs.map((input) => newTransactionRecord(input, this.now()));
    const seen = new Set<string>();
    for (const record of records) {
      if (seen.has(record.refId) || this.hot.data.transactions[record.refId]) throw duplicateTransaction(record.refId);
      seen.add(record.refId);
    }
    // Looked up at once, but taken in call order: of two creates of one refId, the first one wins.
    const lookup = Promise.all(records.map((record) => this.history.get(record.refId)));
    const turn = this.createOrder.then(() => lookup);
    this.createOrder = turn.then(
      () => undefined,
      () => undefined,
    );
    const settled = await turn;
    const inHistory = records.find((_, i) => settled[i]);
    if (inHistory) throw duplicateTransaction(inHistory.refId);
    await this.hot.update((data) => {
      // Checked again here: another create may have run while history was read.
      const taken = records.find((record) => data.transactions[record.refId]);
      if (taken) throw duplicateTransaction(taken.refId);
      if (confirmationId !== undefined) this.recordConfirmation(data, confirmationId, records);
      for (const record of records) this.dueIndex.put(data, record);
    });
    return records.map(copy);
  }

  /** Records which ref ids `confirmationId` became (inside a hot-file mutator), forgetting expired entries. */
  private recordConfirmation(data: HotData, confirmationId: string, records: readonly TransactionRecord[]) {
    if (data.confirmations[confirmationId]) throw confirmationUsed(confirmationId);
    const at = this.now();
    for (const [id, entry] of Object.entries(data.confirmations)) {
      if (at.getTime() - Date.parse(entry.at) > confirmationTtlMs) delete data.confirmations[id];
    }
    data.confirmations[confirmationId] = { refIds: records.map((record) => record.refId), at: at.toISOString() };
  }

  /** Whether `refId` is open and not being settled right now (so it may still change). */
  private changeable(refId: string): TransactionRecord | undefined {
    const existing = this.hot.data.transactions[refId];
    return !existing || this.moving.has(refId) || isFinalStatus(existing.status) ? undefined : existing;
  }

  async create(input: NewTransaction): Promise<TransactionRecord> {
    const [record] = await this.createAll([input]);
    if (!record) throw new Error('unreachable: createAll returned nothing');
    return record;
  }

  createMany(inputs: readonly NewTransaction[], options?: { confirmationId?: string }): Promise<TransactionRecord[]> {
    return this.createAll(inputs, options?.confirmationId);
  }

  confirmation(confirmationId: string): string[] | undefined {
    const entry = this.hot.data.confirmations[confirmationId];
    return entry ? [...entry.refIds] : undefined;
  }

  get(refId: string): TransactionRecord | undefined {
    const tx = this.hot.data.transactions[refId];
    return tx ? copy(tx) : undefined;
  }

  async update(refId: string, patch: TransactionPatch, options: TransactionUpdateOptions = {}): Promise<TransactionRecord | undefined> {
    const existing = this.changeable(refId);
    if (!existing) return undefined;
    const at = this.now();
    const next = updatedTransaction(existing, patch, at);
    const items = (options.notify ?? []).map((item) => buildOutboxItem(item, at));
    if (options.deferWrite && items.length === 0) {
      const { result, written } = this.hot.updateDeferred((data) => this.dueIndex.put(data, next), deferredWriteMs);
      // Nobody waits for it: a failed write undoes the change in memory and the check comes again.
      written.catch(noop);
      return copy(result);
    }
    return copy(
      await this.hot.update((data) => {
        for (const item of items) insertOutboxItem(data, item);
        return this.dueIndex.put(data, next);
      }),
    );
  }

  listOpen(): TransactionRecord[] {
    return Object.values(this.hot.data.transactions)
      .filter((tx) => !isFinalStatus(tx.status))
      .sort((a, b) => newestFirst(b, a))
      .map(copy);
  }

  due(nowMs: number, options: DueOptions = {}): TransactionRecord[] {
    const limit = options.limit ?? Infinity;
    const found: TransactionRecord[] = [];
    for (const account of this.dueIndex.current().accountsDue(nowMs)) {
      if (found.length >= limit) break;
      let room = options.room?.(account.userId) ?? Infinity;
      if (room <= 0) continue;
      for (const refId of account.refIds()) {
        const tx = this.hot.data.transactions[refId];
        if (!tx || options.skip?.(refId)) continue;
        found.push(copy(tx));
        if (--room <= 0 || found.length >= limit) break;
      }
    }
    return found;
  }

  nextDueAt(): number | undefined {
    return this.dueIndex.current().nextDueAt();
  }

  async listCreatedSince(since: Date): Promise<TransactionRecord[]> {
    const from = since.getTime();
    const found = new Map<string, TransactionRecord>();
    for (const tx of Object.values(this.hot.data.transactions)) if (time(tx) >= from) found.set(tx.refId, tx);
    const first = monthOf(since.toISOString());
    for (const month of this.history.months()) {
      if (month < first) break;
      for (const tx of await this.history.scan(month, (candidate) => time(candidate) >= from))
        if (!found.has(tx.refId)) found.set(tx.refId, tx);
    }
    return [...found.values()].sort(newestFirst).map(copy);
  }

  async *batches(): AsyncGenerator<TransactionRecord[]> {
    const open = Object.values(this.hot.data.transactions).map(copy);
    yield open;
    const openIds = new Set(open.map((tx) => tx.refId));
    for (const month of this.history.months()) yield await this.history.scan(month, (tx) => !openIds.has(tx.refId));
  }

  async buyersSince(since: Date): Promise<Set<number>> {
    const recent = await this.listCreatedSince(since);
    return new Set(recent.filter((tx) => tx.status !== 'Gagal').map((tx) => tx.userId));
  }

  async listByUserBetween(userId: number, from: Date, to: Date): Promise<TransactionRecord[]> {
    const txs = await this.userBetween(userId, from.getTime(), to.getTime());
    return txs.reverse().map(copy);
  }

  async listByUser(userId: number, options: ListOptions = {}): Promise<TransactionRecord[]> {
    const limit = Math.max(0, options.limit ?? 10);
    const offset = Math.max(0, options.offset ?? 0);
    const open = Object.values(this.hot.data.transactions).filter((tx) => tx.userId === userId);
    // The page from the user index (createdAt and refId sort it), then only its settled records are read.
    const candidates = [
      ...open.map((tx) => ({ refId: tx.refId, createdMs: time(tx) })),
      ...(await this.history.userEntries(userId)).filter((entry) => !this.hot.data.transactions[entry.refId]),
    ].sort((a, b) => b.createdMs - a.createdMs || (a.refId < b.refId ? 1 : a.refId > b.refId ? -1 : 0));
    const page = candidates.slice(offset, offset + limit);
    const settled = await this.history.getMany(page.filter((entry) => !this.hot.data.transactions[entry.refId]));
    const wanted = new Set(page.map((entry) => entry.refId));
    return this.withOpen(userId, (tx) => wanted.has(tx.refId), settled)
      .filter((tx) => wanted.has(tx.refId))
      .map(copy);
  }

  find(refId: string): Promise<TransactionRecord | undefined> {
    return this.lookUp(refId).then((tx) => (tx ? copy(tx) : undefined));
  }

  async findByTrxId(userId: number, trxId: string): Promise<TransactionRecord | undefined> {
    const wanted = trxId.toUpperCase();
    const matches = (tx: TransactionRecord) => tx.userId === userId && tx.trxId !== undefined && tx.trxId.toUpperCase() === wanted;
    const [tx] = this.withOpen(userId, matches, (await this.history.byTrxId(trxId)).filter(matches));
    return tx ? copy(tx) : undefined;
  }

  async listByTarget(userId: number, target: string, options: ListOptions = {}): Promise<TransactionRecord[]> {
    const offset = Math.max(0, options.offset ?? 0);
    const limit = Math.max(0, options.limit ?? 10);
    // Enough settled ones for the page even if some of them are still in the hot file too.
    const open = Object.values(this.hot.data.transactions).filter((tx) => tx.userId === userId).length;
    const settled = await this.history.byTarget(userId, target, offset + limit + open);
    const txs = this.withOpen(userId, (tx) => tx.target === target, settled);
    return txs.slice(offset, offset + limit).map(copy);
  }

  async findForUser(userId: number, refId: string): Promise<TransactionRecord | undefined> {
    const tx = await this.lookUp(refId);
    return tx && tx.userId === userId ? copy(tx) : undefined;
  }

  async settle(refId: string, patch: TransactionPatch, options: { notify?: NewOutboxItem[] } = {}): Promise<TransactionRecord | undefined> {
    const existing = this.changeable(refId);
    if (!existing) return undefined;
    const at = this.now();
    const notify = options.notify ?? [];
    const next = settledTransaction(existing, patch, at, notify.length > 0);
    const items = notify.map((item) => buildOutboxItem(item, at));
    this.moving.add(refId);
    try {
      // 1. Final status and notifications in one hot write: from here on the settlement is durable.
      await this.hot.update((data) => {
        this.dueIndex.put(data, next);
        for (const item of items) insertOutboxItem(data, item);
      });
      // 2. History, then 3. removal from the hot file. A crash in between leaves a final
      // transaction in the hot file, which archiveSettled moves on the next start.
      await this.archive([next]);
    } finally {
      this.moving.delete(refId);
    }
    return copy(next);
  }

  async archiveSettled(): Promise<number> {
    const settled = Object.values(this.hot.data.transactions).filter((tx) => isFinalStatus(tx.status) && !this.moving.has(tx.refId));
    if (settled.length === 0) return 0;
    await this.archive(settled);
    return settled.length;
  }
}

/** The transactions repository of the lowdb store: open ones in the hot file, settled ones in `history`. */
export function createTransactionsRepo(context: RepoContext, history: HistoryArchive): TransactionsRepo {
  return new LowdbTransactionsRepo(context, history);
}
