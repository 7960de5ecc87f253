import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { ExportPeriod } from '../../services/export-periods.ts';

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
