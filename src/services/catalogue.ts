import type { Providers } from '../providers/factory.ts';
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
}

/** Brand of a product, from its name's first word(s) or its code's letters: "Telkomsel 10.000" → "Telkomsel". */
export function brandOf(product: Product): string {
  const name = product.product_name.trim();
  const word = name.split(/\s+/)[0] ?? '';
  if (word.length >= 2 && /[a-z]/i.test(word)) return word.replace(/[^\p{L}\p{N}&+-]/gu, '') || word;
  const letters = product.code.match(/^[A-Za-z]+/)?.[0];
  return letters ? letters.toUpperCase() : 'Lainnya';
}

export function createCatalogueService(deps: { providers: Providers; credentials: CredentialService; now: () => Date }): CatalogueService {
  const cache = new Map<number, { at: number; products: Product[] }>();
  const service: CatalogueService = {
    async priceList(userId, options) {
      const cached = cache.get(userId);
      const now = deps.now().getTime();
      if (cached && !options?.fresh && now - cached.at < priceListTtlMs) return cached.products;
      const credentials = deps.credentials.load(userId, 'reseller');
      if (!credentials) throw new Error('reseller not connected');
      const products = await deps.providers.reseller(credentials).priceList();
      cache.set(userId, { at: now, products });
      return products;
    },
    async product(userId, code) {
      const wanted = code.trim().toUpperCase();
      const products = await service.priceList(userId);
      return products.find((p) => p.code.toUpperCase() === wanted);
    },
    forget: (userId) => void cache.delete(userId),
  };
  return service;
}
