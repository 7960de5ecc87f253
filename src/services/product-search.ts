/**
 * Price-list search as resellers type it: category words (`pulsa`, `data`, `token`, `game`…,
 * in Indonesian or English), brand aliases (`tsel`, `isat`, `3`, `ml`, `ff`…) and amounts (`10`,
 * `10k`, `10rb`, `10.000`, `5gb`). Pure functions over the provider's products (code, name,
 * price, status): the category, brand and amounts of a product are read from its name and code.
 */
import { isProductAvailable, type Product } from '../providers/reseller/schemas.ts';
import { brandOf } from './brands.ts';
import { operatorAliases, operatorNames, operatorOfProduct, productKind, type ProductKind } from '../domain/operators.ts';
import { boundedCache, productTextKey } from './memo.ts';

/** A category word of a search; `voucher` finds game vouchers and anything named "voucher". */
export type SearchCategory = ProductKind | 'voucher';

type ProductLike = Pick<Product, 'code' | 'product_name'>;

/** How one word (or two, "mobile legends", "10 rb") of a query was understood. */
export type SearchTerm =
  | { kind: 'category'; category: SearchCategory; word: string }
  | { kind: 'brand'; brand: string; label: string; word: string }
  /** A rupiah amount written as such: `10k`, `10rb`, `10.000`, `rp10000`, `1jt`. */
  | { kind: 'nominal'; value: number; word: string }
  /** A bare number: `10` is a nominal of 10.000, or 10 of something (diamonds, GB). */
  | { kind: 'number'; value: number; word: string }
  /** A data quota: `5gb`, `500mb`. */
  | { kind: 'size'; value: number; unit: 'gb' | 'mb'; word: string }
  /** Anything else, found in the code or name. */
  | { kind: 'word'; word: string };

export interface ParsedQuery {
  /** Normalised. */
  text: string;
  terms: SearchTerm[];
}

const categoryWords: ReadonlyMap<string, SearchCategory> = new Map(
  (
    [
      ['pulsa', ['pulsa', 'credit', 'airtime', 'reguler', 'regular']],
      ['data', ['data', 'internet', 'kuota', 'quota', 'paket data']],
      ['pln', ['token', 'pln', 'listrik', 'token listrik', 'electricity']],
      ['voucher', ['voucher', 'vocer', 'vouchers']],
      ['game', ['game', 'games', 'voucher game']],
      ['emoney', ['ewallet', 'e-wallet', 'e wallet', 'emoney', 'e-money', 'dompet', 'wallet']],
    ] as const
  ).flatMap(([category, words]) => words.map((word) => [word, category] as const)),
);

/** Brands other than operators: key, label, the short word used in examples, aliases, and the name pattern. */
const otherBrands: ReadonlyArray<{ key: string; label: string; short: string; aliases: readonly string[]; name: RegExp }> = [
  {
    key: 'mobile-legends',
    label: 'Mobile Legends',
    short: 'ml',
    aliases: ['ml', 'mlbb', 'mobile legends', 'mobilelegends'],
    name: /mobile\s?legends?/i,
  },
  { key: 'free-fire', label: 'Free Fire', short: 'ff', aliases: ['ff', 'freefire', 'free fire'], name: /free\s?fire/i },
  { key: 'pubg', label: 'PUBG Mobile', short: 'pubg', aliases: ['pubg', 'pubgm', 'pubg mobile'], name: /\bpubg/i },
  { key: 'genshin', label: 'Genshin Impact', short: 'genshin', aliases: ['genshin', 'gi', 'genshin impact'], name: /genshin/i },
  { key: 'dana', label: 'DANA', short: 'dana', aliases: ['dana'], name: /\bdana\b/i },
  { key: 'ovo', label: 'OVO', short: 'ovo', aliases: ['ovo'], name: /\bovo\b/i },
  { key: 'gopay', label: 'GoPay', short: 'gopay', aliases: ['gopay', 'go-pay', 'go pay', 'gojek'], name: /\bgo-?\s?pay\b/i },
  { key: 'shopeepay', label: 'ShopeePay', short: 'shopeepay', aliases: ['shopeepay', 'shopee', 'spay', 'shopee pay'], name: /shopee/i },
  { key: 'linkaja', label: 'LinkAja', short: 'linkaja', aliases: ['linkaja', 'link aja'], name: /link\s?aja/i },
  { key: 'pln', label: 'PLN', short: 'pln', aliases: [], name: /\bpln\b/i },
];

/** Short brand words used in suggested searches. */
const operatorShort: Readonly<Record<string, string>> = {
  telkomsel: 'tsel',
  indosat: 'isat',
  byu: 'byu',
  xl: 'xl',
  axis: 'axis',
  tri: 'tri',
  smartfren: 'smartfren',
};

const brandWords: ReadonlyMap<string, { brand: string; label: string }> = new Map([
  ...operatorAliases.flatMap(([operator, words]) =>
    words.map((word) => [word, { brand: operator, label: operatorNames[operator] }] as const),
  ),
  ...otherBrands.flatMap((b) => b.aliases.map((word) => [word, { brand: b.key, label: b.label }] as const)),
]);

/** Words that loosely mean a brand; a plain message made only of them is not taken as a search. */
const ambiguousWords = new Set(['halo', 'as', '3', 'loop', 'gi']);

/** Words that carry no meaning in a search, dropped when something else is left. */
const fillerWords = new Set([
  'rp',
  'harga',
  'price',
  'prices',
  'beli',
  'buy',
  'isi',
  'paket',
  'topup',
  'top',
  'up',
  'nominal',
  'yang',
  'untuk',
]);

const durationWords = new Set(['hari', 'day', 'days', 'jam', 'hour', 'hours', 'bulan', 'month', 'months', 'minggu', 'week', 'weeks']);
const thousandUnits = new Set(['k', 'rb', 'ribu', 'rbu']);
const millionUnits = new Set(['jt', 'juta']);

/** A number as written: `10`, `10.000`, `10,000`; undefined for anything else. */
function readNumber(text: string): { value: number; grouped: boolean } | undefined {
  if (/^\d{1,3}([.,]\d{3})+$/.test(text)) return { value: Number(text.replace(/[.,]/g, '')), grouped: true };
  if (/^\d+$/.test(text)) return { value: Number(text), grouped: false };
  return undefined;
}

/** An amount term from a number and the unit written after it (`10` + `rb`), or undefined. */
function amountTerm(numberText: string, unit: string, word: string, rupiah: boolean): SearchTerm | undefined {
  const number = readNumber(numberText);
  if (!number) return undefined;
  const { value, grouped } = number;
  if (unit === 'gb' || unit === 'mb') return { kind: 'size', value, unit, word };
  if (thousandUnits.has(unit)) return { kind: 'nominal', value: value * 1000, word };
  if (millionUnits.has(unit)) return { kind: 'nominal', value: value * 1_000_000, word };
  if (unit !== '') return undefined;
  return grouped || rupiah ? { kind: 'nominal', value, word } : { kind: 'number', value, word };
}

/** `10rb`, `5gb`, `rp10.000`, `10.000` as one word. */
function readAmountWord(word: string): SearchTerm | undefined {
  const match = /^(rp\.?)?(\d[\d.,]*?)([a-z]*)$/.exec(word);
  if (!match?.[2]) return undefined;
  return amountTerm(match[2], match[3] ?? '', word, match[1] !== undefined);
}

/**
 * How a query is understood, word by word (two-word names such as "mobile legends" or an amount
 * and its unit such as "10 rb" are read together). A bare `3` is Tri only when no other brand is
 * named. Filler words (`harga`, `rp`) are dropped unless nothing else is left.
 */
export function parseSearchQuery(query: string): ParsedQuery {
  const text = query.toLowerCase().replace(/\s+/g, ' ').trim();
  const words = text === '' ? [] : text.split(' ');
  const terms: SearchTerm[] = [];
  let rupiah = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const next = words[i + 1];
    const pair = next === undefined ? undefined : `${word} ${next}`;
    const pairTerm =
      pair === undefined
        ? undefined
        : (readWord(pair, rupiah) ?? (readNumber(word) && next ? amountTerm(word, next, pair, rupiah) : undefined));
    if (pairTerm && pair !== undefined) {
      terms.push(pairTerm);
      i++;
    } else if (word === 'rp' || word === 'rp.') {
      rupiah = true;
      continue;
    } else {
      terms.push(readWord(word, rupiah) ?? { kind: 'word', word });
    }
    rupiah = false;
  }
  const named = terms.filter((term) => term.kind === 'brand' && term.word !== '3').length > 0;
  const read = terms.map((term): SearchTerm => {
    if (term.kind === 'brand' && term.word === '3' && named) return { kind: 'number', value: 3, word: '3' };
    return term;
  });
  const meaningful = read.filter((term) => !(term.kind === 'word' && fillerWords.has(term.word)));
  return { text, terms: meaningful.length > 0 ? meaningful : read };
}

function readWord(word: string, rupiah: boolean): SearchTerm | undefined {
  const category = categoryWords.get(word);
  if (category) return { kind: 'category', category, word };
  const brand = brandWords.get(word);
  if (brand) return { kind: 'brand', ...brand, word };
  return rupiah && readNumber(word) ? amountTerm(word, '', word, true) : readAmountWord(word);
}

/**
 * True when a query means a search even typed as a plain message: at least one of its terms is
 * not a loose word like `halo` (a greeting, and Telkomsel's kartuHalo) or a bare `3`.
 */
export function isConfidentQuery(query: ParsedQuery): boolean {
  return query.terms.some((term) => !(term.kind === 'brand' && ambiguousWords.has(term.word)));
}

/** A product's brand key: an operator (`telkomsel`, `xl`…), a known game or e-wallet, else its `brandOf` in lower case. */
export function brandKeyOf(product: ProductLike): string {
  const operator = operatorOfProduct(product);
  if (operator) return operator;
  return otherBrands.find((brand) => brand.name.test(product.product_name))?.key ?? brandOf(product).toLowerCase();
}

/** The amounts in a product name: its face value in rupiah and the counts (86 diamonds, 5 GB). */
interface ProductAmounts {
  nominal?: number;
  counts: Array<{ value: number; unit?: 'gb' | 'mb' }>;
}

function amountsOf(product: ProductLike): ProductAmounts {
  const amounts: ProductAmounts = { counts: [] };
  for (const match of product.product_name.toLowerCase().matchAll(/(\d{1,3}(?:[.,]\d{3})+|\d+)\s*([a-z]*)/g)) {
    const number = readNumber(match[1] ?? '');
    const unit = match[2] ?? '';
    if (!number || durationWords.has(unit)) continue;
    if (unit === 'gb' || unit === 'mb') amounts.counts.push({ value: number.value, unit });
    else if (thousandUnits.has(unit)) amounts.nominal ??= number.value * 1000;
    else if (millionUnits.has(unit)) amounts.nominal ??= number.value * 1_000_000;
    else if (number.grouped) amounts.nominal ??= number.value;
    else if (unit !== '') amounts.counts.push({ value: number.value });
    else {
      if (number.value >= 1000) amounts.nominal ??= number.value;
      amounts.counts.push({ value: number.value });
    }
  }
  return amounts;
}

interface Facts {
  product: Product;
  category: ProductKind | undefined;
  brand: string;
  amounts: ProductAmounts;
  haystack: string;
}

/** Kept while the product object lives: a cached price list is searched again and again. */
const factsByProduct = new WeakMap<Product, Facts>();
/** Shared by every account's copy of a product: users of a hundred accounts search a hundred copies of one list. */
const textFacts = boundedCache<string, Omit<Facts, 'product'>>(20_000);

function factsOf(product: Product): Facts {
  let facts = factsByProduct.get(product);
  if (!facts) factsByProduct.set(product, (facts = { product, ...textFacts(productTextKey(product), () => readFacts(product)) }));
  return facts;
}

function readFacts(product: ProductLike): Omit<Facts, 'product'> {
  const name = product.product_name.toLowerCase();
  const brand = brandKeyOf(product);
  return {
    category: productKind(product),
    brand,
    amounts: amountsOf(product),
    haystack: `${product.code.toLowerCase()} ${name} ${name.replace(/(\d)[.,](?=\d)/g, '$1')} ${brandOf(product).toLowerCase()}`,
  };
}

/** The score of a word found only inside another word ("ok" in "token"). */
const partWord = 1;

/**
 * How well a product matches a term: 0 exactly (a word, or the start of the code), 1 loosely (a
 * quantity for a bare number, part of a word), undefined not at all.
 */
function matchTerm(facts: Facts, term: SearchTerm): 0 | 1 | undefined {
  const { amounts } = facts;
  switch (term.kind) {
    case 'category':
      if (term.category === 'voucher') return facts.category === 'game' || facts.haystack.includes('voucher') ? 0 : undefined;
      return facts.category === term.category ? 0 : undefined;
    case 'brand':
      return facts.brand === term.brand ? 0 : undefined;
    case 'nominal':
      return amounts.nominal === term.value ? 0 : undefined;
    case 'number': {
      const nominal = term.value < 1000 ? term.value * 1000 : term.value;
      if (amounts.nominal === nominal) return 0;
      return amounts.counts.some((count) => count.value === term.value) ? (facts.category === 'data' ? 1 : 0) : undefined;
    }
    case 'size':
      return amounts.counts.some((count) => count.value === term.value && count.unit === term.unit) ? 0 : undefined;
    case 'word': {
      if (!facts.haystack.includes(term.word)) return undefined;
      if (term.word.length >= 2 && facts.product.code.toLowerCase().startsWith(term.word)) return 0;
      const whole = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(term.word)}($|[^\\p{L}\\p{N}])`, 'u');
      return whole.test(facts.haystack) ? 0 : partWord;
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Products matching every term of `query` (see `parseSearchQuery`), best first: a product whose
 * code is typed exactly, then exact matches before loose ones (a 10.000 nominal before a 10GB
 * package for `telkomsel 10`), available before unavailable, then cheapest, then provider order.
 * An empty query lists every product in provider order. With `wholeWords`, a typed word must be a
 * whole word of the name or the start of the code (what a plain message needs to count as a search).
 */
export function searchProducts(
  products: readonly Product[],
  query: string | ParsedQuery,
  options: { wholeWords?: boolean } = {},
): Product[] {
  const parsed = typeof query === 'string' ? parseSearchQuery(query) : query;
  if (parsed.terms.length === 0) return [...products];
  const words = new Set(parsed.text.split(' '));
  const ranked: Array<{ facts: Facts; index: number; code: number; loose: number; unavailable: number }> = [];
  products.forEach((product, index) => {
    const facts = factsOf(product);
    let loose = 0;
    for (const term of parsed.terms) {
      const score = matchTerm(facts, term);
      if (score === undefined || (options.wholeWords && term.kind === 'word' && score === partWord)) return;
      loose += score;
    }
    ranked.push({
      facts,
      index,
      code: words.has(product.code.toLowerCase()) ? 0 : 1,
      loose,
      unavailable: isProductAvailable(product) ? 0 : 1,
    });
  });
  ranked.sort(
    (a, b) =>
      a.code - b.code ||
      a.loose - b.loose ||
      a.unavailable - b.unavailable ||
      a.facts.product.price - b.facts.product.price ||
      a.index - b.index,
  );
  return ranked.map((entry) => entry.facts.product);
}

/** A search that finds `product`: category, short brand and amount (`pulsa xl 25`, `data tsel 5gb`, `ml 86`), else its code. */
function exampleFor(facts: Facts): string {
  const short = operatorShort[facts.brand] ?? otherBrands.find((b) => b.key === facts.brand)?.short;
  const { nominal, counts } = facts.amounts;
  const size = counts.find((count) => count.unit !== undefined);
  const count = counts[0];
  let example: string | undefined;
  if (facts.category === 'pln' && nominal) example = `token pln ${nominal / 1000}`;
  else if (short && facts.category === 'pulsa' && nominal) example = `pulsa ${short} ${nominal / 1000}`;
  else if (short && facts.category === 'data' && size) example = `data ${short} ${size.value}${size.unit ?? ''}`;
  else if (short && facts.category === 'emoney' && nominal) example = `${short} ${nominal / 1000}`;
  else if (short && facts.category === 'game' && count) example = `${short} ${count.value}`;
  if (example && searchProducts([facts.product], example).length > 0) return example;
  return facts.product.code.toLowerCase();
}

/**
 * Up to `max` searches that do find something, for the answer to a search that found nothing.
 * Close to what was asked when possible: the products of the query's brand and category nearest
 * to its amount (`pulsa xl 30` → `pulsa xl 25`, `pulsa xl 50`); otherwise one per kind of product.
 */
export function searchExamples(products: readonly Product[], query: ParsedQuery, max = 4): string[] {
  const available = products.map((product) => factsOf(product)).filter((facts) => isProductAvailable(facts.product));
  const kept = query.terms.filter((term) => term.kind === 'brand' || term.kind === 'category');
  const amount = query.terms.find((term) => term.kind === 'nominal' || term.kind === 'number' || term.kind === 'size');
  const near = kept.length > 0 ? available.filter((facts) => kept.every((term) => matchTerm(facts, term) !== undefined)) : [];
  let chosen: Facts[];
  if (near.length > 0 && amount) {
    // The nearest smaller and the nearest larger amount of the same brand and category.
    const measured = near.flatMap((facts) => {
      const pair = measure(facts, amount);
      return pair ? [{ facts, have: pair.have, want: pair.want }] : [];
    });
    const below = measured.filter((m) => m.have < m.want).sort((a, b) => b.have - a.have)[0];
    const above = measured.filter((m) => m.have > m.want).sort((a, b) => a.have - b.have)[0];
    chosen = [below, above].flatMap((m) => (m ? [m.facts] : []));
    if (chosen.length === 0) chosen = near.slice(0, 2);
  } else if (near.length > 0) {
    chosen = near.slice(0, 2);
  } else {
    const kinds: ProductKind[] = ['pulsa', 'data', 'pln', 'game', 'emoney'];
    chosen = kinds.flatMap((kind) => available.find((facts) => facts.category === kind) ?? []);
  }
  return [...new Set(chosen.map(exampleFor))].slice(0, max);
}

/** A product's amount comparable with an amount term (`have`), and the term's (`want`); undefined when they do not compare. */
function measure(facts: Facts, term: SearchTerm): { have: number; want: number } | undefined {
  const { nominal, counts } = facts.amounts;
  if (term.kind === 'size') {
    const size = counts.find((count) => count.unit === term.unit);
    return size ? { have: size.value, want: term.value } : undefined;
  }
  if (term.kind === 'nominal') return nominal === undefined ? undefined : { have: nominal, want: term.value };
  if (term.kind !== 'number') return undefined;
  if (nominal !== undefined) return { have: nominal, want: term.value < 1000 ? term.value * 1000 : term.value };
  const count = counts[0];
  return count ? { have: count.value, want: term.value } : undefined;
}
