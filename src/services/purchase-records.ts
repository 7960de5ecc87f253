/**
 * How the purchase service stores a provider's answer about a transaction: a final status settles
 * it (into history, with its notices, in one write), anything else schedules its next re-check.
 * The transactions' one writer is the purchase service (purchases.ts); this is its pen.
 */
import type { Db } from '../store/db.ts';
import { isFinalStatus as isFinal, type TransactionRecord } from '../store/records/transactions.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import { createKeyedQueue, type KeyedQueue } from '../queue.ts';
import { walletClosing } from './wallet-purchases.ts';

/**
 * Back-off schedule of re-checks, by the age of the transaction: `firstMs` (RECHECK_FIRST_SECONDS,
 * default 10 s) for the first 2 minutes, then 30 s up to 10 minutes, then 5 minutes.
 */
export function nextCheckDelayMs(ageMs: number, firstMs = 10_000): number {
  if (ageMs < 2 * 60_000) return firstMs;
  if (ageMs < 10 * 60_000) return 30_000;
  return 5 * 60_000;
}

export interface CallOptions {
  /**
   * True when nobody is looking at this call's result (the watcher): the owner then gets a
   * settlement notice through the outbox. False (default) when the result is shown as a reply.
   */
  notifyOwner?: boolean;
}

export interface PurchaseRecorderDeps {
  db: Db;
  now: () => Date;
  /**
   * The notices a settlement queues, in the same store write as the final status (so each final
   * status is announced exactly once, even across crashes).
   */
  settlementNotices?: (tx: TransactionRecord, options: { notifyOwner: boolean; batch?: TransactionRecord[] }) => Promise<NewOutboxItem[]>;
  /** Called after a transaction settled (wakes the outbox, checks the balance alert). */
  onSettled?: (tx: TransactionRecord) => void;
  /** Random source for the re-check jitter (tests pass a fixed one). */
  random?: () => number;
  /** Delay of the re-checks during a purchase's first 2 minutes (default 10 s). */
  recheckFirstMs?: number;
  /** Called after something was queued outside a settlement (wakes the outbox). */
  onQueued?: () => void;
}

/** Stores the answers about transactions: settlements (with their notices) and re-check schedules. */
export class PurchaseRecorder {
  private readonly deps: PurchaseRecorderDeps;
  /**
   * The settlements of one multi-line purchase run one after another, so each sees the lines
   * settled before it and the last result-message edit queued shows them all. (In this process;
   * one process owns the data directory, like the send claims.)
   */
  private readonly batchTurns: KeyedQueue<string> = createKeyedQueue<string>();

  constructor(deps: PurchaseRecorderDeps) {
    this.deps = deps;
  }

  /**
   * Stores an answer: final statuses move the transaction to history, others schedule a re-check.
   * `queue` (operator items about an open transaction) goes in the same write as the update.
   */
  async record(
    tx: TransactionRecord,
    patch: Partial<TransactionRecord>,
    options: CallOptions = {},
    queue: NewOutboxItem[] = [],
  ): Promise<TransactionRecord> {
    const status = patch.status ?? tx.status;
    const now = this.deps.now();
    if (isFinal(status)) return this.settle(tx, patch, status, now, options);
    return this.scheduleRecheck(tx, patch, status, now, queue);
  }

  /** Records a final status, with the notices it queues (and a downline's wallet entry), and reports the transaction as stored. */
  private async settle(
    tx: TransactionRecord,
    patch: Partial<TransactionRecord>,
    status: TransactionRecord['status'],
    now: Date,
    options: CallOptions,
  ): Promise<TransactionRecord> {
    const { db } = this.deps;
    const settle = async () => {
      // As stored now: the message to edit may have been recorded since `tx` was read.
      const final: TransactionRecord = {
        ...((await db.transactions.get(tx.refId)) ?? tx),
        ...patch,
        status,
        settledAt: now.toISOString(),
      };
      const batch = await this.batchOf(final);
      const notify =
        (await this.deps.settlementNotices?.(final, { notifyOwner: options.notifyOwner ?? false, ...(batch ? { batch } : {}) })) ?? [];
      // A downline's purchase closes its wallet hold in the same commit (spent, or refunded).
      const ledger = walletClosing(final);
      return db.transactions.settle(
        tx.refId,
        { ...patch, status, settledAt: now.toISOString() },
        { notify, ...(ledger.length > 0 ? { ledger } : {}) },
      );
    };
    const batchId = (await db.transactions.get(tx.refId))?.summaryMessage !== undefined ? tx.batchId : undefined;
    const settled = batchId === undefined ? await settle() : await this.batchTurns.run(batchId, settle);
    if (settled) this.deps.onSettled?.(settled);
    // Undefined: someone else settled it meanwhile; report what is stored.
    return settled ?? (await db.transactions.find(tx.refId)) ?? { ...tx, ...patch, status };
  }

  /** Records an answer that leaves the transaction open, with the time of its next re-check. */
  private async scheduleRecheck(
    tx: TransactionRecord,
    patch: Partial<TransactionRecord>,
    status: TransactionRecord['status'],
    now: Date,
    queue: NewOutboxItem[],
  ): Promise<TransactionRecord> {
    const { db } = this.deps;
    const age = now.getTime() - Date.parse(tx.createdAt);
    // ±20 % jitter spreads the re-checks of a burst of purchases.
    const jitter = 0.8 + 0.4 * (this.deps.random ?? Math.random)();
    const nextCheckAt = new Date(now.getTime() + Math.round(nextCheckDelayMs(age, this.deps.recheckFirstMs) * jitter)).toISOString();
    // Still Pending after being Pending: nothing a crash could lose but this re-check's schedule
    // (the transaction is then checked again sooner), so its write is not waited for and a wave
    // of re-checks shares a few writes. Anything else (the first answer, a queued notice) is on
    // disk before this returns.
    const stillPending = status === 'Pending' && tx.status === 'Pending' && queue.length === 0;
    const updated = await db.transactions.update(
      tx.refId,
      { ...patch, status, nextCheckAt },
      queue.length > 0 ? { notify: queue } : stillPending ? { deferWrite: true } : {},
    );
    if (updated && queue.length > 0) this.deps.onQueued?.();
    return updated ?? (await db.transactions.find(tx.refId)) ?? { ...tx, ...patch, status };
  }

  /**
   * The transactions of `tx`'s multi-line purchase in line order, `tx` as given, when it has a
   * result message to edit; undefined otherwise (or when a line cannot be read any more).
   */
  private async batchOf(tx: TransactionRecord): Promise<TransactionRecord[] | undefined> {
    const { db } = this.deps;
    if (tx.summaryMessage === undefined || tx.batchId === undefined) return undefined;
    const refIds = await db.transactions.confirmation(tx.batchId);
    if (!refIds) return undefined;
    const lines = await Promise.all(refIds.map((refId) => (refId === tx.refId ? Promise.resolve(tx) : db.transactions.find(refId))));
    return lines.every((line) => line !== undefined) ? lines : undefined;
  }
}
