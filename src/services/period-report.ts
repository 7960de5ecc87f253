/**
 * Everything /report (/laporan) and the daily summary show of one user's period: the figures of
 * the transactions and the balance movements the bot saw.
 */
import type { Db } from '../store/db.ts';
import type { TransactionRecord } from '../store/records/transactions.ts';
import { balanceMoves, type BalanceMoves } from './balance-moves.ts';
import type { DayRange } from './export-periods.ts';
import { computeReport, type Report } from './report.ts';

export interface PeriodReport {
  /** The WIB days `from`..`to`. */
  days: { from: string; to: string };
  txs: TransactionRecord[];
  report: Report;
  /** Undefined when the bot saw no balance of the user in the period. */
  moves: BalanceMoves | undefined;
}

/** Reads the user's own transactions and balances of `range` (history months on demand). */
export async function loadPeriodReport(db: Db, userId: number, range: DayRange): Promise<PeriodReport> {
  const txs = await db.transactions.listByUserBetween(userId, range.start, range.end);
  return {
    days: { from: range.from, to: range.to },
    txs,
    report: computeReport(txs),
    moves: balanceMoves(await db.balances.list(userId), range),
  };
}
