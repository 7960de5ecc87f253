/** The reseller balances the bot saw, changes only. */

/** Balance changes kept per user (the oldest go first). */
export const balancesKeptPerUser = 500;

/** A balance the bot saw. */
export interface BalanceEntry {
  /** ISO time it was read. */
  at: string;
  /** Rupiah. */
  balance: number;
  /** The account's display label (a masked api id; no secret). */
  account: string;
}
