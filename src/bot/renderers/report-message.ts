/**
 * The whole report message of a period (for /report and the daily summary): the figures, then the
 * balance movements the bot saw, or the line saying there were no transactions. Pure.
 */
import type { TranslateFunction } from '@grammyjs/i18n';
import { formatMargin, formatRupiah, formatWibIn } from '../../text/format.ts';
import type { BalanceMoves } from '../../services/balance-moves.ts';
import type { PeriodReport } from '../../services/period-report.ts';
import type { Report } from '../../services/report.ts';

/**
 * The report of the WIB days `from`..`to`: statuses, turnover at sell prices, cost, margin, success
 * rate, top products, brands (with their margins once any sale had one).
 */
export function renderReport(t: TranslateFunction, report: Report, days: { from: string; to: string }): string {
  const { counts } = report;
  const lines = [
    t('report-title', days),
    t('report-total', { count: report.total }),
    t('report-success', { count: counts.success }),
    t('report-failed', { count: counts.failed }),
    t('report-pending', { count: counts.pending }),
  ];
  if (counts.unresolved > 0) lines.push(t('report-unresolved', { count: counts.unresolved }));
  if (counts.rejected > 0) lines.push(t('report-rejected', { count: counts.rejected }));
  lines.push(
    '',
    t('report-sell-turnover', { amount: formatRupiah(report.turnover) }),
    t('report-turnover', { amount: formatRupiah(report.cost) }),
    t('report-margin', { amount: formatMargin(report.margin) }),
    report.successRate === undefined ? t('report-rate-none') : t('report-rate', { rate: Math.round(report.successRate * 1000) / 10 }),
  );
  if (report.topProducts.length > 0) {
    lines.push('', t('report-top-title', { count: report.topProducts.length }));
    // Margins per line only once some sale had one: a reseller without sell prices sees no noise.
    const withMargin = report.topProducts.some((line) => line.margin !== 0) || report.brands.some((line) => line.margin !== 0);
    const margin = (line: { margin: number }) => (withMargin ? t('report-line-margin', { margin: formatMargin(line.margin) }) : '');
    report.topProducts.forEach((line, i) =>
      lines.push(
        t('report-top-line', { n: i + 1, code: line.code, name: line.name, count: line.count, sum: formatRupiah(line.sum) }) + margin(line),
      ),
    );
    lines.push('', t('report-brands-title'));
    for (const line of report.brands) {
      lines.push(t('report-brand-line', { brand: line.brand, count: line.count, sum: formatRupiah(line.sum) }) + margin(line));
    }
  }
  lines.push('', t('report-cost-note'));
  return lines.join('\n');
}

/** The report text (HTML) of a loaded period; `report-empty` when it had no transactions; an upline's margin from downlines after the figures. */
export function renderReportMessage(t: TranslateFunction, period: PeriodReport): string {
  // An upline's margin from their downlines is theirs too, with or without purchases of their own.
  const fromDownlines =
    period.downlineMargin === undefined ? '' : `\n\n${t('report-downline-margin', { amount: formatRupiah(period.downlineMargin) })}`;
  if (period.txs.length === 0) return t('report-empty', period.days) + fromDownlines;
  return `${renderReport(t, period.report, period.days)}${fromDownlines}\n\n${renderBalanceMoves(t, period.moves)}`;
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
