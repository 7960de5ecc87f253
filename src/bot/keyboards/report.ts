import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { ExportPeriod } from '../../services/export-periods.ts';
import { hasChart } from '../../services/daily-series.ts';
import { reportChartData, summaryData } from '../callback-data/report.ts';

const periodRows: ReadonlyArray<readonly ExportPeriod[]> = [
  ['today', 'yesterday', 'week'],
  ['month', 'lastmonth'],
];

/**
 * The period buttons shared by /export and /report (today, yesterday, this week; this month, last
 * month); `data` packs a period into its callback data.
 */
export function periodKeyboard(t: TranslateFunction, data: (period: ExportPeriod) => string): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  periodRows.forEach((row, i) => {
    if (i > 0) keyboard.row();
    for (const period of row) keyboard.text(t(`period-${period}`), data(period));
  });
  return keyboard;
}

/** The buttons under a report of the WIB days `from`..`to`: 📈 chart (periods up to `chartMaxDays` days). */
export function createReportKeyboard(t: TranslateFunction, days: { from: string; to: string }): InlineKeyboard | undefined {
  if (!hasChart(days)) return undefined;
  return new InlineKeyboard().text(t('chart-button'), reportChartData.pack(days));
}

/** `07:00` for hour 7. */
export const hourLabel = (hour: number): string => `${String(hour).padStart(2, '0')}:00`;

/** The 24 WIB hours (four rows of six), the chosen one marked, and an off button. */
export function createSummaryKeyboard(t: TranslateFunction, chosen: number | undefined): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (let hour = 0; hour < 24; hour++) {
    if (hour > 0 && hour % 6 === 0) keyboard.row();
    keyboard.text(hour === chosen ? `✅ ${hourLabel(hour)}` : hourLabel(hour), summaryData.pack({ hour: String(hour) }));
  }
  return keyboard.row().text(t('summary-button-off'), summaryData.pack({ hour: 'off' }));
}
