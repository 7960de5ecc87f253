import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { ExportPeriod } from '../../services/export-periods.ts';
import type { CsvSeparator } from '../../text/csv.ts';
import { exportPeriodData, exportSeparatorData } from '../callback-data/export.ts';

/** The separator in callback data: `c` for `,`, `s` for `;`. */
export const separatorCode = (separator: CsvSeparator): string => (separator === ';' ? 's' : 'c');
export const separatorOf = (code: string): CsvSeparator | undefined => (code === 's' ? ';' : code === 'c' ? ',' : undefined);

const periodRows: ReadonlyArray<readonly ExportPeriod[]> = [
  ['today', 'yesterday', 'week'],
  ['month', 'lastmonth'],
];

/** The periods (each sends its file), then the Excel Indonesia (;) switch, ticked when chosen. */
export function createExportKeyboard(t: TranslateFunction, separator: CsvSeparator): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  const sep = separatorCode(separator);
  for (const row of periodRows) {
    for (const period of row) keyboard.text(t(`export-period-${period}`), exportPeriodData.pack({ period, sep }));
    keyboard.row();
  }
  const semicolons = separator === ';';
  const label = semicolons ? `✅ ${t('export-button-semicolon')}` : t('export-button-semicolon');
  return keyboard.text(label, exportSeparatorData.pack({ sep: separatorCode(semicolons ? ',' : ';') }));
}
