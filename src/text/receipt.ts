/**
 * The transaction receipt: one HTML text shown by /status, /history and the settlement notices.
 * Pure functions of a translate function and a transaction, so the outbox can format a receipt
 * without a chat context (the "copy SN" button is in bot/keyboards/receipt.ts).
 */
import { isFinalStatus, isUplineRefusal, restoredUnsentMessage, type TransactionRecord } from '../store/records/transactions.ts';
import { escapeHtml, formatMargin, formatRupiah, formatWibIn, maskTarget } from './format.ts';
import { raw, type TextVariable } from './html.ts';
import { groupToken, splitPlnSn } from './token.ts';

/** A translate function: `ctx.t`, or `(key, vars) => i18n.t(locale, key, vars)` outside a chat. */
export type ReceiptTranslate = (key: string, variables?: Record<string, TextVariable>) => string;

/** Statuses with a word of their own in the locales (`receipt-status-<suffix>`). */
const statusKeys: Record<string, string> = {
  Sukses: 'success',
  Gagal: 'failed',
  Pending: 'pending',
  Created: 'created',
  Rejected: 'rejected',
  Unresolved: 'unresolved',
};

const statusIcons: Record<string, string> = {
  Sukses: '✅',
  Gagal: '❌',
  Rejected: '⛔',
  Unresolved: '❔',
};

/**
 * The transaction's status in the reader's words: Sukses/Gagal/Pending/Diproses/Ditolak/Tidak
 * terselesaikan (English: Success/Failed/…). A status the provider reported that the spec does
 * not name is shown verbatim, also while it is stored as Pending.
 */
export function statusWord(t: ReceiptTranslate, tx: Pick<TransactionRecord, 'status' | 'providerStatus'>): string {
  const verbatim = tx.providerStatus;
  if (tx.status === 'Pending' && verbatim !== undefined && verbatim !== '' && statusKeys[verbatim] === undefined) return verbatim;
  const key = statusKeys[tx.status];
  return key ? t(`receipt-status-${key}`) : tx.status;
}

/** An emoji for the status: ✅ Sukses, ❌ Gagal, ⛔ Ditolak, ❔ unresolved, ⏳ anything still open. */
export function statusIcon(tx: Pick<TransactionRecord, 'status'>): string {
  return statusIcons[tx.status] ?? '⏳';
}

/**
 * Formats a transaction receipt as HTML: product and code, target, price,
 * status in words, SN as copyable `<code>` (a PLN token grouped in fours), ref id, provider trx id, time in WIB, and a short
 * note on what happens next for open, refused and unresolved transactions. `maskTarget` hides
 * the middle of the target and `hideCost` shows the sell price without cost or margin (both for
 * group posts). `t` escapes every value (src/text/html.ts).
 */
export function formatReceipt(
  t: ReceiptTranslate,
  tx: TransactionRecord,
  options: { maskTarget?: boolean; hideCost?: boolean } = {},
): string {
  const code = (value: string) => raw(`<code>${escapeHtml(value)}</code>`);
  const lines = [
    t('receipt-title'),
    '',
    t('receipt-product', { product: tx.productName, code: code(tx.code) }),
    t('receipt-target', { target: options.maskTarget ? maskTarget(tx.target) : code(tx.target) }),
    formatPriceLine(t, tx, { hideCost: options.hideCost ?? false }),
    t('receipt-status', { status: `${statusIcon(tx)} ${statusWord(t, tx)}` }),
  ];
  const pln = splitPlnSn(tx);
  if (pln) {
    // A PLN token, grouped in fours as it is typed into the meter; name, tariff and kWh below it.
    lines.push(t('receipt-token', { token: code(groupToken(pln.token)) }));
    if (pln.info !== '') lines.push(t('receipt-token-info', { info: pln.info }));
  } else if (tx.sn !== undefined && tx.sn !== '') lines.push(t('receipt-sn', { sn: code(tx.sn) }));
  lines.push(t('receipt-ref', { refId: code(tx.refId) }));
  if (tx.trxId !== undefined && tx.trxId !== '') lines.push(t('receipt-trx', { trxId: code(tx.trxId) }));
  lines.push(t('receipt-time', { time: formatWibIn(t, tx.createdAt) }));
  if (tx.settledAt !== undefined) lines.push(t('receipt-settled', { time: formatWibIn(t, tx.settledAt) }));

  const note = receiptNote(t, tx);
  if (note !== undefined) lines.push('', note);
  return lines.join('\n');
}

/**
 * The price: the cost alone for a purchase sold at cost; with a sell price of its own, the owner sees
 * `cost → sell` and the margin — earned on Sukses, expected while the purchase is open, none once
 * it failed — and a group only the sell price. `label` is the key of the plain price line.
 */
export function formatPriceLine(
  t: ReceiptTranslate,
  tx: Pick<TransactionRecord, 'price' | 'sellPrice' | 'margin' | 'status'>,
  options: { hideCost?: boolean; label?: string } = {},
): string {
  const label = options.label ?? 'receipt-price';
  // Sold at cost (no /jual rules then): nothing to tell apart.
  if (tx.sellPrice === undefined || tx.sellPrice === tx.price) return t(label, { price: formatRupiah(tx.price) });
  if (options.hideCost) return t(label, { price: formatRupiah(tx.sellPrice) });
  const margin = tx.margin ?? tx.sellPrice - tx.price;
  const figures = { cost: formatRupiah(tx.price), sell: formatRupiah(tx.sellPrice), margin: formatMargin(margin) };
  if (tx.status === 'Sukses') return t(margin < 0 ? 'receipt-price-sell-loss' : 'receipt-price-sell', figures);
  if (isFinalStatus(tx.status)) return t('receipt-price-sell-none', figures);
  return t('receipt-price-sell-open', figures);
}

function receiptNote(t: ReceiptTranslate, tx: TransactionRecord): string | undefined {
  switch (tx.status) {
    case 'Sukses':
    case 'Gagal':
      return undefined;
    case 'Rejected':
      if (tx.upline && isUplineRefusal(tx.message)) return t('receipt-note-downline-unavailable');
      return t('receipt-note-rejected', { reason: tx.providerStatus ?? tx.message ?? '-' });
    case 'Unresolved':
      return t(tx.message === restoredUnsentMessage ? 'receipt-note-restored' : 'receipt-note-unresolved');
    default:
      return t('receipt-note-pending', { refId: tx.refId });
  }
}

/**
 * The one line that tells the owner a transaction settled (a new message, so it pings; the
 * receipt is the message it replies to): status icon, product, masked target, status word.
 */
export function formatSettlementPing(t: ReceiptTranslate, tx: TransactionRecord): string {
  return t('receipt-ping', { icon: statusIcon(tx), product: tx.productName, target: maskTarget(tx.target), status: statusWord(t, tx) });
}
