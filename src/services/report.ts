/**
 * The figures of /report (/laporan) over a user's transactions of a period. Pure. Turnover is at
 * the sell price stored with each transaction when it was confirmed (`sellPrice`; one without
 * counts sell = cost), cost at the provider's price, margin the difference.
 */
import { salePrice, type TransactionRecord } from '../store/records/transactions.ts';
import { brandOf } from './brands.ts';

export interface StatusCounts {
  success: number;
  failed: number;
  /** Created, Pending and any status a provider reports verbatim: still being processed. */
  pending: number;
  unresolved: number;
  rejected: number;
}

/** Sukses transactions of one product or brand. */
interface Tally {
  count: number;
  /** Sum of the costs. */
  sum: number;
  /** Sum of the margins (sell - cost). */
  margin: number;
}

export interface ProductLine extends Tally {
  code: string;
  name: string;
}

export interface BrandLine extends Tally {
  brand: string;
}

export interface Report {
  total: number;
  counts: StatusCounts;
  /** Sum of the sell prices of the Sukses transactions, in rupiah. */
  turnover: number;
  /** Sum of their costs (the provider's prices). */
  cost: number;
  /** turnover - cost. */
  margin: number;
  /** Sukses / (Sukses + Gagal), or undefined when there is neither. */
  successRate: number | undefined;
  /** The Sukses products by count, then sum (both descending), then code; at most 10. */
  topProducts: ProductLine[];
  /** The Sukses transactions per brand, by sum, then count (descending), then name. */
  brands: BrandLine[];
}

const statusBuckets: Record<string, keyof StatusCounts> = {
  Sukses: 'success',
  Gagal: 'failed',
  Unresolved: 'unresolved',
  Rejected: 'rejected',
};

export const topProductCount = 10;

export function computeReport(txs: readonly TransactionRecord[]): Report {
  const counts: StatusCounts = { success: 0, failed: 0, pending: 0, unresolved: 0, rejected: 0 };
  const products = new Map<string, ProductLine>();
  const brands = new Map<string, BrandLine>();
  let turnover = 0;
  let cost = 0;
  for (const tx of txs) {
    counts[statusBuckets[tx.status] ?? 'pending']++;
    if (tx.status !== 'Sukses') continue;
    const sell = salePrice(tx);
    turnover += sell;
    cost += tx.price;
    const product = products.get(tx.code) ?? { code: tx.code, name: tx.productName, count: 0, sum: 0, margin: 0 };
    const name = brandOf({ code: tx.code, product_name: tx.productName });
    const brand = brands.get(name) ?? { brand: name, count: 0, sum: 0, margin: 0 };
    for (const line of [product, brand]) {
      line.count++;
      line.sum += tx.price;
      line.margin += sell - tx.price;
    }
    products.set(tx.code, product);
    brands.set(name, brand);
  }
  const decided = counts.success + counts.failed;
  return {
    total: txs.length,
    counts,
    turnover,
    cost,
    margin: turnover - cost,
    successRate: decided === 0 ? undefined : counts.success / decided,
    topProducts: [...products.values()]
      .sort((a, b) => b.count - a.count || b.sum - a.sum || compare(a.code, b.code))
      .slice(0, topProductCount),
    brands: [...brands.values()].sort((a, b) => b.sum - a.sum || b.count - a.count || compare(a.brand, b.brand)),
  };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
