/**
 * Sell prices (/jual): a reseller's markup rules and what they make of a product's cost. Pure.
 *
 * One default rule (a fixed amount of rupiah or a percent of the cost), overrides per brand and
 * per product code (product beats brand beats default), and a step every marked-up price is
 * rounded UP to (Rp 500: 10.150 + 850 stays 11.000, + 851 becomes 11.500). A product may also get
 * an exact sell price (not rounded). No rules: sell = cost, margin 0.
 */
import type { Markup, SellRules } from '../store/records/users.ts';
import { isOfBrand } from './brands.ts';

export type { Markup, SellRules } from '../store/records/users.ts';

/** The rounding steps offered as buttons (1 = not rounded). */
export const roundingSteps = [1, 100, 500, 1000] as const;

/** Largest markups accepted either way: typo guards, not business rules (sums of many sales stay exact integers). */
export const sellLimits = { rupiah: 10_000_000, percent: 1000 } as const;

/** Longest override line read: a longer one is refused unread, as the line pattern may backtrack (quadratic or worse). */
const maxOverrideLineLength = 100;

/** What a product costs and sells for under the rules, and which rule decided it. */
export interface SellPrice {
  cost: number;
  sell: number;
  /** sell - cost; negative is a loss. */
  margin: number;
  loss: boolean;
  rule: 'none' | 'default' | 'brand' | 'product';
}

/** A reseller's sell price of a price-list product; `undefined` when they set no rules. */
export type SellPriceOf = (userId: number, product: PricedCard) => number | undefined;

export interface PricedCard {
  code: string;
  name: string;
  brand: string;
  price: number;
}

/** A reseller's sell prices: their rules read once, then each product priced without another read. */
export type SellPricesOf = (userId: number) => Promise<(product: PricedCard) => number | undefined>;

export interface PricedProduct {
  code: string;
  product_name: string;
  price: number;
}

/** Rules that change nothing: no default, no overrides, no rounding. */
export function emptySellRules(): SellRules {
  return { step: 1, brands: {}, products: {} };
}

/** True when the rules make any price differ from the cost (a step alone counts). */
export function hasSellRules(rules: SellRules | undefined): rules is SellRules {
  if (!rules) return false;
  return rules.default !== undefined || rules.step > 1 || Object.keys(rules.brands).length > 0 || Object.keys(rules.products).length > 0;
}

/** `amount` rounded up to a multiple of `step` (step 1 or less: unchanged). */
export function roundUp(amount: number, step: number): number {
  return step <= 1 ? Math.ceil(amount) : Math.ceil(amount / step) * step;
}

/** Cost plus `markup`, rounded up to `step` (an exact price is taken as it is). */
export function applyMarkup(cost: number, markup: Markup, step: number): number {
  switch (markup.kind) {
    case 'price':
      return markup.price;
    case 'fixed':
      return roundUp(cost + markup.amount, step);
    case 'percent': {
      // In hundredths of a percent, so 2.5 % of 10.150 is computed exactly (10.403,75 → up).
      const basisPoints = Math.round(markup.percent * 100);
      const scaled = cost * (10_000 + basisPoints);
      return Math.ceil(scaled / (10_000 * Math.max(1, step))) * Math.max(1, step);
    }
  }
}

/** The brand override that applies to `product` (the longest matching brand name), if any. */
function brandRuleOf(rules: SellRules, product: PricedProduct): Markup | undefined {
  let best: { name: string; markup: Markup } | undefined;
  for (const [name, markup] of Object.entries(rules.brands)) {
    if (isOfBrand(product, name) && (!best || name.length > best.name.length)) best = { name, markup };
  }
  return best?.markup;
}

/** The cost, sell price and margin of `product` under `rules` (none: sell = cost). */
export function sellPriceOf(rules: SellRules | undefined, product: PricedProduct): SellPrice {
  const cost = product.price;
  const priced = (sell: number, rule: SellPrice['rule']): SellPrice => ({ cost, sell, margin: sell - cost, loss: sell < cost, rule });
  if (!rules) return priced(cost, 'none');
  const own = rules.products[product.code.toUpperCase()];
  if (own) return priced(applyMarkup(cost, own, rules.step), 'product');
  const brand = brandRuleOf(rules, product);
  if (brand) return priced(applyMarkup(cost, brand, rules.step), 'brand');
  if (rules.default) return priced(applyMarkup(cost, rules.default, rules.step), 'default');
  return priced(roundUp(cost, rules.step), 'none');
}

/** The rules with a new default markup and rounding step. */
export function withDefaultRule(rules: SellRules | undefined, markup: Markup, step: number): SellRules {
  return { ...(rules ?? emptySellRules()), default: markup, step };
}

/** Brand names as keys: single-spaced, upper case. */
export const brandKey = (name: string): string => name.trim().replace(/\s+/g, ' ').toUpperCase();

/** The rules with the override of brand `name` set, or removed (`undefined`). */
export function withBrandRule(rules: SellRules | undefined, name: string, markup: Markup | undefined): SellRules {
  const base = rules ?? emptySellRules();
  const brands = { ...base.brands };
  if (markup) brands[brandKey(name)] = markup;
  else delete brands[brandKey(name)];
  return { ...base, brands };
}

/** The rules with the override of product `code` set, or removed (`undefined`). */
export function withProductRule(rules: SellRules | undefined, code: string, markup: Markup | undefined): SellRules {
  const base = rules ?? emptySellRules();
  const products = { ...base.products };
  if (markup) products[code.trim().toUpperCase()] = markup;
  else delete products[code.trim().toUpperCase()];
  return { ...base, products };
}

/** A markup as typed: `+`/`-`/`=`, `Rp`, digits with `.`/`,`, and `%` or `rb`/`ribu`/`k`. */
const markupPattern = /^(?<op>[+=-])?\s*(?<rp>rp\.?\s*)?(?<num>\d[\d.,]*)\s*(?<unit>%|rb|ribu|k)?$/i;
const valuePattern = String.raw`(?:[+=-]\s*)?(?:rp\.?\s*)?\d[\d.,]*\s*(?:%|rb|ribu|k)?`;
const overridePattern = new RegExp(String.raw`^(?<name>.+?)\s+(?<value>${valuePattern}|hapus|remove|delete|-)$`, 'i');

/** Rupiah typed with thousands separators (`1.500`, `1,500`) or none (`1500`). */
function parseRupiah(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (/^\d{1,3}([.,]\d{3})+$/.test(text)) return Number(text.replace(/[.,]/g, ''));
  return undefined;
}

/** A decimal typed with `,` or `.` and at most two decimals (`2,5`, `2.25`). */
function parseDecimal(text: string): number | undefined {
  return /^\d+([.,]\d{1,2})?$/.test(text) ? Number(text.replace(',', '.')) : undefined;
}

/** Up to this, a bare number is ambiguous: `10` is far more often meant as 10% than as Rp 10, so the reseller must say which. */
export const ambiguousMarkupMax = 100;

type MarkupRead = { markup: Markup } | { tooLarge: true } | { ambiguous: number } | undefined;

/**
 * A markup as a reseller types it: `5%`, `2,5%`, `1500`, `Rp 1.500`, `+1.000`, `1,5rb`, `2k`; with
 * `override` also negative, with `price` an exact sell price (`=12.500`). `tooLarge` beyond
 * `sellLimits`; `ambiguous` (signed) for a bare number up to `ambiguousMarkupMax`; undefined for none.
 */
export function readMarkup(text: string, options: { override?: boolean; price?: boolean } = {}): MarkupRead {
  const match = markupPattern.exec(text.trim());
  if (!match?.groups) return undefined;
  const { op, rp, num = '', unit } = match.groups;
  if (op === '-' && !options.override) return undefined;
  if (op === '=' && !options.price) return undefined;
  const sign = op === '-' ? -1 : 1;
  let amount: number | undefined;
  if (unit === '%') {
    if (op === '=') return undefined;
    const percent = parseDecimal(num);
    if (percent === undefined) return undefined;
    return percent > sellLimits.percent ? { tooLarge: true } : { markup: { kind: 'percent', percent: sign * percent + 0 } };
  }
  if (unit) {
    const thousands = parseDecimal(num);
    amount = thousands === undefined ? undefined : Math.round(thousands * 1000);
  } else {
    amount = parseRupiah(num);
    const bare = rp === undefined && op !== '=' && /^\d+$/.test(num);
    if (bare && amount !== undefined && amount >= 1 && amount <= ambiguousMarkupMax) return { ambiguous: sign * amount };
  }
  if (amount === undefined) return undefined;
  if (amount > sellLimits.rupiah) return { tooLarge: true };
  return { markup: op === '=' ? { kind: 'price', price: amount } : { kind: 'fixed', amount: sign * amount + 0 } };
}

/**
 * An override line: a brand or product code, then a markup (`TELKOMSEL 1000`, `TSEL10 =12500`) or a
 * removal word (`hapus`, `remove`, `-`); the name in upper case, `tooLarge`/`ambiguous` as
 * `readMarkup`. `price`: exact prices allowed (products). Undefined for a line it cannot read.
 */
export function parseOverride(
  text: string,
  options: { price?: boolean } = {},
): { name: string; markup: Markup | 'remove' } | { name: string; tooLarge: true } | { name: string; ambiguous: number } | undefined {
  const line = text.trim();
  if (line.length > maxOverrideLineLength) return undefined;
  const match = overridePattern.exec(line);
  if (!match?.groups) return undefined;
  const name = brandKey(match.groups.name ?? '');
  const value = (match.groups.value ?? '').trim();
  if (name === '' || /^\d+$/.test(name)) return undefined;
  if (/^(hapus|remove|delete|-)$/i.test(value)) return { name, markup: 'remove' };
  const read = readMarkup(value, { override: true, price: options.price ?? false });
  if (!read) return undefined;
  if ('ambiguous' in read) return { name, ambiguous: read.ambiguous };
  return 'markup' in read ? { name, markup: read.markup } : { name, tooLarge: true };
}
