import { InlineKeyboard } from 'grammy';
import type { TransactionRecord } from '../../store/records/transactions.ts';
import type { ReceiptTranslate } from '../../text/receipt.ts';
import { plnToken } from '../../text/token.ts';
import { buyAgainData, customerReceiptData } from '../callback-data/receipt.ts';
import { packIfFits } from '../callback-data/read.ts';
import { addCopyButton, nonEmpty } from './rows.ts';

type ReceiptTx = Pick<TransactionRecord, 'refId' | 'status' | 'sn'> & Partial<Pick<TransactionRecord, 'code' | 'productName'>>;

/** A PLN token's 20 digits (without the name and kWh around them in the SN), else undefined. */
const tokenOf = (tx: Partial<Pick<TransactionRecord, 'code' | 'productName'>>, sn: string) =>
  plnToken({ code: tx.code ?? '', productName: tx.productName ?? '', sn });

/** Callback data made by `pack` from a Sukses transaction's ref id, when it fits; undefined for other statuses. */
const ifSukses = (tx: Pick<TransactionRecord, 'status' | 'refId'>, pack: (ref: string) => string) =>
  tx.status === 'Sukses' ? packIfFits(() => pack(tx.refId)) : undefined;

/**
 * Adds a "copy SN" button (Bot API 7.11 `copy_text`) when the transaction has an SN short
 * enough to copy; returns whether it did. For a PLN token it is "copy token" and copies the 20
 * digits only. Clients without the feature show the SN as `<code>`, which copies on tap.
 */
export function addCopySnButton(
  keyboard: InlineKeyboard,
  t: ReceiptTranslate,
  tx: Pick<TransactionRecord, 'sn'> & Partial<Pick<TransactionRecord, 'code' | 'productName'>>,
): boolean {
  const sn = tx.sn;
  if (sn === undefined || sn === '') return false;
  const token = tokenOf(tx, sn);
  if (token !== undefined) return addCopyButton(keyboard, t('receipt-button-copy-token'), token);
  return addCopyButton(keyboard, t('receipt-button-copy-sn'), sn);
}

/**
 * The buttons every receipt of a Sukses transaction carries, each row closed: 🔁 Beli lagi and
 * 📋 Salin SN / Salin token, then 🧾 Struk pelanggan. Nothing for other statuses but the copy
 * button when there is an SN.
 */
export function addReceiptButtons(keyboard: InlineKeyboard, t: ReceiptTranslate, tx: ReceiptTx): void {
  const again = ifSukses(tx, (ref) => buyAgainData.pack({ ref }));
  if (again !== undefined) keyboard.text(t('receipt-button-buy-again'), again);
  if (addCopySnButton(keyboard, t, tx) || again !== undefined) keyboard.row();
  const receipt = ifSukses(tx, (ref) => customerReceiptData.pack({ ref }));
  if (receipt !== undefined) keyboard.text(t('customer-receipt-button'), receipt).row();
}

/**
 * The buttons under a receipt in the chat (a single purchase's result, the settled "in process"
 * message, a settlement notice): those of `addReceiptButtons`, undefined when there are none.
 */
export function createReceiptKeyboard(t: ReceiptTranslate, tx: ReceiptTx): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  addReceiptButtons(keyboard, t, tx);
  return nonEmpty(keyboard);
}

/**
 * The buttons under a multi-line purchase's result ("Hasil 3 transaksi"): one row per Sukses line,
 * numbered as its line, with 📋 SN n (copies its SN or token) and 🧾 Struk n (its customer
 * receipt); undefined while no line succeeded. Built again each time a line settles.
 */
export function createResultsKeyboard(t: ReceiptTranslate, lines: readonly ReceiptTx[]): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  lines.forEach((tx, index) => {
    if (tx.status !== 'Sukses') return;
    const n = index + 1;
    if (tx.sn !== undefined && tx.sn !== '') addCopyButton(keyboard, t('receipt-button-line-sn', { n }), tokenOf(tx, tx.sn) ?? tx.sn);
    const receipt = packIfFits(() => customerReceiptData.pack({ ref: tx.refId }));
    if (receipt !== undefined) keyboard.text(t('receipt-button-line-receipt', { n }), receipt);
    keyboard.row();
  });
  return nonEmpty(keyboard);
}
