/**
 * Pure renderer of /report (/laporan): the figures of a period as an HTML message.
 */
import type { TranslateFunction } from '@grammyjs/i18n';
import { formatMargin, formatRupiah } from '../../text/format.ts';
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
