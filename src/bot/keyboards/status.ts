import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { isFinalStatus, type TransactionRecord } from '../../store/records/transactions.ts';
import { statusCheckData, statusListData } from '../callback-data/status.ts';
import { addReceiptButtons } from './receipt.ts';
import { withoutEmptyRows } from './rows.ts';
import { packIfFits } from '../callback-data/read.ts';
import { raw } from '../../text/html.ts';

/** Callback data that checks `refId`, or undefined when it cannot be packed (not a bot-minted id). */
const packStatusCheck = (refId: string) => packIfFits(() => statusCheckData.pack({ ref: refId }));

/** One button per open transaction: tapping it checks that one with the provider. */
export function createPendingListKeyboard(t: TranslateFunction, transactions: readonly TransactionRecord[]): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  transactions.forEach((tx, index) => {
    const data = packStatusCheck(tx.refId);
    if (data) keyboard.text(t('status-button-item', { n: index + 1, code: raw(tx.code), target: raw(tx.target) }), data).row();
  });
  return withoutEmptyRows(keyboard);
}

/**
 * Under a receipt: buy again, copy SN and customer receipt (when Sukses / there is an SN), check again (while still open), and back to the
 * Pending list (`backToList`, when the receipt replaced that list).
 */
export function createStatusReceiptKeyboard(t: TranslateFunction, tx: TransactionRecord, options: { backToList: boolean }): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  addReceiptButtons(keyboard, t, tx);
  const again = isFinalStatus(tx.status) ? undefined : packStatusCheck(tx.refId);
  if (again) keyboard.text(t('status-button-again'), again);
  if (options.backToList) keyboard.text(t('status-button-list'), statusListData.pack({}));
  return withoutEmptyRows(keyboard);
}
