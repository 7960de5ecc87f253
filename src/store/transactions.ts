import { copy, type RepoContext } from './context.ts';
import { DueIndex } from './due-index.ts';
import type { HistoryArchive } from './history.ts';
import { monthOf } from './history-lines.ts';
import { insertOutboxItem } from './outbox.ts';
import { buildOutboxItem } from './records/outbox.ts';
import type { HotData } from './schema.ts';
import {
  accountOf,
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
import type { DueFilter, TransactionCreateOptions, TransactionSettleOptions, TransactionUpdateOptions } from './contract.ts';
import type { LedgerRepo } from './ledger.ts';
import { noop } from './atomic-file.ts';

/** The longest a deferred change (`update(…, { deferWrite: true })`) waits for its write. */
export const deferredWriteMs = 1000;

export type DueOptions = DueFilter & { limit?: number };

/** The due-time index of the hot file's open transactions, rebuilt when the record map is a new one (a failed write puts back what is on disk). */
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
      for (const tx of Object.values(records)) this.index.set(tx.refId, accountOf(tx), HotDueIndex.dueAt(tx));
      this.indexed = records;
    }
    return this.index;
  }

  /** Stores `tx` in `data` and keeps the index in step (inside a hot-file mutator). */
  put(data: HotData, tx: TransactionRecord): TransactionRecord {
    data.transactions[tx.refId] = tx;
    if (this.indexed === data.transactions) this.index.set(tx.refId, accountOf(tx), HotDueIndex.dueAt(tx));
    return tx;
  }
}

const time = (tx: TransactionRecord) => Date.parse(tx.createdAt);
const newestFirst = (a: TransactionRecord, b: TransactionRecord) =>
  time(b) - time(a) || (a.refId < b.refId ? 1 : a.refId > b.refId ? -1 : 0);

/**
 * Purchases of the lowdb store (the contract's TransactionStore): open ones in the hot file,
 * settled ones moved by `settle` to their month's history segment.
 */
export class TransactionsRepo {
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
    private readonly ledger: LedgerRepo,
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

  /** The user's transactions created in [start, end): settled ones picked by the user index (which knows createdAt), only those read. */
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

  /** StoreError('duplicate') if the refId exists already (open or settled). */
  async create(input: NewTransaction, options: Pick<TransactionCreateOptions, 'ledger'> = {}): Promise<TransactionRecord> {
    const [record] = await this.createMany([input], options);
    if (!record) throw new Error('unreachable: createMany returned nothing');
    return record;
  }

  /** One confirmation's transactions in one write with their `ledger` entries, all or none; its `confirmationId` recorded with them (kept 7 days). */
  async createMany(inputs: readonly NewTransaction[], options: TransactionCreateOptions = {}): Promise<TransactionRecord[]> {
    const { confirmationId } = options;
    const records = inputs.map((input) => newTransactionRecord(input, this.now()));
    const seen = new Set<string>();
    for (const record of records) {
      if (seen.has(record.refId) || this.hot.data.transactions[record.refId]) throw duplicateTransaction(record.refId);
      seen.add(record.refId);
    }
    // Looked up at once, but taken in call order: of two creates of one refId, the first one wins.
    const lookup = Promise.all(records.map((record) => this.history.get(record.refId)));
    const turn = this.createOrder.then(() => lookup);
    this.createOrder = turn.then(noop, noop);
    const settled = await turn;
    const inHistory = records.find((_, i) => settled[i]);
    if (inHistory) throw duplicateTransaction(inHistory.refId);
    const appends = await this.hot.update((data) => {
      // Checked again here: another create may have run while history was read.
      const taken = records.find((record) => data.transactions[record.refId]);
      if (taken) throw duplicateTransaction(taken.refId);
      if (confirmationId !== undefined && data.confirmations[confirmationId]) throw confirmationUsed(confirmationId);
      // Last of the checks (a refusal throws before anything changed), first of the changes.
      const held = this.ledger.appendIn(data, options.ledger ?? [], this.now());
      if (confirmationId !== undefined) this.recordConfirmation(data, confirmationId, records);
      for (const record of records) this.dueIndex.put(data, record);
      return held;
    });
    this.ledger.carried(appends);
    return records.map(copy);
  }

  confirmation(confirmationId: string): string[] | undefined {
    const entry = this.hot.data.confirmations[confirmationId];
    return entry ? [...entry.refIds] : undefined;
  }

  /** An open transaction (or one being moved to history right now). */
  get(refId: string): TransactionRecord | undefined {
    const tx = this.hot.data.transactions[refId];
    return tx ? copy(tx) : undefined;
  }

  /** Changes an open transaction, `notify` queued in the same write; undefined if not open. A final status is refused: use `settle`. */
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

  /**
   * Open transactions due at `nowMs` (nextCheckAt, else createdAt): accounts in order of their
   * earliest due one, each account's earliest first. Costs what is due, never a pass over all.
   */
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

  /** Every transaction created at or after `since`, newest first; reads only the history months from `since`'s on. */
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

  /** Every transaction a batch at a time: the open ones, then each history month (`npm run migrate-store` holds one month, not all). */
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

  /** The user's transaction with this provider trx id (any case), open or settled. */
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

  /**
   * Gives an open transaction its final status with `notify` queued in one write, then moves it to
   * history; undefined (nothing queued) if it is not open, so a settlement happens once.
   */
  async settle(refId: string, patch: TransactionPatch, options: TransactionSettleOptions = {}): Promise<TransactionRecord | undefined> {
    const existing = this.changeable(refId);
    if (!existing) return undefined;
    const at = this.now();
    const notify = options.notify ?? [];
    const next = settledTransaction(existing, patch, at, notify.length > 0);
    const items = notify.map((item) => buildOutboxItem(item, at));
    this.moving.add(refId);
    try {
      // 1. Final status, notifications and wallet entries in one hot write: from here on the settlement is durable.
      const appends = await this.hot.update((data) => {
        const entries = this.ledger.appendIn(data, options.ledger ?? [], at);
        this.dueIndex.put(data, next);
        for (const item of items) insertOutboxItem(data, item);
        return entries;
      });
      this.ledger.carried(appends);
      // 2. History, then 3. removal from the hot file. A crash in between leaves a final
      // transaction in the hot file, which archiveSettled moves on the next start.
      await this.archive([next]);
    } finally {
      this.moving.delete(refId);
    }
    return copy(next);
  }

  /** Moves what is final in the hot file to history (a settlement a crash or a failed history write cut short); how many. */
  async archiveSettled(): Promise<number> {
    const settled = Object.values(this.hot.data.transactions).filter((tx) => isFinalStatus(tx.status) && !this.moving.has(tx.refId));
    if (settled.length === 0) return 0;
    await this.archive(settled);
    return settled.length;
  }
}

export function createTransactionsRepo(context: RepoContext, history: HistoryArchive, ledger: LedgerRepo): TransactionsRepo {
  return new TransactionsRepo(context, history, ledger);
}
