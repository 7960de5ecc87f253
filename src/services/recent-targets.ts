import type { Db } from '../store/db.ts';
import { isOfBrand } from './catalogue.ts';

/** Transactions read (newest first) when looking for earlier targets: plenty for a reseller's recent work. */
const scanned = 100;

export interface RecentTargetsService {
  /**
   * The user's last `limit` (default 5) distinct targets bought for `brand` (a brand as the
   * price list groups them, see `groupByBrand`), newest first, from their open and settled
   * transactions. Reads the store only.
   */
  forBrand(userId: number, brand: string, limit?: number): Promise<string[]>;
}

export function createRecentTargetsService(deps: { db: Db }): RecentTargetsService {
  return {
    async forBrand(userId, brand, limit = 5) {
      const transactions = await deps.db.transactions.listByUser(userId, { limit: scanned });
      const targets: string[] = [];
      for (const tx of transactions) {
        if (targets.length >= limit) break;
        if (targets.includes(tx.target)) continue;
        if (isOfBrand({ product_name: tx.productName, code: tx.code }, brand)) targets.push(tx.target);
      }
      return targets;
    },
  };
}
