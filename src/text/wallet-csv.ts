/**
 * The wallet statement's CSV rows (/ekspor for a downline): one per ledger entry, as /mutasi
 * lists them, in the CSV conventions of the transactions' document (src/text/csv.ts).
 */
import type { LedgerEntry } from '../store/records/ledger.ts';
import { wibDateTime, type CsvValue } from './csv.ts';

/** The columns, in order (each named by `wallet-export-column-<name>`). */
export const walletCsvColumns = ['time', 'kind', 'amount', 'balance', 'ref', 'note'] as const;

/**
 * An entry's row: time (WIB), what it is (as `kindOf` words it), the signed amount in integer
 * rupiah (a credit positive, a purchase's hold negative, its Sukses 0), the balance after it, the
 * purchase (or deposit request) it is of, and an adjustment's reason.
 */
export function ledgerCsvRow(entry: LedgerEntry, kindOf: (entry: LedgerEntry) => string): CsvValue[] {
  return [wibDateTime(entry.createdAt), kindOf(entry), entry.amount, entry.balance, entry.refId, entry.reason];
}
