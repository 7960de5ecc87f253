import { describe, expect, it } from 'vitest';
import { productKind } from '../../src/domain/operators.ts';
import { brandKeyOf, isConfidentQuery, parseSearchQuery, searchExamples, searchProducts } from '../../src/services/product-search.ts';
import type { Product } from '../../src/services/providers.ts';
import { resellerDemoProducts } from '../../tools/sandbox/reseller.ts';

/** The sandbox price list as /price-list answers it (code, name, price, status). */
const priceList: Product[] = resellerDemoProducts.map((p) => ({ code: p.code, product_name: p.name, price: p.price, status: p.status }));

const codes = (query: string, list: readonly Product[] = priceList) => searchProducts(list, query).map((p) => p.code);

describe('productKind and brandKeyOf over the sandbox price list', () => {
  it('infers the category the sandbox files every product under, from its code and name only', () => {
    const kindOf = (category: string) => (category === 'ewallet' ? 'emoney' : category);
    const wrong = resellerDemoProducts.filter((p) => productKind({ code: p.code, product_name: p.name }) !== kindOf(p.category));
    expect(wrong.map((p) => `${p.code} ${p.category}`)).toEqual([]);
  });

  it('gives every product of one sandbox brand the same brand key, and different brands different keys', () => {
    const keysByBrand = new Map<string, Set<string>>();
    for (const p of resellerDemoProducts) {
      const keys = keysByBrand.get(p.brand) ?? new Set<string>();
      keys.add(brandKeyOf({ code: p.code, product_name: p.name }));
      keysByBrand.set(p.brand, keys);
    }
    for (const keys of keysByBrand.values()) expect(keys.size).toBe(1);
    const all = [...keysByBrand.values()].map((keys) => [...keys][0]);
    expect(new Set(all).size).toBe(keysByBrand.size);
  });
});

describe('searchProducts: categories, brands and amounts', () => {
  it.each([
    ['pulsa xl', ['XL5', 'XL10', 'XL15', 'XL25', 'XL50', 'XL100', 'XL200']],
    ['xl pulsa', ['XL5', 'XL10', 'XL15', 'XL25', 'XL50', 'XL100', 'XL200']],
    ['credit xl', ['XL5', 'XL10', 'XL15', 'XL25', 'XL50', 'XL100', 'XL200']],
    ['data telkomsel', ['TSELD1GB', 'TSELD3GB', 'TSELD5GB', 'TSELD10GB', 'TSELD25GB']],
    ['data tsel', ['TSELD1GB', 'TSELD3GB', 'TSELD5GB', 'TSELD10GB', 'TSELD25GB']],
    ['token pln 50', ['PLN50']],
    ['pln 50rb', ['PLN50']],
    ['token 1jt', ['PLN1000']],
    ['token listrik 100.000', ['PLN100']],
    ['ml 86', ['ML86']],
    ['mlbb 86', ['ML86']],
    ['mobile legends 86', ['ML86']],
    ['ff 70', ['FF70']],
    ['free fire 70', ['FF70']],
    ['pubg 1800', ['PUBG1800']],
    ['welkin', ['GIWELKIN']],
    ['tsel10', ['TSEL10', 'TSEL100']],
    ['airtime indosat 25k', ['ISAT25']],
    ['pulsa 3 10', ['TRI10']],
    ['three 20', ['TRI20']],
    ['sf 20', ['SMART20']],
    ['data xl 5gb', ['XLD5GB']],
    ['data xl 5 gb', ['XLD5GB']],
    ['isat data 10', ['ISATD10GB']],
    ['axis data 8', ['AXISD8GB']],
    ['dana 25', ['DANA25']],
    ['shopeepay 50', ['SHOPEE50']],
  ])('%s → %o', (query, expected) => {
    expect(codes(query)).toEqual(expected);
  });

  it.each(['10', '10k', '10rb', '10ribu', '10 rb', '10.000', '10000', 'rp10.000', 'rp 10.000', '10,000'])(
    'reads %s as a nominal of 10.000',
    (amount) => {
      expect(codes(`telkomsel ${amount}`)[0]).toBe('TSEL10');
      expect(codes(`pulsa xl ${amount}`)).toEqual(['XL10']);
    },
  );

  it('understands operator aliases', () => {
    for (const alias of ['tsel', 'telkomsel', 'simpati', 'as', 'halo']) expect(codes(`pulsa ${alias} 5`)).toEqual(['TSEL5']);
    for (const alias of ['im3', 'isat', 'indosat', 'ooredoo']) expect(codes(`pulsa ${alias} 5`)).toEqual(['ISAT5']);
    for (const alias of ['tri', '3', 'three']) expect(codes(`pulsa ${alias} 5`)).toEqual(['TRI5']);
    for (const alias of ['smartfren', 'sf']) expect(codes(`pulsa ${alias} 5`)).toEqual(['SMART5']);
    expect(codes('pulsa axis 5')).toEqual(['AXIS5']);
  });

  it('tells XL from Axis (the English price list test counts 12 XL products)', () => {
    expect(codes('xl')).toHaveLength(12);
    expect(codes('xl').every((code) => code.startsWith('XL'))).toBe(true);
  });

  it('game and voucher find game products only', () => {
    const games = resellerDemoProducts.filter((p) => p.category === 'game').map((p) => p.code);
    expect(codes('game').sort()).toEqual([...games].sort());
    expect(codes('voucher').sort()).toEqual([...games].sort());
    expect(codes('voucher ff 5')).toEqual(['FF5']);
  });

  it("an operator's games data package is data of that operator, as its target is read (a phone number), not a game", () => {
    const gamesData: Product = { code: 'TSELGAME5', product_name: 'Telkomsel Kuota Games 5GB', price: 25_000, status: 'active' };
    const list = [...priceList, gamesData];
    expect(codes('data telkomsel', list)).toContain('TSELGAME5');
    expect(codes('data tsel 5gb', list)).toContain('TSELGAME5');
    expect(codes('game', list)).not.toContain('TSELGAME5');
    expect(brandKeyOf(gamesData)).toBe('telkomsel');
  });

  it('ranks exact amount matches first, available before unavailable, then by price', () => {
    // Telkomsel 10.000 (a nominal) before the 10GB data package (a quantity).
    expect(codes('telkomsel 10')).toEqual(['TSEL10', 'TSELD10GB']);
    // TSEL150 is "gangguan": after every available Telkomsel pulsa, which come cheapest first.
    const pulsa = codes('pulsa telkomsel');
    expect(pulsa.at(-1)).toBe('TSEL150');
    expect(pulsa.slice(0, 3)).toEqual(['TSEL5', 'TSEL10', 'TSEL15']);
    // Cheapest pulsa of 10.000 across operators first.
    expect(codes('pulsa 10rb')).toEqual(['TRI10', 'SMART10', 'ISAT10', 'XL10', 'AXIS10', 'TSEL10']);
  });

  it('matches nothing for unknown words or amounts that do not exist', () => {
    expect(codes('zzzz')).toEqual([]);
    expect(codes('pulsa xl 30')).toEqual([]);
    expect(codes('token pln 30')).toEqual([]);
    expect(codes('halo apa kabar')).toEqual([]);
  });

  it('an empty query lists everything in provider order', () => {
    expect(codes('')).toEqual(priceList.map((p) => p.code));
  });
});

describe('parseSearchQuery', () => {
  it('says how the words were understood', () => {
    expect(parseSearchQuery('pulsa xl 10rb').terms).toEqual([
      { kind: 'category', category: 'pulsa', word: 'pulsa' },
      { kind: 'brand', brand: 'xl', label: 'XL', word: 'xl' },
      { kind: 'nominal', value: 10_000, word: '10rb' },
    ]);
    expect(parseSearchQuery('data tsel 5gb').terms).toEqual([
      { kind: 'category', category: 'data', word: 'data' },
      { kind: 'brand', brand: 'telkomsel', label: 'Telkomsel', word: 'tsel' },
      { kind: 'size', value: 5, unit: 'gb', word: '5gb' },
    ]);
    expect(parseSearchQuery('token pln 50').terms).toEqual([
      { kind: 'category', category: 'pln', word: 'token' },
      { kind: 'category', category: 'pln', word: 'pln' },
      { kind: 'number', value: 50, word: '50' },
    ]);
    expect(parseSearchQuery('zzzz').terms).toEqual([{ kind: 'word', word: 'zzzz' }]);
  });

  it('a greeting or a lone ambiguous word is not a confident search (plain messages stay chatter)', () => {
    expect(isConfidentQuery(parseSearchQuery('halo'))).toBe(false);
    expect(isConfidentQuery(parseSearchQuery('as'))).toBe(false);
    expect(isConfidentQuery(parseSearchQuery('3'))).toBe(false);
    expect(isConfidentQuery(parseSearchQuery('pulsa xl'))).toBe(true);
    expect(isConfidentQuery(parseSearchQuery('halo 10'))).toBe(true);
  });
});

describe('searchExamples', () => {
  it('suggests queries that find something, close to what was asked', () => {
    const examples = searchExamples(priceList, parseSearchQuery('pulsa xl 30'));
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(codes(example).length).toBeGreaterThan(0);
    expect(examples).toEqual(['pulsa xl 25', 'pulsa xl 50']);
  });

  it('without anything to go on, one example per kind of product', () => {
    const examples = searchExamples(priceList, parseSearchQuery('zzzz'));
    expect(examples).toEqual(['pulsa tsel 5', 'data tsel 1gb', 'token pln 20', 'ml 5']);
    for (const example of examples) expect(codes(example).length).toBeGreaterThan(0);
  });

  it('an empty price list has no examples', () => {
    expect(searchExamples([], parseSearchQuery('pulsa'))).toEqual([]);
  });
});

describe('searchExamples near a missing amount', () => {
  it.each([
    ['data tsel 7gb', ['data tsel 5gb', 'data tsel 10gb']],
    ['ff 99', ['ff 70', 'ff 140']],
    ['token pln 30', ['token pln 20', 'token pln 50']],
    ['pulsa xl 1000rb', ['pulsa xl 200']],
  ])('%s → %o', (query, expected) => {
    expect(searchExamples(priceList, parseSearchQuery(query))).toEqual(expected);
  });
});

describe('the examples the bot shows in /harga and the 🔍 prompt', () => {
  it.each(['pulsa xl 10rb', 'credit xl 10k', 'data tsel 5gb', 'token pln 50', 'ml 86'])('%s finds exactly one product', (query) => {
    expect(codes(query)).toHaveLength(1);
  });
});
