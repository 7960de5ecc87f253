import type { Product } from '../providers/reseller/schemas.ts';
import type { CredentialService } from './credentials.ts';

/** How long a user's price list is reused before it is fetched again. */
export const priceListTtlMs = 3 * 60_000;

export interface CatalogueService {
  /** The user's price list, cached per user for a few minutes; `fresh` forces a new fetch. */
  priceList(userId: number, options?: { fresh?: boolean }): Promise<Product[]>;
  /** A product by code (case-insensitive) from the cached list. */
  product(userId: number, code: string): Promise<Product | undefined>;
  /** Drops the user's cached list (after a reconnect). */
  forget(userId: number): void;
  /**
   * `groupByBrand(products)`, memoised for a list this service handed out (the same array while
   * it is cached), so paging through brands does not regroup the list on every tap.
   */
  brands(products: readonly Product[]): BrandGroup[];
}

/** Words that describe the kind of product rather than its brand ("Telkomsel Data 1GB", "PLN Token 20.000"). */
const genericWords = new Set([
  'data',
  'token',
  'pulsa',
  'voucher',
  'paket',
  'internet',
  'reguler',
  'promo',
  'topup',
  'top',
  'up',
  'isi',
  'saldo',
]);

/**
 * Brand of a product, from the leading words of its name up to the first word with a digit (at
 * most two words, kind words like "Data" or "Token" dropped): "Telkomsel 10.000" → "Telkomsel",
 * "Mobile Legends 86 Diamonds" → "Mobile Legends", "PLN Token 20.000" → "PLN". Falls back to the
 * letters of the code. `groupByBrand` merges brands that are word-prefixes of one another.
 */
export function brandOf(product: Pick<Product, 'code' | 'product_name'>): string {
  const lead: string[] = [];
  for (const raw of product.product_name.trim().split(/\s+/)) {
    if (/\d/.test(raw) || lead.length === 2) break;
    const word = raw.replace(/[^\p{L}\p{N}&+.-]/gu, '');
    if (/\p{L}/u.test(word)) lead.push(word);
  }
  const words = lead.filter((word) => !genericWords.has(word.toLowerCase()));
  if (words.length > 0) return words.join(' ');
  const letters = product.code.match(/^[A-Za-z]+/)?.[0];
  return letters ? letters.toUpperCase() : 'Lainnya';
}

/** Products of one brand, in the provider's order. */
export interface BrandGroup {
  brand: string;
  products: Product[];
}

/**
 * The price list grouped by brand, brands in order of first appearance. A product whose brand
 * starts with a shorter brand's words joins that brand ("Genshin Impact Blessing…" → "Genshin
 * Impact"); brands are compared case-insensitively. `CatalogueService.brands` memoises it.
 */
export function groupByBrand(products: readonly Product[]): BrandGroup[] {
  const candidates = products.map((product) => brandOf(product));
  const keys = [...new Set(candidates.map((brand) => brand.toLowerCase()))].sort((a, b) => a.length - b.length);
  const groups = new Map<string, BrandGroup>();
  products.forEach((product, index) => {
    const candidate = candidates[index] ?? brandOf(product);
    const lower = candidate.toLowerCase();
    const key = keys.find((k) => lower === k || lower.startsWith(`${k} `)) ?? lower;
    const group = groups.get(key) ?? { brand: candidate.split(/\s+/).slice(0, key.split(' ').length).join(' '), products: [] };
    group.products.push(product);
    groups.set(key, group);
  });
  return [...groups.values()];
}

export function createCatalogueService(deps: { credentials: CredentialService; now: () => Date }): CatalogueService {
  const cache = new Map<number, { at: number; products: Product[] }>();
  /** Brand groups of the lists handed out; an array no longer cached is forgotten with it. */
  const groupsOf = new WeakMap<readonly Product[], BrandGroup[]>();
  const service: CatalogueService = {
    async priceList(userId, options) {
      const cached = cache.get(userId);
      const now = deps.now().getTime();
      if (cached && !options?.fresh && now - cached.at < priceListTtlMs) return cached.products;
      const client = deps.credentials.client(userId, 'reseller');
      if (!client) throw new Error('reseller not connected');
      const products = await client.priceList();
      cache.set(userId, { at: now, products });
      return products;
    },
    async product(userId, code) {
      const wanted = code.trim().toUpperCase();
      const products = await service.priceList(userId);
      return products.find((p) => p.code.toUpperCase() === wanted);
    },
    forget: (userId) => void cache.delete(userId),
    brands(products) {
      let groups = groupsOf.get(products);
      if (!groups) groupsOf.set(products, (groups = groupByBrand(products)));
      return groups;
    },
  };
  return service;
}
