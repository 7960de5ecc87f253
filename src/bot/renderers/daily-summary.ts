/**
 * The daily summary message (queued through the outbox): a headline, then the report of the day
 * with its 📈 chart button, in the user's language. Pure.
 */
import type { TranslateFunction } from '@grammyjs/i18n';
import type { NewOutboxItem } from '../../store/records/outbox.ts';
import type { PeriodReport } from '../../services/period-report.ts';
import { createReportKeyboard } from '../keyboards/report.ts';
import { renderReportMessage } from './report-message.ts';

/** The outbox item of `userId`'s summary of `period`. */
export function dailySummaryItem(t: TranslateFunction, userId: number, period: PeriodReport): NewOutboxItem {
  const keyboard = period.txs.length > 0 ? createReportKeyboard(t, period.days) : undefined;
  // An outbox payload (notify/payload.ts): plain JSON, the keyboard in Telegram's shape.
  const payload = {
    type: 'send',
    text: `${t('summary-headline')}\n\n${renderReportMessage(t, period)}`,
    parseMode: 'HTML',
    ...(keyboard ? { replyMarkup: { inline_keyboard: keyboard.inline_keyboard } } : {}),
  };
  return { chatId: userId, kind: 'daily-summary', payload };
}
