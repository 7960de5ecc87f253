/**
 * Everything /report (/laporan) and the daily summary show of one user's period: the figures of
 * the transactions and the balance movements the bot saw.
 */
import type { Db } from '../store/db.ts';
import type { TransactionRecord } from '../store/records/transactions.ts';
import { balanceMoves, type BalanceMoves } from './balance-moves.ts';
import type { DayRange } from './export-periods.ts';
import { computeReport, type Report } from './report.ts';
import { downlineMarginBetween } from './downline-figures.ts';

export interface PeriodReport {
  /** The WIB days `from`..`to`. */
  days: { from: string; to: string };
  txs: TransactionRecord[];
  report: Report;
  /** Undefined when the bot saw no balance of the user in the period. */
  moves: BalanceMoves | undefined;
  /** An upline's margin from their downlines' Sukses purchases of the period; undefined for anyone without downlines. */
  downlineMargin?: number;
}

/**
 * Reads the user's own transactions and balances of `range` (history months on demand), and for an
 * upline (downline mode open) the margin earned from their downlines in it. A downline's report is
 * their own figures only: it never reads their purchases' `upline` part.
 */
export async function loadPeriodReport(db: Db, userId: number, range: DayRange): Promise<PeriodReport> {
  const [txs, user] = await Promise.all([db.transactions.listByUserBetween(userId, range.start, range.end), db.users.get(userId)]);
  const downlineMargin = user?.downlineMode ? await downlineMarginBetween(db, userId, range) : undefined;
  return {
    days: { from: range.from, to: range.to },
    txs,
    report: computeReport(txs),
    moves: balanceMoves(await db.balances.list(userId), range),
    ...(downlineMargin === undefined ? {} : { downlineMargin }),
  };
}
