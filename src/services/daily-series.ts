/**
 * The daily series of the /report (/laporan) chart: turnover and margin per WIB day. Pure.
 */
import { salePrice, type TransactionRecord } from '../store/records/transactions.ts';
import { daysOf, wibDayOf, type DayRange } from './export-periods.ts';

/** One WIB day of the chart, in rupiah. */
export interface DayPoint {
  /** `YYYY-MM-DD` (WIB). */
  day: string;
  /** Sum of the sell prices (the cost where no sell price was stored) of the day's Sukses transactions. */
  turnover: number;
  /** Sum of the margins stored on the day's Sukses transactions (0 where none was stored). */
  margin: number;
}

/**
 * A transaction as the chart reads it. Sell price and margin are optional: only transactions bought
 * since sell prices (/jual) existed carry them, and older ones count at cost with no margin.
 */
type Priced = Pick<TransactionRecord, 'createdAt' | 'status' | 'price'> & { sellPrice?: number; margin?: number };

/** One point per WIB day of `range` (days without sales are 0), from the Sukses transactions among `txs`. */
export function dailySeries(txs: readonly Priced[], range: Pick<DayRange, 'from' | 'to'>): DayPoint[] {
  const points = new Map(daysOf(range).map((day) => [day, { day, turnover: 0, margin: 0 }]));
  for (const tx of txs) {
    if (tx.status !== 'Sukses') continue;
    const point = points.get(wibDayOf(new Date(tx.createdAt)));
    if (!point) continue;
    point.turnover += salePrice(tx);
    point.margin += tx.margin ?? 0;
  }
  return [...points.values()];
}

/** Longest period (in days) drawn as a chart: one bar per day stays readable up to about three months. */
export const chartMaxDays = 92;

/** Whether the period `range` is short enough for a chart. */
export const hasChart = (range: Pick<DayRange, 'from' | 'to'>): boolean => daysOf(range).length <= chartMaxDays;
