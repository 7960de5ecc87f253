import { describe, expect, it } from 'vitest';
import { categoryOf, groupByCategory } from '../../src/services/catalogue.ts';
import { groupByBrand } from '../../src/services/brands.ts';
import { resellerDemoProducts } from '../../tools/sandbox/reseller.ts';

/** The sandbox's products as the spec's price list carries them: no category on the wire. */
const wire = resellerDemoProducts.map((p) => ({ product_name: p.name, code: p.code, price: p.price, status: p.status }));
const product = (product_name: string, code: string, category?: string) => ({
  product_name,
  code,
  price: 1000,
  status: 'active',
  category,
});

describe('categories of the price list', () => {
  it('reads the category of every sandbox product from its name and code, as the sandbox files it', () => {
    const expected: Record<string, string> = { pulsa: 'pulsa', data: 'data', pln: 'pln', ewallet: 'emoney', game: 'game' };
    const wrong = resellerDemoProducts.filter((p, i) => categoryOf(wire[i]!) !== expected[p.category]).map((p) => p.code);
    expect(wrong).toEqual([]);
  });

  it('groups known categories in a fixed order, then the provider’s own words, then the rest', () => {
    const groups = groupByCategory([
      product('Random Thing 5', 'RND5'),
      product('Voucher Netflix 1 Bulan', 'NFX1', 'Streaming'),
      product('Mobile Legends 86 Diamonds', 'ML86'),
      product('Telkomsel 10.000', 'TSEL10'),
      product('XL 5.000', 'XLX5', 'Pulsa'),
      product('Spotify Premium', 'SPOT1', 'Streaming'),
      product('Token 20k', 'T20', 'PLN'),
      product('Saldo 10', 'W10', 'E-Money'),
    ]);
    expect(groups.map((g) => [g.category, g.products.map((p) => p.code)])).toEqual([
      ['pulsa', ['TSEL10', 'XLX5']],
      ['pln', ['T20']],
      ['emoney', ['W10']],
      ['game', ['ML86']],
      ['Streaming', ['NFX1', 'SPOT1']],
      ['other', ['RND5']],
    ]);
  });

  it("an operator's games data package is listed under data, with that operator's data, not under games", () => {
    expect(categoryOf(product('Telkomsel Kuota Games 5GB', 'TSELGAME5'))).toBe('data');
    expect(categoryOf(product('Telkomsel Kuota Games 5GB', 'TSELGAME5', 'Data'))).toBe('data');
    const data = groupByCategory([...wire, product('Telkomsel Kuota Games 5GB', 'TSELGAME5')]).find((g) => g.category === 'data');
    const telkomsel = groupByBrand(data?.products ?? []).find((b) => b.brand === 'Telkomsel');
    expect(telkomsel?.products.map((p) => p.code)).toContain('TSELGAME5');
  });

  it('brands within a category: data products of Telkomsel are one brand, apart from other operators', () => {
    const data = groupByCategory(wire).find((g) => g.category === 'data')?.products ?? [];
    expect(groupByBrand(data).map((b) => b.brand)).toEqual(['Telkomsel', 'Indosat', 'XL', 'Axis', 'Tri', 'Smartfren']);
  });
});
