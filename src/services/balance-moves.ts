/**
 * The balance movements of a report period, from the balances the bot saw (store/balances.ts).
 * Pure.
 */
import type { BalanceEntry } from '../store/records/balances.ts';
import type { DayRange } from './export-periods.ts';

/** A balance seen in the period, with its change from the value seen before it for the same account. */
export interface BalanceMove extends BalanceEntry {
  /** Undefined for the first value seen of an account. */
  change: number | undefined;
}

export interface BalanceMoves {
  first: BalanceEntry;
  last: BalanceEntry;
  lowest: BalanceEntry;
  /** Changes in the period: values recorded after an earlier one of the same account (a first reading is a starting point). */
  count: number;
  /** The newest `recentMoves`, newest first. */
  recent: BalanceMove[];
}

export const recentMoves = 5;

/** The movements among `all` (a user's balances, oldest first) in the WIB days of `range`; undefined when none was seen. */
export function balanceMoves(all: readonly BalanceEntry[], range: Pick<DayRange, 'start' | 'end'>): BalanceMoves | undefined {
  const previous = new Map<string, number>();
  const moves: BalanceMove[] = [];
  for (const entry of all) {
    const at = Date.parse(entry.at);
    if (at >= range.start.getTime() && at < range.end.getTime()) {
      const before = previous.get(entry.account);
      moves.push({ ...entry, change: before === undefined ? undefined : entry.balance - before });
    }
    previous.set(entry.account, entry.balance);
  }
  const [first] = moves;
  const last = moves.at(-1);
  if (!first || !last) return undefined;
  const strip = ({ change: _change, ...entry }: BalanceMove): BalanceEntry => entry;
  const lowest = moves.reduce((low, move) => (move.balance < low.balance ? move : low), first);
  return {
    first: strip(first),
    last: strip(last),
    lowest: strip(lowest),
    count: moves.filter((move) => move.change !== undefined).length,
    recent: moves.slice(-recentMoves).reverse(),
  };
}
