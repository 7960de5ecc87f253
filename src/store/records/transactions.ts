/**
 * Transactions: the purchases the bot records before its first provider request, and the rules
 * that make one, change it while it is open and settle it, shared by both engines.
 */
import { z } from 'zod';
import { StoreError } from '../errors.ts';
import { isoDate, validated, withPatch } from './validation.ts';

/** Final statuses: a transaction with one of these is settled and moves to history. */
export const finalStatuses = ['Sukses', 'Gagal', 'Unresolved', 'Rejected'] as const;
/**
 * `Created`: stored before the first provider request. `Pending`: sent, not settled. Other
 * statuses a provider reports are kept verbatim and count as still pending.
 */
export type TransactionStatus = 'Created' | 'Pending' | (typeof finalStatuses)[number] | (string & {});

/** True for Sukses, Gagal, Unresolved and Rejected (refused by the provider; never created there). */
export function isFinalStatus(status: string): boolean {
  return (finalStatuses as readonly string[]).includes(status);
}

/**
 * The `message` of a transaction still `Created` in a restored backup: the bot that made the backup
 * may have sent it since, and a status check is the same request as the purchase (an unknown ref id
 * is bought), so the restored bot never sends it: it settles it Unresolved.
 */
export const restoredUnsentMessage = 'restored_unsent';

export const transactionSchema = z.object({
  refId: z.string().min(1),
  userId: z.number().int(),
  chatId: z.number().int(),
  code: z.string(),
  productName: z.string(),
  target: z.string(),
  /** Integer rupiah: the provider's price (the reseller's cost). */
  price: z.number().int(),
  /**
   * The sell price under the reseller's /jual rules at confirmation, and `margin` = sellPrice - price;
   * never recomputed. Absent on transactions from before sell prices (read as sell = cost).
   */
  sellPrice: z.number().int().optional(),
  margin: z.number().int().optional(),
  /**
   * Set on a downline's purchase: it was sent through the provider account of upline `id`, paid
   * from the downline's wallet (`price` is the downline's price, held at confirmation), and `cost`
   * is what the provider charged the upline, `margin` = price - cost, both as at confirmation.
   * Never shown to the downline.
   */
  upline: z.object({ id: z.number().int(), cost: z.number().int(), margin: z.number().int() }).optional(),
  status: z
    .string()
    .min(1)
    .transform((status): TransactionStatus => status),
  /** The provider's status text, verbatim. */
  providerStatus: z.string().optional(),
  trxId: z.string().optional(),
  sn: z.string().optional(),
  message: z.string().optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
  sentAt: isoDate.optional(),
  settledAt: isoDate.optional(),
  nextCheckAt: isoDate.optional(),
  /** Status checks made so far. */
  checks: z.number().int().nonnegative(),
  batchId: z.string().optional(),
  /** The "please wait" message to edit when the transaction settles. */
  pendingMessage: z.object({ chatId: z.number().int(), messageId: z.number().int() }).optional(),
  /** The result message of a multi-line purchase listing this transaction: edited whenever a line of it settles. */
  summaryMessage: z.object({ chatId: z.number().int(), messageId: z.number().int() }).optional(),
  /** Whether the final notification has been queued. */
  notified: z.boolean().optional(),
  /** Refusals (400/402/404) in a row on re-checks of an acknowledged transaction, until the next status answer; never final (invariant 8). */
  refusals: z.number().int().nonnegative().optional(),
  /** When the operator was asked to review it after repeated refusals (asked once per transaction). */
  reviewRequestedAt: isoDate.optional(),
});
export type TransactionRecord = z.output<typeof transactionSchema>;

/** The user whose provider account a transaction is sent through: the upline's for a downline's purchase. */
export function accountOf(tx: Pick<TransactionRecord, 'userId' | 'upline'>): number {
  return tx.upline?.id ?? tx.userId;
}

/**
 * Whether a refusal of a downline's purchase (its `message`, the error kind) is the upline's
 * account's (its balance, its credentials, a blocked IP): the downline is then told the product
 * is unavailable for now, never why, and the upline is alerted.
 */
export function isUplineRefusal(kind: string | undefined): boolean {
  return kind === 'insufficient_balance' || kind === 'credentials' || kind === 'ip_blocked';
}

/** An upline is told at most once in this long that their account refuses their downlines' purchases. */
export const downlineRefusalAlertMs = 3600_000;

/** What the customer paid: the sell price stored at confirmation, else (a purchase from before sell prices) the cost. */
export function salePrice(tx: Pick<TransactionRecord, 'price' | 'sellPrice'>): number {
  return tx.sellPrice ?? tx.price;
}

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

/** How long a confirmation id is remembered (its ref ids answer a late double tap). */
export const confirmationTtlMs = 7 * 24 * 3600_000;

/** A refId taken already: a confirmation never creates a second transaction. */
export function duplicateTransaction(refId: string): StoreError {
  return new StoreError('duplicate', `Transaction ${refId} exists already; a confirmation never creates a second transaction.`);
}

/** A confirmation id that made its transactions already. */
export function confirmationUsed(confirmationId: string): StoreError {
  return new StoreError('duplicate', `Confirmation ${confirmationId} was used already.`);
}

/** Validates a new transaction (status `Created`, no checks yet, unless given); a final status is refused. */
export function newTransactionRecord(input: NewTransaction, now: Date): TransactionRecord {
  const createdAt = input.createdAt ?? now.toISOString();
  const record = validated(
    transactionSchema,
    withPatch(withPatch({}, input), { status: input.status ?? 'Created', checks: input.checks ?? 0, createdAt, updatedAt: createdAt }),
    'transaction',
  );
  if (isFinalStatus(record.status)) throw new StoreError('invalid', `A new transaction cannot start as ${record.status}.`);
  return record;
}

/** The fields a patch may change: never the refId, owner or creation time. */
function stripKeys(patch: TransactionPatch): TransactionPatch {
  const { refId: _r, userId: _u, createdAt: _c, ...changes } = patch as TransactionPatch & Partial<TransactionRecord>;
  return changes;
}

/** `existing` with `patch` applied at `at`, validated; a final status is refused (that is `settle`). */
export function updatedTransaction(existing: TransactionRecord, patch: TransactionPatch, at: Date): TransactionRecord {
  const next = validated(transactionSchema, withPatch(existing, { ...stripKeys(patch), updatedAt: at.toISOString() }), 'transaction');
  if (isFinalStatus(next.status)) {
    throw new StoreError('invalid', `Use transactions.settle to give ${existing.refId} the final status ${next.status}.`);
  }
  return next;
}

/** `existing` settled by `patch` at `at` (marked notified when notices go with it); the result must be final. */
export function settledTransaction(existing: TransactionRecord, patch: TransactionPatch, at: Date, notifying: boolean): TransactionRecord {
  const next = validated(
    transactionSchema,
    withPatch(existing, {
      ...stripKeys(patch),
      updatedAt: at.toISOString(),
      settledAt: patch.settledAt ?? at.toISOString(),
      ...(notifying ? { notified: true } : {}),
    }),
    'transaction',
  );
  if (!isFinalStatus(next.status)) {
    throw new StoreError(
      'invalid',
      `settle needs a final status (${finalStatuses.join(', ')}); ${existing.refId} would be "${next.status}".`,
    );
  }
  return next;
}
