import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { reportChartData } from '../callback-data/report.ts';
import { hasChart } from '../../services/daily-series.ts';

/** The buttons under a report of the WIB days `from`..`to`: 📈 chart (periods up to `chartMaxDays` days). */
export function createReportKeyboard(t: TranslateFunction, days: { from: string; to: string }): InlineKeyboard | undefined {
  if (!hasChart(days)) return undefined;
  return new InlineKeyboard().text(t('chart-button'), reportChartData.pack(days));
}
