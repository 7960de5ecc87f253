/**
 * The upline's figures of their downlines' purchases: today's on the /downline list, a period's in
 * `/laporan dl` and `/ekspor dl`, and the margin line of the upline's own /laporan. A downline's
 * purchase is their own transaction (`userId` the downline) whose `upline` holds the upline's cost
 * and margin; only those with `upline.id` equal to the upline count here, and margins only once
 * Sukses (DESIGN invariant 10). Reads through the store contract (each downline's transactions of
 * the period, their wallet's balance); writes nothing. None of this is ever shown to a downline.
 *
 * "All downlines" are the current ones and the removed ones the upline's record remembers
 * (`formerDownlines`, the last `downlineLimits.formerKept`): the store keeps no index of
 * transactions by upline, so a downline removed longer ago than that no longer counts there.
 */
import type { Db } from '../store/db.ts';
import type { TransactionRecord } from '../store/records/transactions.ts';
import type { UserRecord } from '../store/records/users.ts';
import type { DownlineEntry } from './downlines.ts';
import type { DayRange } from './export-periods.ts';
import { startOfWibDay } from './export-periods.ts';
import { walletSpend } from './downline-spend.ts';

/** A downline's purchases through one upline, tallied. */
export interface DownlineTally {
  /** Purchases of any status. */
  count: number;
  success: number;
  failed: number;
  /** Created, Pending, Unresolved, Rejected and verbatim statuses: neither Sukses nor Gagal. */
  other: number;
  /** Sum of the downline's prices (`price`) of the Sukses ones. */
  sales: number;
  /** Sum of the upline's costs (`upline.cost`) of the Sukses ones. */
  cost: number;
  /** Sum of the upline's margins (`upline.margin`) of the Sukses ones. */
  margin: number;
}

/** The purchases of `txs` sent through `uplineId`'s account (as the downline's purchase recorded it). */
export function throughUpline(txs: readonly TransactionRecord[], uplineId: number): TransactionRecord[] {
  return txs.filter((tx) => tx.upline?.id === uplineId);
}

/** Tallies the purchases of `txs` made through `uplineId` (others are left out). Pure. */
export function tallyThroughUpline(txs: readonly TransactionRecord[], uplineId: number): DownlineTally {
  const tally: DownlineTally = { count: 0, success: 0, failed: 0, other: 0, sales: 0, cost: 0, margin: 0 };
  for (const tx of throughUpline(txs, uplineId)) addTo(tally, tx);
  return tally;
}

function addTo(tally: DownlineTally, tx: TransactionRecord): void {
  tally.count++;
  if (tx.status === 'Gagal') tally.failed++;
  else if (tx.status !== 'Sukses') tally.other++;
  else if (tx.upline) {
    tally.success++;
    tally.sales += tx.price;
    tally.cost += tx.upline.cost;
    tally.margin += tx.upline.margin;
  }
}

/** The sum of tallies. */
export function sumTallies(tallies: readonly DownlineTally[]): DownlineTally {
  const total: DownlineTally = { count: 0, success: 0, failed: 0, other: 0, sales: 0, cost: 0, margin: 0 };
  for (const tally of tallies) for (const key of Object.keys(total) as (keyof DownlineTally)[]) total[key] += tally[key];
  return total;
}

/** One downline on the upline's list: their wallet balance, today's purchases and spend. */
export interface DownlineToday {
  entry: DownlineEntry;
  balance: number;
  today: DownlineTally;
  /** Spent from the wallet today (what the daily limit counts). */
  spent: number;
}

/** Today's (WIB day of `now`) figures of each of `entries`, in their order. */
export async function downlinesToday(
  db: Pick<Db, 'transactions' | 'ledger'>,
  uplineId: number,
  entries: readonly DownlineEntry[],
  now: Date,
): Promise<DownlineToday[]> {
  const [start, end] = [startOfWibDay(now), startOfWibDay(now, -1)];
  return Promise.all(
    entries.map(async (entry) => {
      const [txs, balance] = await Promise.all([
        db.transactions.listByUserBetween(entry.user.id, start, end),
        db.ledger.balance(entry.user.id),
      ]);
      const mine = throughUpline(txs, uplineId);
      return { entry, balance, today: tallyThroughUpline(mine, uplineId), spent: walletSpend(mine) };
    }),
  );
}

/** A downline whose purchases a report counts; `former` once removed. */
export interface ReportedDownline {
  user: Pick<UserRecord, 'id' | 'firstName' | 'username'>;
  former: boolean;
}

/**
 * Everyone the upline's reports of all downlines count: the current downlines (by id), then the
 * removed ones remembered on the upline's record who are not theirs again, most recently removed last.
 */
export async function reportedDownlines(db: Pick<Db, 'users'>, uplineId: number): Promise<ReportedDownline[]> {
  const [upline, current] = await Promise.all([db.users.get(uplineId), db.users.list({ uplineId })]);
  const ids = new Set(current.map((user) => user.id));
  const formerIds = (upline?.downlineMode?.formerDownlines ?? []).filter((id) => !ids.has(id));
  const former = await Promise.all(formerIds.map((id) => db.users.get(id)));
  return [...current.map((user) => ({ user, former: false })), ...former.flatMap((user) => (user ? [{ user, former: true }] : []))];
}

/** One downline's purchases of a period, tallied. */
export interface DownlineRow extends ReportedDownline {
  txs: TransactionRecord[];
  tally: DownlineTally;
}

/** The upline's view of a period: per downline (most margin first), and the total. */
export interface DownlinePeriod {
  days: { from: string; to: string };
  rows: DownlineRow[];
  total: DownlineTally;
}

/** Reads the purchases of `downlines` made through `uplineId` in `range` (history months on demand). */
export async function loadDownlinePeriod(
  db: Pick<Db, 'transactions'>,
  uplineId: number,
  downlines: readonly ReportedDownline[],
  range: DayRange,
): Promise<DownlinePeriod> {
  const rows = await Promise.all(
    downlines.map(async ({ user, former }) => {
      const txs = throughUpline(await db.transactions.listByUserBetween(user.id, range.start, range.end), uplineId);
      return { user, former, txs, tally: tallyThroughUpline(txs, uplineId) };
    }),
  );
  rows.sort((a, b) => b.tally.margin - a.tally.margin || b.tally.count - a.tally.count || a.user.id - b.user.id);
  return { days: { from: range.from, to: range.to }, rows, total: sumTallies(rows.map((row) => row.tally)) };
}

/**
 * The margin `uplineId` earned from their downlines' Sukses purchases in `range` (removed ones
 * remembered included), for the line of their own /laporan; undefined when they have had none.
 */
export async function downlineMarginBetween(
  db: Pick<Db, 'transactions' | 'users'>,
  uplineId: number,
  range: DayRange,
): Promise<number | undefined> {
  const downlines = await reportedDownlines(db, uplineId);
  if (downlines.length === 0) return undefined;
  return (await loadDownlinePeriod(db, uplineId, downlines, range)).total.margin;
}
