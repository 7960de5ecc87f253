import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { TransactionRecord } from '../../store/records/transactions.ts';
import { historyDetailData, historyPageData } from '../callback-data/history.ts';
import { addReceiptButtons } from './receipt.ts';
import { addPageButtons, withoutEmptyRows } from './rows.ts';
import { packIfFits } from '../callback-data/read.ts';
import { raw } from '../../text/html.ts';

/** One button per transaction of the page (numbered like the text), then previous/next. */
export function createHistoryKeyboard(
  t: TranslateFunction,
  transactions: readonly TransactionRecord[],
  options: { page: number; firstNumber: number; hasNext: boolean },
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  transactions.forEach((tx, index) => {
    const data = packIfFits(() => historyDetailData.pack({ page: options.page, ref: tx.refId }));
    if (data)
      keyboard.text(t('history-button-item', { n: options.firstNumber + index, code: raw(tx.code), target: raw(tx.target) }), data).row();
  });
  addPageButtons(keyboard, t, options.page, options.hasNext, (page) => historyPageData.pack({ page }));
  return withoutEmptyRows(keyboard);
}

/** Under a receipt opened from the history: buy again and customer receipt (Sukses), copy SN (when there is one) and back to the page. */
export function createHistoryReceiptKeyboard(t: TranslateFunction, tx: TransactionRecord, page: number): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  addReceiptButtons(keyboard, t, tx);
  keyboard.text(t('history-button-back'), historyPageData.pack({ page }));
  return withoutEmptyRows(keyboard);
}
