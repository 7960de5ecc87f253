/**
 * The whole report message of a period (for /report and the daily summary): the figures, then the
 * balance movements the bot saw, or the line saying there were no transactions. Pure.
 */
import type { TranslateFunction } from '@grammyjs/i18n';
import { formatRupiah, formatWibIn } from '../../text/format.ts';
import type { BalanceMoves } from '../../services/balance-moves.ts';
import type { PeriodReport } from '../../services/period-report.ts';
import { renderReport } from './report.ts';

/** The report text (HTML) of a loaded period; `report-empty` when it had no transactions. */
export function renderReportMessage(t: TranslateFunction, period: PeriodReport): string {
  if (period.txs.length === 0) return t('report-empty', period.days);
  return `${renderReport(t, period.report, period.days)}\n\n${renderBalanceMoves(t, period.moves)}`;
}

const signed = (amount: number): string => (amount > 0 ? `+${formatRupiah(amount)}` : formatRupiah(amount));

/** The balance movements section: first, last, lowest, the count and the newest changes. */
export function renderBalanceMoves(t: TranslateFunction, moves: BalanceMoves | undefined): string {
  if (!moves) return t('moves-none');
  const lines = [
    t('moves-title'),
    t('moves-count', { count: moves.count }),
    t('moves-summary', {
      first: formatRupiah(moves.first.balance),
      last: formatRupiah(moves.last.balance),
      lowest: formatRupiah(moves.lowest.balance),
      lowestAt: formatWibIn(t, moves.lowest.at),
    }),
    ...moves.recent.map((move) =>
      move.change === undefined
        ? t('moves-line-first', { time: formatWibIn(t, move.at), balance: formatRupiah(move.balance) })
        : t('moves-line', { time: formatWibIn(t, move.at), balance: formatRupiah(move.balance), change: signed(move.change) }),
    ),
  ];
  return lines.join('\n');
}
