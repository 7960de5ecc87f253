import type { Product } from '../providers/reseller/schemas.ts';
import type { CredentialService } from './credentials.ts';
import { productKind, type ProductKind } from '../domain/operators.ts';
import type { DownlineLevel } from '../store/records/users.ts';
import type { TradingAccounts } from './trading.ts';
import { groupByBrand, type BrandGroup } from './brands.ts';
import { sellPriceOf } from './pricing.ts';

/** How long a provider account's price list is reused before it is fetched again (browsing, search, inline). */
export const priceListTtlMs = 3 * 60_000;

/** The oldest list a purchase summary is built from (the Confirm tap checks its prices again on a newer one). */
export const summaryPriceMaxAgeMs = 60_000;

export interface PriceListOptions {
  /** Fetch a new list whatever is cached. */
  fresh?: boolean;
  /** Reuse a cached list only when it is younger than this (default `priceListTtlMs`). */
  maxAgeMs?: number;
  /** Reuse a cached list only when it was fetched at or after this instant (epoch ms). */
  since?: number;
}

/** The price lists of the provider accounts: one copy per account, shared by every feature. */
export class CatalogueService {
  /** By `credentials.accountKey`. */
  private readonly cache = new Map<string, { at: number; products: Product[] }>();
  private readonly fetching = new Map<string, { startedAt: number; products: Promise<Product[]> }>();
  private readonly groupsOf = new WeakMap<readonly Product[], BrandGroup[]>();
  /** A list at a level's prices, per list handed out and level rules: one copy per account copy, as the list itself. */
  private readonly leveled = new WeakMap<readonly Product[], Map<string, Product[]>>();

  constructor(private readonly deps: { credentials: CredentialService; trading: TradingAccounts; now: () => Date }) {}

  /**
   * The user's price list: the one copy per provider account that every feature (and the price
   * watcher's fetch) shares, so the last fetch is what everybody sees. Users of one account asking
   * at once wait for the same fetch. A downline gets their upline's list at their level's prices
   * (their price as `price`: what they pay, never the upline's cost).
   */
  async priceList(userId: number, options?: PriceListOptions): Promise<Product[]> {
    const account = await this.deps.trading.of(userId);
    if (!account || (account.kind === 'downline' && !account.connected)) throw new Error('reseller not connected');
    const list = await this.accountList(account.accountId, options);
    return account.kind === 'own' ? list : this.atLevel(list, account.level);
  }

  /** The provider's own list of the user's reseller account (`userId` must have one). */
  private async accountList(userId: number, options: PriceListOptions | undefined): Promise<Product[]> {
    const { credentials, now } = this.deps;
    const account = await credentials.accountKey(userId, 'reseller');
    if (account === undefined) throw new Error('reseller not connected');
    const cached = this.cache.get(account);
    if (cached && this.isUsable(cached.at, options)) return cached.products;
    const running = this.fetching.get(account);
    const startedAt = now().getTime();
    // A fetch under way will do unless the caller needs one started after it.
    const since = options?.fresh ? startedAt : options?.since;
    if (running && (since === undefined || running.startedAt >= since)) return running.products;
    // Registered before anything is awaited, so users of the account asking meanwhile share it.
    const fetched = (async () => {
      const client = await credentials.client(userId, 'reseller');
      if (!client) throw new Error('reseller not connected');
      const products = await client.priceList();
      // A slower, older fetch never replaces a newer copy.
      const current = this.cache.get(account);
      if (!current || current.at <= startedAt) this.cache.set(account, { at: startedAt, products });
      return products;
    })();
    const entry = { startedAt, products: fetched };
    this.fetching.set(account, entry);
    try {
      return await fetched;
    } finally {
      if (this.fetching.get(account) === entry) this.fetching.delete(account);
    }
  }

  /**
   * `list` (an upline's own list) at `level`'s prices: each product's price is the level's sell
   * price over the upline's cost. Memoised per list and rules, as `priceList` hands it out.
   */
  atLevel(list: Product[], level: DownlineLevel): Product[] {
    const key = JSON.stringify(level.rules);
    let byRules = this.leveled.get(list);
    if (!byRules) this.leveled.set(list, (byRules = new Map<string, Product[]>()));
    let priced = byRules.get(key);
    if (!priced) byRules.set(key, (priced = list.map((product) => ({ ...product, price: sellPriceOf(level.rules, product).sell }))));
    return priced;
  }

  /** Drops the cached list of the user's account (after a reconnect). */
  async forget(userId: number): Promise<void> {
    const account = await this.deps.credentials.accountKey(userId, 'reseller');
    if (account !== undefined) this.cache.delete(account);
  }

  /** `groupByBrand(products)`, memoised per list handed out, so paging through brands does not regroup it on every tap. */
  brands(products: readonly Product[]): BrandGroup[] {
    let groups = this.groupsOf.get(products);
    if (!groups) this.groupsOf.set(products, (groups = groupByBrand(products)));
    return groups;
  }

  /** Whether a copy fetched at `at` satisfies what the caller asked for. */
  private isUsable(at: number, options: PriceListOptions | undefined): boolean {
    if (options?.fresh) return false;
    if (options?.since !== undefined && at < options.since) return false;
    return this.deps.now().getTime() - at < (options?.maxAgeMs ?? priceListTtlMs);
  }
}

/** The categories the bot names itself (localised); any other word a provider uses is shown as is. */
export const knownCategories: readonly ProductKind[] = ['pulsa', 'data', 'pln', 'emoney', 'game'];
export const otherCategory = 'other';

const categoryWords: ReadonlyArray<[ProductKind, RegExp]> = [
  ['pln', /^(pln|token|token ?pln|listrik|token listrik|electricity)$/i],
  ['emoney', /^(e-?money|e-?wallet|ewallet|saldo|dompet digital|wallet)$/i],
  ['game', /^(games?|voucher ?game|game ?voucher|top ?up game)$/i],
  ['data', /^(data|paket ?data|internet|kuota)$/i],
  ['pulsa', /^(pulsa|airtime|pulsa reguler|reguler)$/i],
];

/**
 * Category of a product: the provider's own `category` word when it sends one (a known word such
 * as "Pulsa" or "Games" maps to a known category, any other is kept as the provider wrote it),
 * otherwise its `productKind`, else `other`.
 */
export function categoryOf(product: Pick<Product, 'product_name' | 'code' | 'category'>): string {
  const word = product.category?.trim();
  if (word) return categoryWords.find(([, pattern]) => pattern.test(word))?.[0] ?? word;
  return productKind(product) ?? otherCategory;
}

/** Products of one category, in the provider's order: a `ProductKind`, `other`, or the provider's own word. */
interface CategoryGroup {
  category: string;
  products: Product[];
}

/** The price list by category: the known ones in a fixed order, then the provider's own words, `other` last. */
export function groupByCategory(products: readonly Product[]): CategoryGroup[] {
  const groups = new Map<string, CategoryGroup>();
  for (const product of products) {
    const category = categoryOf(product);
    const group = groups.get(category) ?? { category, products: [] };
    group.products.push(product);
    groups.set(category, group);
  }
  const rank = (category: string) => {
    const known = (knownCategories as readonly string[]).indexOf(category);
    if (known >= 0) return known;
    return category === otherCategory ? knownCategories.length + 2 : knownCategories.length + 1;
  };
  return [...groups.values()].sort((a, b) => rank(a.category) - rank(b.category));
}
