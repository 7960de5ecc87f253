import { InlineKeyboard } from 'grammy';
import type { TransactionRecord } from '../../store/records/transactions.ts';
import type { ReceiptTranslate } from '../../text/receipt.ts';
import { plnToken } from '../../text/token.ts';
import { buyAgainData, customerReceiptData } from '../callback-data/receipt.ts';
import { packIfFits } from '../callback-data/read.ts';
import { addCopyButton, withoutEmptyRows } from './rows.ts';

/**
 * Adds a "copy SN" button (Bot API 7.11 `copy_text`) when the transaction has an SN short
 * enough to copy; returns whether it did. For a PLN token it is "copy token" and copies the 20
 * digits without spaces or the name and kWh around them. Clients without the feature show the SN
 * as `<code>`, which copies on tap, so nothing is lost.
 */
export function addCopySnButton(
  keyboard: InlineKeyboard,
  t: ReceiptTranslate,
  tx: Pick<TransactionRecord, 'sn'> & Partial<Pick<TransactionRecord, 'code' | 'productName'>>,
): boolean {
  const sn = tx.sn;
  if (sn === undefined || sn === '') return false;
  const token = plnToken({ code: tx.code ?? '', productName: tx.productName ?? '', sn });
  if (token !== undefined) return addCopyButton(keyboard, t('receipt-button-copy-token'), token);
  return addCopyButton(keyboard, t('receipt-button-copy-sn'), sn);
}

/** Adds 🔁 Beli lagi (buy the same product again) for a Sukses transaction; returns whether it did. */
export function addBuyAgainButton(keyboard: InlineKeyboard, t: ReceiptTranslate, tx: Pick<TransactionRecord, 'status' | 'refId'>): boolean {
  if (tx.status !== 'Sukses') return false;
  const data = packIfFits(() => buyAgainData.pack({ ref: tx.refId }));
  if (data === undefined) return false;
  keyboard.text(t('receipt-button-buy-again'), data);
  return true;
}

/** Adds 🧾 Struk pelanggan (the receipt for the reseller's customer) for a Sukses transaction; returns whether it did. */
export function addCustomerReceiptButton(
  keyboard: InlineKeyboard,
  t: ReceiptTranslate,
  tx: Pick<TransactionRecord, 'status' | 'refId'>,
): boolean {
  if (tx.status !== 'Sukses') return false;
  const data = packIfFits(() => customerReceiptData.pack({ ref: tx.refId }));
  if (data === undefined) return false;
  keyboard.text(t('customer-receipt-button'), data);
  return true;
}

/**
 * The buttons every receipt of a Sukses transaction carries, each row closed: 🔁 Beli lagi and
 * 📋 Salin SN / Salin token, then 🧾 Struk pelanggan. Nothing for other statuses but the copy
 * button when there is an SN.
 */
export function addReceiptButtons(
  keyboard: InlineKeyboard,
  t: ReceiptTranslate,
  tx: Pick<TransactionRecord, 'refId' | 'status' | 'sn'> & Partial<Pick<TransactionRecord, 'code' | 'productName'>>,
): void {
  const again = addBuyAgainButton(keyboard, t, tx);
  if (addCopySnButton(keyboard, t, tx) || again) keyboard.row();
  if (addCustomerReceiptButton(keyboard, t, tx)) keyboard.row();
}

/**
 * The buttons under a receipt in the chat (a single purchase's result, the settled "in process"
 * message, a settlement notice): 🔁 Beli lagi, 📋 Salin SN / Salin token and 🧾 Struk pelanggan
 * for a Sukses transaction, nothing otherwise.
 */
export function createReceiptKeyboard(
  t: ReceiptTranslate,
  tx: Pick<TransactionRecord, 'refId' | 'status' | 'code' | 'productName' | 'sn'>,
): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  addReceiptButtons(keyboard, t, tx);
  const rows = withoutEmptyRows(keyboard);
  return rows.inline_keyboard.length > 0 ? rows : undefined;
}

/**
 * The buttons under a multi-line purchase's result ("Hasil 3 transaksi"): one row per Sukses line,
 * numbered as its line, with 📋 SN n (copies its SN or token) and 🧾 Struk n (its customer
 * receipt); undefined while no line succeeded. Built again each time a line settles.
 */
export function createResultsKeyboard(
  t: ReceiptTranslate,
  lines: ReadonlyArray<Pick<TransactionRecord, 'refId' | 'status' | 'code' | 'productName' | 'sn'>>,
): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  lines.forEach((tx, index) => {
    if (tx.status !== 'Sukses') return;
    const n = index + 1;
    const sn = tx.sn;
    if (sn !== undefined && sn !== '') {
      const token = plnToken({ code: tx.code, productName: tx.productName, sn });
      addCopyButton(keyboard, t('receipt-button-line-sn', { n }), token ?? sn);
    }
    const data = packIfFits(() => customerReceiptData.pack({ ref: tx.refId }));
    if (data !== undefined) keyboard.text(t('receipt-button-line-receipt', { n }), data);
    keyboard.row();
  });
  const rows = withoutEmptyRows(keyboard);
  return rows.inline_keyboard.length > 0 ? rows : undefined;
}
