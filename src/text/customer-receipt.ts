/**
 * The customer receipt: what a reseller hands their own customer for a Sukses transaction. One
 * model, built by a pure function from the transaction, the reseller's shop profile (/toko) and a
 * translate function of the reseller's language, feeds both the ready-to-forward text message
 * (`formatCustomerReceipt`) and the PNG card (src/render/receipt-card.ts). The model carries the
 * sell price only: the cost (`tx.price` when a sell price was set) never reaches it.
 */
import type { ShopProfile } from '../store/records/users.ts';
import { salePrice, type TransactionRecord } from '../store/records/transactions.ts';
import { escapeHtml, formatRupiah, formatWibIn, maskTarget, withoutHiddenChars } from './format.ts';
import type { ReceiptTranslate } from './receipt.ts';
import { groupToken, splitPlnSn } from './token.ts';

/** One labelled line of the receipt: `Produk: Telkomsel 10.000`. `strong` values stand out (token, price); `code` ones are copied (SN, token). */
export interface CustomerReceiptRow {
  label: string;
  value: string;
  strong?: boolean;
  code?: boolean;
}

/** Everything a customer receipt shows, already in the reader's words (plain text, not HTML). */
export interface CustomerReceiptModel {
  /** The shop's name, or undefined without a profile (the title heads the receipt then). */
  shopName?: string;
  address?: string;
  /** `STRUK PEMBELIAN` / `PURCHASE RECEIPT`. */
  title: string;
  /** Status word (`SUKSES`). */
  status: string;
  rows: CustomerReceiptRow[];
  /** The price the customer pays: the sell price, or the price when none was set. */
  total: CustomerReceiptRow;
  footer?: string;
}

/**
 * Builds the customer receipt of `tx` for a reader of `t`'s language: the shop (when `shop` is
 * set), product name (not the code), target (hidden in the middle unless the profile says full;
 * masked without a profile), SN or a PLN token grouped in fours with the name and kWh around it,
 * the customer's price, the time in WIB (settled, else created) and the ref id.
 */
export function buildCustomerReceipt(t: ReceiptTranslate, tx: TransactionRecord, shop: ShopProfile | undefined): CustomerReceiptModel {
  const target = shop?.target === 'full' ? tx.target : maskTarget(tx.target);
  const rows: CustomerReceiptRow[] = [
    { label: t('customer-receipt-product'), value: tx.productName },
    { label: t('customer-receipt-target'), value: target },
  ];
  const pln = splitPlnSn(tx);
  if (pln) {
    rows.push({ label: t('customer-receipt-token'), value: groupToken(pln.token), strong: true, code: true });
    if (pln.info !== '') rows.push({ label: t('customer-receipt-token-info'), value: pln.info });
  } else if (tx.sn !== undefined && tx.sn !== '') rows.push({ label: t('customer-receipt-sn'), value: tx.sn, code: true });
  rows.push(
    { label: t('customer-receipt-time'), value: formatWibIn(t, tx.settledAt ?? tx.createdAt) },
    { label: t('customer-receipt-ref'), value: tx.refId },
  );
  const model: CustomerReceiptModel = {
    title: t('customer-receipt-title'),
    status: t('customer-receipt-status'),
    rows,
    total: { label: t('customer-receipt-price'), value: formatRupiah(salePrice(tx)), strong: true },
  };
  if (shop) {
    model.shopName = withoutHiddenChars(shop.name);
    if (shop.address !== undefined) model.address = withoutHiddenChars(shop.address);
    if (shop.footer !== undefined) model.footer = withoutHiddenChars(shop.footer);
  }
  return model;
}

const rule = '──────────────';

/**
 * The receipt as a message to forward (HTML): shop name in bold, address, the title, one line per
 * row (SN and token as `<code>`, copied on tap), the price in bold, the footer.
 */
export function formatCustomerReceipt(model: CustomerReceiptModel): string {
  const line = (row: CustomerReceiptRow) => {
    const value = escapeHtml(row.value);
    return `${escapeHtml(row.label)}: ${row.code ? `<code>${value}</code>` : row.strong ? `<b>${value}</b>` : value}`;
  };
  const head = model.shopName === undefined ? [`🧾 <b>${escapeHtml(model.title)}</b>`] : [`🏪 <b>${escapeHtml(model.shopName)}</b>`];
  if (model.address !== undefined) head.push(escapeHtml(model.address));
  if (model.shopName !== undefined) head.push('', `🧾 ${escapeHtml(model.title)}`);
  const body = model.rows.map(line);
  const lines = [...head, rule, ...body, line(model.total), `✅ ${escapeHtml(model.status)}`, rule];
  if (model.footer !== undefined) lines.push(escapeHtml(model.footer));
  return lines.join('\n');
}
