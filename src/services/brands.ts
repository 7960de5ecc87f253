/**
 * Brands of products, read from their names: how the price list is grouped, and how /jual and
 * level rules name a brand.
 */
import type { Product } from '../providers/reseller/schemas.ts';
import { boundedCache, productTextKey } from './memo.ts';

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
  return brands(productTextKey(product), () => readBrand(product));
}

/** Brands already read, by product code and name: every account's copy of a list asks for the same few hundred products. */
const brands = boundedCache<string, string>(20_000);

function readBrand(product: Pick<Product, 'code' | 'product_name'>): string {
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

/** True when a product named `name` (code `code`) belongs to brand `brand` as `groupByBrand` groups brands. */
export function isOfBrand(product: { product_name: string; code: string }, brand: string): boolean {
  const own = brandOf(product).toLowerCase();
  const wanted = brand.toLowerCase();
  return own === wanted || own.startsWith(`${wanted} `);
}
