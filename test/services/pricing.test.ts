import { describe, expect, it } from 'vitest';
import {
  emptySellRules,
  parseOverride,
  readMarkup,
  sellLimits,
  roundUp,
  sellPriceOf,
  withBrandRule,
  withDefaultRule,
  withProductRule,
  type Markup,
  type SellRules,
} from '../../src/services/pricing.ts';
import { longestPatternInput } from '../helpers/pattern-work.ts';

/** `readMarkup`'s markup, or undefined for anything else (no markup, or one over `sellLimits`). */
function parseMarkup(text: string, options: Parameters<typeof readMarkup>[1] = {}): Markup | undefined {
  const read = readMarkup(text, options);
  return read && 'markup' in read ? read.markup : undefined;
}

const tsel10 = { code: 'TSEL10', product_name: 'Telkomsel 10.000', price: 10_150 };
const xl5 = { code: 'XL5', product_name: 'XL 5.000', price: 5_600 };
const ml86 = { code: 'ML86', product_name: 'Mobile Legends 86 Diamonds', price: 20_000 };

const rules = (patch: Partial<SellRules>): SellRules => ({ ...emptySellRules(), ...patch });

describe('sellPriceOf: markup rules and rounding', () => {
  it.each([
    { name: 'no rules: sell equals cost', rules: undefined, product: tsel10, sell: 10_150 },
    { name: 'empty rules: sell equals cost', rules: emptySellRules(), product: tsel10, sell: 10_150 },
    { name: 'fixed markup, no rounding', rules: rules({ default: { kind: 'fixed', amount: 850 } }), product: tsel10, sell: 11_000 },
    {
      name: 'fixed markup rounded up to 500',
      rules: rules({ default: { kind: 'fixed', amount: 500 }, step: 500 }),
      product: tsel10,
      sell: 11_000,
    },
    {
      name: 'exactly on a step stays',
      rules: rules({ default: { kind: 'fixed', amount: 850 }, step: 500 }),
      product: tsel10,
      sell: 11_000,
    },
    {
      name: 'one rupiah over a step goes up a step',
      rules: rules({ default: { kind: 'fixed', amount: 851 }, step: 500 }),
      product: tsel10,
      sell: 11_500,
    },
    { name: 'percent', rules: rules({ default: { kind: 'percent', percent: 10 } }), product: tsel10, sell: 11_165 },
    {
      name: 'percent with decimals, fractions round up',
      rules: rules({ default: { kind: 'percent', percent: 2.5 } }),
      product: tsel10,
      sell: 10_404,
    },
    {
      name: 'percent with decimals to 100',
      rules: rules({ default: { kind: 'percent', percent: 2.5 }, step: 100 }),
      product: tsel10,
      sell: 10_500,
    },
    {
      name: '2.5% of 20.000 is exact',
      rules: rules({ default: { kind: 'percent', percent: 2.5 }, step: 500 }),
      product: ml86,
      sell: 20_500,
    },
    { name: '0.01% rounds up by a rupiah', rules: rules({ default: { kind: 'percent', percent: 0.01 } }), product: xl5, sell: 5_601 },
    { name: 'zero markup: sell is cost', rules: rules({ default: { kind: 'fixed', amount: 0 } }), product: tsel10, sell: 10_150 },
    {
      name: 'zero markup still rounds up',
      rules: rules({ default: { kind: 'percent', percent: 0 }, step: 1000 }),
      product: tsel10,
      sell: 11_000,
    },
    { name: 'step alone rounds the cost up', rules: rules({ step: 1000 }), product: xl5, sell: 6_000 },
  ])('$name', ({ rules: given, product, sell }) => {
    const price = sellPriceOf(given, product);
    expect(price).toMatchObject({ cost: product.price, sell, margin: sell - product.price, loss: false });
  });

  it('a product override beats a brand override, which beats the default', () => {
    let r = withDefaultRule(emptySellRules(), { kind: 'fixed', amount: 500 }, 1);
    r = withBrandRule(r, 'telkomsel', { kind: 'fixed', amount: 1_000 });
    r = withBrandRule(r, 'Mobile Legends', { kind: 'percent', percent: 5 });
    r = withProductRule(r, 'tsel10', { kind: 'price', price: 12_500 });
    expect(sellPriceOf(r, tsel10)).toMatchObject({ sell: 12_500, margin: 2_350, rule: 'product' });
    expect(sellPriceOf(r, { ...tsel10, code: 'TSEL20', price: 20_000 })).toMatchObject({ sell: 21_000, margin: 1_000, rule: 'brand' });
    expect(sellPriceOf(r, ml86)).toMatchObject({ sell: 21_000, rule: 'brand' });
    expect(sellPriceOf(r, xl5)).toMatchObject({ sell: 6_100, margin: 500, rule: 'default' });
  });

  it('a fixed product price is not rounded; one below cost is allowed and flagged as a loss', () => {
    const r = withProductRule(rules({ default: { kind: 'fixed', amount: 500 }, step: 500 }), 'TSEL10', { kind: 'price', price: 9_999 });
    expect(sellPriceOf(r, tsel10)).toEqual({ cost: 10_150, sell: 9_999, margin: -151, loss: true, rule: 'product' });
    const minus = withProductRule(emptySellRules(), 'XL5', { kind: 'fixed', amount: -100 });
    expect(sellPriceOf(minus, xl5)).toMatchObject({ sell: 5_500, margin: -100, loss: true });
  });

  it('removing an override (undefined) falls back to the next rule', () => {
    let r = withProductRule(withBrandRule(emptySellRules(), 'XL', { kind: 'fixed', amount: 400 }), 'XL5', { kind: 'fixed', amount: 900 });
    r = withProductRule(r, 'xl5', undefined);
    expect(sellPriceOf(r, xl5)).toMatchObject({ sell: 6_000, rule: 'brand' });
    r = withBrandRule(r, 'xl', undefined);
    expect(sellPriceOf(r, xl5)).toMatchObject({ sell: 5_600, rule: 'none' });
  });

  it.each([
    [10_150, 1, 10_150],
    [10_150, 100, 10_200],
    [10_000, 500, 10_000],
    [10_001, 1000, 11_000],
  ])('roundUp(%i, %i) = %i', (amount, step, expected) => expect(roundUp(amount, step)).toBe(expected));
});

describe('parseMarkup / parseOverride: what a reseller types', () => {
  it.each([
    ['5%', { kind: 'percent', percent: 5 }],
    ['2,5%', { kind: 'percent', percent: 2.5 }],
    ['2.5 %', { kind: 'percent', percent: 2.5 }],
    ['1500', { kind: 'fixed', amount: 1500 }],
    ['Rp 1.500', { kind: 'fixed', amount: 1500 }],
    ['rp1500', { kind: 'fixed', amount: 1500 }],
    ['+1.000', { kind: 'fixed', amount: 1000 }],
    ['1,5rb', { kind: 'fixed', amount: 1500 }],
    ['2k', { kind: 'fixed', amount: 2000 }],
    ['0', { kind: 'fixed', amount: 0 }],
  ])('default %s', (text, markup) => expect(parseMarkup(text)).toEqual(markup));

  it.each(['', 'lima persen', '5%%', '2.555%', '-500', '=12500', '1.5', '12,34,5', '2000%'])('default %j is refused', (text) =>
    expect(parseMarkup(text)).toBeUndefined(),
  );

  it('an override may be negative or (for a product) an exact sell price', () => {
    expect(parseMarkup('-500', { override: true })).toEqual({ kind: 'fixed', amount: -500 });
    expect(parseMarkup('=12.500', { override: true, price: true })).toEqual({ kind: 'price', price: 12_500 });
    expect(parseMarkup('=12.500', { override: true })).toBeUndefined();
  });

  it.each([
    ['TELKOMSEL 1000', { name: 'TELKOMSEL', markup: { kind: 'fixed', amount: 1000 } }],
    ['mobile legends 5%', { name: 'MOBILE LEGENDS', markup: { kind: 'percent', percent: 5 } }],
    ['tsel10 = Rp 12.500', { name: 'TSEL10', markup: { kind: 'price', price: 12_500 } }],
    ['TSEL10  hapus', { name: 'TSEL10', markup: 'remove' }],
    ['XL5 remove', { name: 'XL5', markup: 'remove' }],
    ['XL5 -', { name: 'XL5', markup: 'remove' }],
  ])('override %j', (text, expected) => expect(parseOverride(text, { price: true })).toEqual(expected));

  it.each(['TELKOMSEL', '1000', 'TSEL10 mahal', ''])('override %j is refused', (text) =>
    expect(parseOverride(text, { price: true })).toBeUndefined(),
  );
});

describe('a bare small number is ambiguous: 10 may mean 10% or Rp 10', () => {
  it.each(['10', '1', '100', '+10', ' 25 '])('%j is neither a percent nor rupiah until the reseller says which', (text) => {
    expect(readMarkup(text)).toEqual({ ambiguous: Number(text.replace('+', '').trim()) });
    expect(parseMarkup(text)).toBeUndefined();
  });

  it.each([
    ['10%', { kind: 'percent', percent: 10 }],
    ['Rp 10', { kind: 'fixed', amount: 10 }],
    ['rp10', { kind: 'fixed', amount: 10 }],
    ['101', { kind: 'fixed', amount: 101 }],
    ['1000', { kind: 'fixed', amount: 1000 }],
    ['1,5rb', { kind: 'fixed', amount: 1500 }],
    ['0', { kind: 'fixed', amount: 0 }],
  ])('%j stays unambiguous', (text, markup) => expect(parseMarkup(text)).toEqual(markup));

  it('holds for override lines too (a negative bare number included)', () => {
    expect(parseOverride('TELKOMSEL 10', { price: true })).toEqual({ name: 'TELKOMSEL', ambiguous: 10 });
    expect(parseOverride('TSEL10 -5', { price: true })).toEqual({ name: 'TSEL10', ambiguous: -5 });
    expect(parseOverride('TSEL10 Rp 10', { price: true })).toEqual({ name: 'TSEL10', markup: { kind: 'fixed', amount: 10 } });
    expect(parseOverride('TSEL10 =50', { price: true })).toEqual({ name: 'TSEL10', markup: { kind: 'price', price: 50 } });
  });
});

describe('markup caps: a typo never makes a price of Rp 10^15', () => {
  it.each([
    ['10000000', { markup: { kind: 'fixed', amount: 10_000_000 } }],
    ['10.000.001', { tooLarge: true }],
    ['1000000000000000', { tooLarge: true }],
    ['99999999999999999999', { tooLarge: true }],
    ['10001rb', { tooLarge: true }],
    ['1000%', { markup: { kind: 'percent', percent: 1000 } }],
    ['1000,5%', { tooLarge: true }],
    ['2000%', { tooLarge: true }],
  ] as const)('default %j → %j', (text, expected) => expect(readMarkup(text)).toEqual(expected));

  it('holds for negative overrides and exact prices too', () => {
    expect(readMarkup('-10.000.001', { override: true })).toEqual({ tooLarge: true });
    expect(readMarkup('-2000%', { override: true })).toEqual({ tooLarge: true });
    expect(readMarkup('=10.000.001', { override: true, price: true })).toEqual({ tooLarge: true });
    expect(readMarkup('=10.000.000', { override: true, price: true })).toEqual({ markup: { kind: 'price', price: 10_000_000 } });
    expect(parseOverride('TSEL10 =1000000000000000', { price: true })).toEqual({ name: 'TSEL10', tooLarge: true });
    expect(parseMarkup('1000000000000000')).toBeUndefined();
  });

  it('the caps are Rp 10.000.000 and 1000%', () => {
    expect(sellLimits).toEqual({ rupiah: 10_000_000, percent: 1000 });
  });

  // Override lines come several to a message of up to 4,095 characters; one shape made the line
  // pattern backtrack over the whole line (about 100 ms for one line).
  it.each([
    ['spaces', `a${' '.repeat(4093)}x`],
    ['rp and spaces', `TSEL10 rp${' '.repeat(4085)}x`],
  ])('a 4,095-character override line (%s) is refused after matching a short prefix at most', (_shape, line) => {
    let read: ReturnType<typeof parseOverride>;
    const longest = longestPatternInput(() => (read = parseOverride(line, { price: true })));
    expect(read!).toBeUndefined();
    expect(longest).toBeLessThanOrEqual(100);
  });
});
