/**
 * CSV documents (RFC 4180) for spreadsheets: UTF-8 with a BOM (so Excel reads it as UTF-8),
 * CRLF line ends, `,` or `;` (Excel with Indonesian regional settings) as separator. A text field
 * that starts like a formula (= + - @) gets a leading `'` so a spreadsheet shows it as text.
 */
import { salePrice, type TransactionRecord } from '../store/records/transactions.ts';
import { wibOffsetMs } from '../domain/wib.ts';

export type CsvSeparator = ',' | ';';
export type CsvValue = string | number | undefined;

const formulaStart = /^[=+\-@]/;

/** One field: numbers as digits, text guarded against formulas and quoted when it must be. */
export function csvField(value: CsvValue, separator: CsvSeparator): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = formulaStart.test(value) ? `'${value}` : value;
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line (without its line end). */
export function csvLine(fields: readonly CsvValue[], separator: CsvSeparator): string {
  return fields.map((field) => csvField(field, separator)).join(separator);
}

/** The whole document: BOM, header row, then the rows, each line ended by CRLF. */
export function csvDocument(header: readonly string[], rows: Iterable<readonly CsvValue[]>, separator: CsvSeparator): Buffer {
  const lines = ['\uFEFF' + csvLine(header, separator)];
  for (const row of rows) lines.push(csvLine(row, separator));
  lines.push('');
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

/** A moment as Western Indonesian Time (UTC+7), the way spreadsheets read it: `2026-11-23 00:05:09`. */
export function wibDateTime(iso: string): string {
  const date = new Date(Date.parse(iso) + wibOffsetMs);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A transaction's row: time (WIB), ref id, trx id, product code, product name, target, cost
 * (integer rupiah), sell price as stored at the confirmation (one without a stored sell price sold
 * at cost), the margin — only for a Sukses transaction, empty for every other status, so that the
 * column sums to what was earned — status (as `statusOf` words it) and SN.
 */
export function transactionCsvRow(tx: TransactionRecord, statusOf: (tx: TransactionRecord) => string): CsvValue[] {
  const sell = salePrice(tx);
  const margin = tx.status === 'Sukses' ? (tx.margin ?? sell - tx.price) : undefined;
  return [wibDateTime(tx.createdAt), tx.refId, tx.trxId, tx.code, tx.productName, tx.target, tx.price, sell, margin, statusOf(tx), tx.sn];
}

/**
 * A downline's purchase as the upline exports it: time (WIB), the downline (name, user id), ref id,
 * trx id, product code and name, target, the downline's price, the upline's cost and margin as
 * stored at confirmation (the margin only on Sukses rows, empty otherwise, so the column sums to
 * what was earned), status and SN. Never part of a downline's own export.
 */
export function downlinePurchaseCsvRow(tx: TransactionRecord, downline: string, statusOf: (tx: TransactionRecord) => string): CsvValue[] {
  const margin = tx.status === 'Sukses' ? tx.upline?.margin : undefined;
  return [
    wibDateTime(tx.createdAt),
    downline,
    tx.userId,
    tx.refId,
    tx.trxId,
    tx.code,
    tx.productName,
    tx.target,
    tx.price,
    tx.upline?.cost,
    margin,
    statusOf(tx),
    tx.sn,
  ];
}
