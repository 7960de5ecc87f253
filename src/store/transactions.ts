import { decodeTime, isValid as isUlid } from 'ulid';
import { copy, validated, withPatch, type RepoContext } from './context.ts';
import { DueIndex } from './due-index.ts';
import { StoreError } from './errors.ts';
import { monthOf, type HistoryArchive } from './history.ts';
import { buildOutboxItem, insertOutboxItem, type NewOutboxItem } from './outbox.ts';
import { finalStatuses, isFinalStatus, transactionSchema, type HotData, type TransactionRecord } from './schema.ts';

/** A purchase to record before its first provider request. Status defaults to `Created`, checks to 0. */
export type NewTransaction = Omit<TransactionRecord, 'createdAt' | 'updatedAt' | 'checks' | 'status'> &
  Partial<Pick<TransactionRecord, 'createdAt' | 'status' | 'checks'>>;

/** Changeable fields of a transaction; a field set to `undefined` is removed. */
export type TransactionPatch = Partial<Omit<TransactionRecord, 'refId' | 'userId' | 'createdAt'>>;

export interface ListOptions {
  /** Default 10. Ask for one more than a page to know whether a next page exists. */
  limit?: number;
  offset?: number;
}

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
  update(refId: string, patch: TransactionPatch, options?: { notify?: NewOutboxItem[] }): Promise<TransactionRecord | undefined>;
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

const confirmationTtlMs = 7 * 24 * 3600_000;

export function createTransactionsRepo({ hot, now }: RepoContext, history: HistoryArchive): TransactionsRepo {
  /** Settlements in progress (between the final status and the removal from the hot file). */
  const moving = new Set<string>();
  const time = (tx: TransactionRecord) => Date.parse(tx.createdAt);
  const newestFirst = (a: TransactionRecord, b: TransactionRecord) =>
    time(b) - time(a) || (a.refId < b.refId ? 1 : a.refId > b.refId ? -1 : 0);

  /** The due-time index over the open transactions of `indexed` (the hot data's record map). */
  let index = new DueIndex();
  let indexed: HotData['transactions'] | undefined;
  const dueAt = (tx: TransactionRecord): number | undefined => {
    const at = Date.parse(tx.nextCheckAt ?? tx.createdAt);
    return isFinalStatus(tx.status) || Number.isNaN(at) ? undefined : at;
  };
  /**
   * The index, built from the records at first use and rebuilt whenever the hot data is not the
   * one it was built on (a failed write puts back what is on disk as new objects).
   */
  const dueIndex = (): DueIndex => {
    const records = hot.data.transactions;
    if (indexed !== records) {
      index = new DueIndex();
      for (const tx of Object.values(records)) index.set(tx.refId, tx.userId, dueAt(tx));
      indexed = records;
    }
    return index;
  };
  /** Stores `tx` in `data` and keeps the index in step (inside a hot-file mutator). */
  const put = (data: HotData, tx: TransactionRecord): TransactionRecord => {
    data.transactions[tx.refId] = tx;
    if (indexed === data.transactions) index.set(tx.refId, tx.userId, dueAt(tx));
    return tx;
  };

  /** History months that may hold `refId`: its createdAt month and its ULID time's month (and neighbours). */
  const likelyMonths = (refId: string, createdAt?: string): string[] => {
    const months = new Set<string>();
    if (createdAt) months.add(monthOf(createdAt));
    if (isUlid(refId)) {
      const t = decodeTime(refId);
      for (const shift of [0, -1, 1]) {
        const d = new Date(t);
        d.setUTCDate(1);
        d.setUTCMonth(d.getUTCMonth() + shift);
        months.add(d.toISOString().slice(0, 7));
      }
    }
    const known = new Set(history.months());
    return [...months].filter((m) => known.has(m));
  };

  const findInHistory = async (refId: string, months: string[]): Promise<TransactionRecord | undefined> => {
    for (const month of months) {
      const tx = (await history.read(month))?.transactions[refId];
      if (tx) return tx;
    }
    return undefined;
  };

  /** Looks in the hot file, then in the months the refId most likely belongs to, then in the rest. */
  const find = async (refId: string): Promise<TransactionRecord | undefined> =>
    hot.data.transactions[refId] ?? (await findInHistory(refId, [...new Set([...likelyMonths(refId), ...history.months()])]));

  /**
   * Every transaction of `userId` that `matches`, open and settled, newest first. Reads every
   * history month: a trx id or a target says nothing about when the purchase was made.
   */
  const matchingForUser = async (userId: number, matches: (tx: TransactionRecord) => boolean): Promise<TransactionRecord[]> => {
    const found = new Map<string, TransactionRecord>();
    const consider = (tx: TransactionRecord) => {
      if (tx.userId === userId && matches(tx) && !found.has(tx.refId)) found.set(tx.refId, tx);
    };
    Object.values(hot.data.transactions).forEach(consider);
    for (const month of history.months()) Object.values((await history.read(month))?.transactions ?? {}).forEach(consider);
    return [...found.values()].sort(newestFirst);
  };

  /** Writes each record into its month's file, then removes those still final from the hot file. */
  const archive = async (records: TransactionRecord[]) => {
    const byMonth = new Map<string, TransactionRecord[]>();
    for (const tx of records) byMonth.set(monthOf(tx.createdAt), [...(byMonth.get(monthOf(tx.createdAt)) ?? []), tx]);
    for (const [month, txs] of byMonth) {
      const file = await history.file(month);
      await file.update((data) => {
        for (const tx of txs) data.transactions[tx.refId] = tx;
      });
    }
    await hot.update((data) => {
      for (const tx of records) {
        const current = data.transactions[tx.refId];
        if (current && isFinalStatus(current.status)) delete data.transactions[tx.refId];
      }
    });
  };

  const stripKeys = (patch: TransactionPatch): TransactionPatch => {
    const { refId: _r, userId: _u, createdAt: _c, ...changes } = patch as TransactionPatch & Partial<TransactionRecord>;
    return changes;
  };

  /** Validates every input, refuses any duplicate refId, then stores all of them in one write. */
  const createAll = async (inputs: readonly NewTransaction[], confirmationId?: string): Promise<TransactionRecord[]> => {
    const records = inputs.map((input) => {
      const createdAt = input.createdAt ?? now().toISOString();
      const record = validated(
        transactionSchema,
        withPatch(withPatch({}, input), { status: input.status ?? 'Created', checks: input.checks ?? 0, createdAt, updatedAt: createdAt }),
        'transaction',
      );
      if (isFinalStatus(record.status)) throw new StoreError('invalid', `A new transaction cannot start as ${record.status}.`);
      return record;
    });
    const duplicate = (refId: string) =>
      new StoreError('duplicate', `Transaction ${refId} exists already; a confirmation never creates a second transaction.`);
    const seen = new Set<string>();
    for (const record of records) {
      if (seen.has(record.refId) || hot.data.transactions[record.refId]) throw duplicate(record.refId);
      seen.add(record.refId);
    }
    for (const record of records) {
      if (await findInHistory(record.refId, likelyMonths(record.refId, record.createdAt))) throw duplicate(record.refId);
    }
    await hot.update((data) => {
      // Checked again here: another create may have run while history was read.
      const taken = records.find((record) => data.transactions[record.refId]);
      if (taken) throw duplicate(taken.refId);
      if (confirmationId !== undefined) {
        if (data.confirmations[confirmationId]) throw new StoreError('duplicate', `Confirmation ${confirmationId} was used already.`);
        const at = now();
        for (const [id, entry] of Object.entries(data.confirmations)) {
          if (at.getTime() - Date.parse(entry.at) > confirmationTtlMs) delete data.confirmations[id];
        }
        data.confirmations[confirmationId] = { refIds: records.map((record) => record.refId), at: at.toISOString() };
      }
      for (const record of records) put(data, record);
    });
    return records.map(copy);
  };

  const repo: TransactionsRepo = {
    async create(input) {
      const [record] = await createAll([input]);
      if (!record) throw new Error('unreachable: createAll returned nothing');
      return record;
    },
    createMany: (inputs, options) => createAll(inputs, options?.confirmationId),
    confirmation: (confirmationId) => {
      const entry = hot.data.confirmations[confirmationId];
      return entry ? [...entry.refIds] : undefined;
    },
    get(refId) {
      const tx = hot.data.transactions[refId];
      return tx ? copy(tx) : undefined;
    },
    async update(refId, patch, options = {}) {
      const existing = hot.data.transactions[refId];
      if (!existing || moving.has(refId) || isFinalStatus(existing.status)) return undefined;
      const at = now();
      const next = validated(transactionSchema, withPatch(existing, { ...stripKeys(patch), updatedAt: at.toISOString() }), 'transaction');
      if (isFinalStatus(next.status)) {
        throw new StoreError('invalid', `Use transactions.settle to give ${refId} the final status ${next.status}.`);
      }
      const items = (options.notify ?? []).map((item) => buildOutboxItem(item, at));
      return copy(
        await hot.update((data) => {
          for (const item of items) insertOutboxItem(data, item);
          return put(data, next);
        }),
      );
    },
    listOpen: () =>
      Object.values(hot.data.transactions)
        .filter((tx) => !isFinalStatus(tx.status))
        .sort((a, b) => newestFirst(b, a))
        .map(copy),
    due(nowMs, options = {}) {
      const limit = options.limit ?? Infinity;
      const found: TransactionRecord[] = [];
      for (const account of dueIndex().accountsDue(nowMs)) {
        if (found.length >= limit) break;
        let room = options.room?.(account.userId) ?? Infinity;
        if (room <= 0) continue;
        for (const refId of account.refIds()) {
          const tx = hot.data.transactions[refId];
          if (!tx || options.skip?.(refId)) continue;
          found.push(copy(tx));
          if (--room <= 0 || found.length >= limit) break;
        }
      }
      return found;
    },
    nextDueAt: () => dueIndex().nextDueAt(),
    async listCreatedSince(since) {
      const from = since.getTime();
      const found = new Map<string, TransactionRecord>();
      const consider = (tx: TransactionRecord) => {
        if (time(tx) >= from && !found.has(tx.refId)) found.set(tx.refId, tx);
      };
      Object.values(hot.data.transactions).forEach(consider);
      const first = monthOf(since.toISOString());
      for (const month of history.months()) {
        if (month < first) break;
        Object.values((await history.read(month))?.transactions ?? {}).forEach(consider);
      }
      return [...found.values()].sort(newestFirst).map(copy);
    },
    async buyersSince(since) {
      const recent = await repo.listCreatedSince(since);
      return new Set(recent.filter((tx) => tx.status !== 'Gagal').map((tx) => tx.userId));
    },
    async listByUserBetween(userId, from, to) {
      const start = from.getTime();
      const end = to.getTime();
      const found = new Map<string, TransactionRecord>();
      const consider = (tx: TransactionRecord) => {
        if (tx.userId !== userId || found.has(tx.refId)) return;
        const at = time(tx);
        if (at >= start && at < end) found.set(tx.refId, tx);
      };
      Object.values(hot.data.transactions).forEach(consider);
      if (end > start) {
        const first = monthOf(from.toISOString());
        const last = monthOf(new Date(end - 1).toISOString());
        for (const month of history.months()) {
          if (month > last) continue;
          if (month < first) break;
          Object.values((await history.read(month))?.transactions ?? {}).forEach(consider);
        }
      }
      return [...found.values()].sort((a, b) => newestFirst(b, a)).map(copy);
    },
    async listByUser(userId, options = {}) {
      const limit = Math.max(0, options.limit ?? 10);
      const offset = Math.max(0, options.offset ?? 0);
      const wanted = offset + limit;
      const found = new Map<string, TransactionRecord>();
      for (const tx of Object.values(hot.data.transactions)) if (tx.userId === userId) found.set(tx.refId, tx);
      for (const month of history.months()) {
        // Every transaction created after this month is known by now (hot ones, later months).
        const end = Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1);
        let newer = 0;
        for (const tx of found.values()) if (time(tx) >= end) newer++;
        if (newer >= wanted) break;
        const data = await history.read(month);
        for (const tx of Object.values(data?.transactions ?? {})) {
          if (tx.userId === userId && !found.has(tx.refId)) found.set(tx.refId, tx);
        }
      }
      return [...found.values()]
        .sort(newestFirst)
        .slice(offset, offset + limit)
        .map(copy);
    },
    find: (refId) => find(refId).then((tx) => (tx ? copy(tx) : undefined)),
    async findByTrxId(userId, trxId) {
      const wanted = trxId.toUpperCase();
      const [tx] = await matchingForUser(userId, (candidate) => candidate.trxId !== undefined && candidate.trxId.toUpperCase() === wanted);
      return tx ? copy(tx) : undefined;
    },
    async listByTarget(userId, target, options = {}) {
      const offset = Math.max(0, options.offset ?? 0);
      const limit = Math.max(0, options.limit ?? 10);
      const txs = await matchingForUser(userId, (candidate) => candidate.target === target);
      return txs.slice(offset, offset + limit).map(copy);
    },
    async findForUser(userId, refId) {
      const tx = await find(refId);
      return tx && tx.userId === userId ? copy(tx) : undefined;
    },
    async settle(refId, patch, options = {}) {
      const existing = hot.data.transactions[refId];
      if (!existing || moving.has(refId) || isFinalStatus(existing.status)) return undefined;
      const at = now();
      const notify = options.notify ?? [];
      const next = validated(
        transactionSchema,
        withPatch(existing, {
          ...stripKeys(patch),
          updatedAt: at.toISOString(),
          settledAt: patch.settledAt ?? at.toISOString(),
          ...(notify.length > 0 ? { notified: true } : {}),
        }),
        'transaction',
      );
      if (!isFinalStatus(next.status)) {
        throw new StoreError('invalid', `settle needs a final status (${finalStatuses.join(', ')}); ${refId} would be "${next.status}".`);
      }
      const items = notify.map((item) => buildOutboxItem(item, at));
      moving.add(refId);
      try {
        // 1. Final status and notifications in one hot write: from here on the settlement is durable.
        await hot.update((data) => {
          put(data, next);
          for (const item of items) insertOutboxItem(data, item);
        });
        // 2. History, then 3. removal from the hot file. A crash in between leaves a final
        // transaction in the hot file, which archiveSettled moves on the next start.
        await archive([next]);
      } finally {
        moving.delete(refId);
      }
      return copy(next);
    },
    async archiveSettled() {
      const settled = Object.values(hot.data.transactions).filter((tx) => isFinalStatus(tx.status) && !moving.has(tx.refId));
      if (settled.length === 0) return 0;
      await archive(settled);
      return settled.length;
    },
  };
  return repo;
}
