/**
 * A downline's daily spend limit: how much of their wallet they may spend on purchases per WIB
 * day, set by their upline on the membership (`membership.dailyLimit`, written by the downline
 * service only). The purchase path asks before it holds a price; this module only reads.
 */
import type { Db } from '../store/db.ts';
import type { TransactionRecord } from '../store/records/transactions.ts';
import { startOfWibDay } from './export-periods.ts';

/** Statuses that spent nothing: the purchase failed (refunded) or the provider refused it (never created). */
const unspent: ReadonlySet<string> = new Set(['Gagal', 'Rejected']);

/**
 * What the downline spent from their wallet in `txs`: the sum of `price` (the downline's price,
 * what was held) over their wallet purchases (`upline` set) that are not Gagal or Rejected. Pending,
 * Created, Unresolved and any verbatim status count: their money is held. Pure.
 */
export function walletSpend(txs: readonly Pick<TransactionRecord, 'price' | 'status' | 'upline'>[]): number {
  let spent = 0;
  for (const tx of txs) if (tx.upline !== undefined && !unspent.has(tx.status)) spent += tx.price;
  return spent;
}

/** The answer of `checkDailySpend`. `limit`/`left` are absent when the downline has no limit. */
export interface DailySpendCheck {
  /** Whether holding `amount` keeps today's spend within the limit (always true without a limit). */
  fits: boolean;
  /** The daily limit (integer rupiah), when one is set. */
  limit?: number;
  /** Spent today (WIB) before this purchase. */
  spent: number;
  /** What may still be spent today (limit - spent, never below 0), when a limit is set. */
  left?: number;
}

/** Whether `amount` more fits `limit` after `spent` (no limit: it fits). Pure. */
export function fitsDailyLimit(limit: number | undefined, spent: number, amount: number): DailySpendCheck {
  if (limit === undefined) return { fits: true, spent };
  return { fits: spent + amount <= limit, limit, spent, left: Math.max(0, limit - spent) };
}

/**
 * Says whether `downlineId` may hold `amount` (integer rupiah: the total about to be held from
 * their wallet, every line of a confirmation together) under their daily spend limit, at `now`.
 *
 * Spent today = the sum of `price` of the downline's transactions created since 00:00 WIB of
 * `now`'s day that are wallet purchases (`upline` set) and not Gagal or Rejected (see
 * `walletSpend`). A user who is nobody's downline, or a downline without `dailyLimit`, always fits
 * (`limit` absent). Reads the membership and the day's transactions through the store contract;
 * writes nothing.
 *
 * The check is advisory, not a lock: two confirmations of one downline checked at the same instant
 * may both fit and together pass the limit by one purchase. The wallet's balance, held in the same
 * write as the purchase, is what can never be overspent.
 */
export async function checkDailySpend(
  db: Pick<Db, 'users' | 'transactions'>,
  downlineId: number,
  amount: number,
  now: Date,
): Promise<DailySpendCheck> {
  const limit = (await db.users.get(downlineId))?.membership?.dailyLimit;
  if (limit === undefined) return { fits: true, spent: 0 };
  return fitsDailyLimit(limit, await spentToday(db, downlineId, now), amount);
}

/** What `downlineId` spent from their wallet on the WIB day of `now` (see `walletSpend`). */
export async function spentToday(db: Pick<Db, 'transactions'>, downlineId: number, now: Date): Promise<number> {
  const txs = await db.transactions.listByUserBetween(downlineId, startOfWibDay(now), startOfWibDay(now, -1));
  return walletSpend(txs);
}
