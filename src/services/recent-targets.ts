import type { Db } from '../store/db.ts';
import { isOfBrand } from './brands.ts';

/** Transactions read (newest first) when looking for earlier targets: plenty for a reseller's recent work. */
const scanned = 100;

/** Earlier targets of a user, offered as buttons when buying. */
export class RecentTargetsService {
  constructor(private readonly deps: { db: Db }) {}

  /**
   * The user's last `limit` (default 5) distinct targets bought for `brand` (a brand as the
   * price list groups them, see `groupByBrand`), newest first, from their open and settled
   * transactions. Reads the store only.
   */
  async forBrand(userId: number, brand: string, limit = 5): Promise<string[]> {
    const transactions = await this.deps.db.transactions.listByUser(userId, { limit: scanned });
    const targets: string[] = [];
    for (const tx of transactions) {
      if (targets.length >= limit) break;
      if (targets.includes(tx.target)) continue;
      if (isOfBrand({ product_name: tx.productName, code: tx.code }, brand)) targets.push(tx.target);
    }
    return targets;
  }
}
