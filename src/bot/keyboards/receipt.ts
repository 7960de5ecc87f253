import type { InlineKeyboard } from 'grammy';
import type { TransactionRecord } from '../../store/schema.ts';
import type { ReceiptTranslate } from '../../text/receipt.ts';
import { addCopyButton } from './rows.ts';

/**
 * Adds a "copy SN" button (Bot API 7.11 `copy_text`) when the transaction has an SN short
 * enough to copy; returns whether it did. Clients without the feature show the SN as `<code>`,
 * which copies on tap, so nothing is lost.
 */
export function addCopySnButton(keyboard: InlineKeyboard, t: ReceiptTranslate, tx: Pick<TransactionRecord, 'sn'>): boolean {
  return addCopyButton(keyboard, t('receipt-button-copy-sn'), tx.sn);
}
