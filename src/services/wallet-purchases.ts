/**
 * How a downline's purchase moves their wallet: a hold at confirmation (with the purchase, in one
 * write), then at settlement a `final` for Sukses or a `refund` of the hold for Gagal and for a
 * refusal before the provider created it, in the same write as the final status. Unresolved
 * keeps the hold: the provider may have charged the upline, who settles it by hand (/saldodl).
 */
import type { NewLedgerEntry } from '../store/records/ledger.ts';
import type { TransactionRecord } from '../store/records/transactions.ts';

/** Ledger key of a purchase's hold. */
export const holdKey = (refId: string): string => `hold:${refId}`;

/**
 * The wallet entry that closes `tx`'s hold when it settles as `tx.status`; none for a purchase that
 * was not paid from a wallet, and none for Unresolved.
 */
export function walletClosing(tx: Pick<TransactionRecord, 'refId' | 'userId' | 'price' | 'status' | 'upline'>): NewLedgerEntry[] {
  if (tx.status === 'Sukses') return closingEntry(tx, 'final');
  if (tx.status === 'Gagal' || tx.status === 'Rejected') return closingEntry(tx, 'refund');
  return [];
}

/**
 * The entry that closes `tx`'s hold as `kind`: `final` (spent) or `refund` (the held price back).
 * The keys are the same whoever closes it (a settlement, or the upline deciding an Unresolved
 * purchase), so a hold is closed once. None for a purchase that was not paid from a wallet.
 */
export function closingEntry(
  tx: Pick<TransactionRecord, 'refId' | 'userId' | 'price' | 'upline'>,
  kind: 'final' | 'refund',
): NewLedgerEntry[] {
  if (!tx.upline || tx.price <= 0) return [];
  const base = { wallet: tx.userId, upline: tx.upline.id, refId: tx.refId };
  return kind === 'final'
    ? [{ ...base, kind, amount: 0, key: `final:${tx.refId}` }]
    : [{ ...base, kind, amount: tx.price, key: `refund:${tx.refId}` }];
}
