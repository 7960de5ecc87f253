import type { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { CsvSeparator } from '../../text/csv.ts';
import { exportPeriodData, exportSeparatorData } from '../callback-data/export.ts';
import { periodKeyboard } from './report.ts';

/** The separator in callback data: `c` for `,`, `s` for `;`. */
export const separatorCode = (separator: CsvSeparator): string => (separator === ';' ? 's' : 'c');
export const separatorOf = (code: string): CsvSeparator | undefined => (code === 's' ? ';' : code === 'c' ? ',' : undefined);

/** The periods (each sends its file), then the Excel Indonesia (;) switch, ticked when chosen. */
export function createExportKeyboard(t: TranslateFunction, separator: CsvSeparator): InlineKeyboard {
  const sep = separatorCode(separator);
  const keyboard = periodKeyboard(t, (period) => exportPeriodData.pack({ period, sep })).row();
  const semicolons = separator === ';';
  const label = semicolons ? `✅ ${t('export-button-semicolon')}` : t('export-button-semicolon');
  return keyboard.text(label, exportSeparatorData.pack({ sep: separatorCode(semicolons ? ',' : ';') }));
}
