/**
 * The upline's report of their downlines' purchases of a period (`/laporan dl`): the statuses, the
 * sales at the downlines' prices, the upline's cost and margin (Sukses only), and per downline when
 * it covers them all (a removed one marked). Pure. Only ever sent to the upline.
 */
import type { TranslateFunction } from '@grammyjs/i18n';
import type { DownlinePeriod, DownlineTally } from '../../services/downline-figures.ts';
import type { UserRecord } from '../../store/records/users.ts';
import { displayName } from '../../notify/downline-notices.ts';
import { formatRupiah } from '../../text/format.ts';

/** How many downlines the report of all of them lists by name (the rest are counted). */
export const downlineReportRows = 30;

/** The figures lines of a tally. */
function tallyLines(t: TranslateFunction, tally: DownlineTally): string[] {
  const decided = tally.success + tally.failed;
  return [
    t('report-total', { count: tally.count }),
    t('report-success', { count: tally.success }),
    t('report-failed', { count: tally.failed }),
    t('report-dl-other', { count: tally.other }),
    '',
    t('report-dl-sales', { amount: formatRupiah(tally.sales) }),
    t('report-dl-cost', { amount: formatRupiah(tally.cost) }),
    t('report-dl-margin', { amount: formatRupiah(tally.margin) }),
    decided === 0 ? t('report-rate-none') : t('report-rate', { rate: Math.round((tally.success / decided) * 1000) / 10 }),
  ];
}

/**
 * The report of `period` for one downline (`one`) or all of them: the total, then (for all) a line
 * per downline that bought, most margin first; `report-dl-empty` when none bought.
 */
export function renderDownlineReport(
  t: TranslateFunction,
  period: DownlinePeriod,
  one: Pick<UserRecord, 'firstName' | 'username'> | undefined,
): string {
  const title = one
    ? t('report-dl-title-one', { ...period.days, name: displayName(one) })
    : t('report-dl-title-all', { ...period.days, count: period.rows.filter((row) => !row.former).length });
  if (period.total.count === 0) return `${title}\n${t('report-dl-empty', period.days)}`;
  const lines = [title, ...tallyLines(t, period.total)];
  const bought = period.rows.filter((row) => row.tally.count > 0);
  if (!one) {
    lines.push('', t('report-dl-rows-title'));
    bought.slice(0, downlineReportRows).forEach((row, index) =>
      lines.push(
        t('report-dl-row', {
          n: index + 1,
          name: row.former ? t('report-dl-former', { name: displayName(row.user) }) : displayName(row.user),
          count: row.tally.success,
          sales: formatRupiah(row.tally.sales),
          cost: formatRupiah(row.tally.cost),
          margin: formatRupiah(row.tally.margin),
        }),
      ),
    );
    if (bought.length > downlineReportRows) lines.push(t('downline-list-more', { count: bought.length - downlineReportRows }));
  }
  lines.push('', t('report-dl-note'));
  return lines.join('\n');
}
