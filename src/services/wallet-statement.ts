/**
 * A downline's wallet statement over a period (/ekspor's second document): the ledger entries of
 * whole WIB days, oldest first, each with the balance after it, and the balance the period opened
 * and closed with. Reads the ledger only.
 */
import type { LedgerStore } from '../store/contract.ts';
import type { LedgerEntry } from '../store/records/ledger.ts';
import type { DayRange } from './export-periods.ts';

/** Entries read per page, newest first: a busy month is a few reads. */
const pageSize = 500;

/** The entries of a period and the balances around them. */
export interface WalletStatement {
  /** Oldest first. */
  entries: LedgerEntry[];
  /** The balance before the period's first entry. */
  opening: number;
  /** The balance after its last entry. */
  closing: number;
  /** Sums of the period's credits (positive) and debits (negative amounts, as a positive number). */
  credited: number;
  debited: number;
}

/**
 * The wallet's entries created in `range` ([start, end)), oldest first; undefined when there are
 * none. Pages back from the newest entry and stops at the first one before the period: entries
 * are appended in time order (each stamped by the store when appended), so none older follows.
 */
export async function walletStatementBetween(
  ledger: Pick<LedgerStore, 'statement'>,
  wallet: number,
  range: Pick<DayRange, 'start' | 'end'>,
): Promise<WalletStatement | undefined> {
  const start = range.start.getTime();
  const end = range.end.getTime();
  const newestFirst: LedgerEntry[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await ledger.statement(wallet, { limit: pageSize, offset });
    const before = page.findIndex((entry) => Date.parse(entry.createdAt) < start);
    const inPeriod = (before === -1 ? page : page.slice(0, before)).filter((entry) => Date.parse(entry.createdAt) < end);
    newestFirst.push(...inPeriod);
    if (before !== -1 || page.length < pageSize) break;
  }
  const entries = newestFirst.reverse();
  const [first] = entries;
  const last = entries.at(-1);
  if (!first || !last) return undefined;
  const sum = (sign: 1 | -1) =>
    entries.reduce((total, entry) => total + (Math.sign(entry.amount) === sign ? Math.abs(entry.amount) : 0), 0);
  return { entries, opening: first.balance - first.amount, closing: last.balance, credited: sum(1), debited: sum(-1) };
}
