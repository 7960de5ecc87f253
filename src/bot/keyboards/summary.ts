import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { summaryData } from '../callback-data/report.ts';

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
