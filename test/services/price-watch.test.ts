import { describe, expect, it } from 'vitest';
import { diffPriceLists, matchBrands } from '../../src/services/price-watch.ts';

const p = (code: string, price: number, status = 'active', name = 'Telkomsel 10.000') => ({ code, name, price, status });

describe('diffPriceLists', () => {
  it.each([
    ['nothing changed', [p('A', 100)], [p('A', 100)], []],
    [
      'goes unavailable, status verbatim',
      [p('A', 100)],
      [p('A', 100, 'Sedang Gangguan Pusat')],
      [['unavailable', 'A', 'Sedang Gangguan Pusat']],
    ],
    ['moves between two unavailable statuses', [p('A', 100, 'gangguan')], [p('A', 100, 'kosong')], [['unavailable', 'A', 'kosong']]],
    ['back to active', [p('A', 100, 'nonaktif')], [p('A', 100)], [['active', 'A', 'active']]],
    [
      'status and price at once: in both groups',
      [p('A', 100)],
      [p('A', 120, 'gangguan')],
      [
        ['unavailable', 'A', 'gangguan'],
        ['up', 'A', 'gangguan'],
      ],
    ],
    [
      'new and removed',
      [p('A', 100)],
      [p('B', 50)],
      [
        ['new', 'B', 'active'],
        ['removed', 'A', 'active'],
      ],
    ],
  ])('%s', (_name, before, after, expected) => {
    expect(diffPriceLists(before, after).map((c) => [c.kind, c.code, c.status])).toEqual(expected);
  });

  it('keeps the old price of a change and the brand as the price list groups it', () => {
    const [change] = diffPriceLists([p('A', 100)], [p('A', 90)]);
    expect(change).toMatchObject({ kind: 'down', oldPrice: 100, price: 90, brand: 'Telkomsel' });
  });
});

describe('matchBrands', () => {
  const brands = ['Telkomsel', 'XL', 'Mobile Legends', 'PLN'];
  it.each([
    ['telkomsel xl', ['Telkomsel', 'XL'], []],
    ['Mobile Legends, pln', ['Mobile Legends', 'PLN'], []],
    ['xl zzz mobile', ['XL'], ['zzz', 'mobile']],
  ])('%s', (text, found, unknown) => {
    const result = matchBrands(text, brands);
    expect(result.found.sort()).toEqual([...found].sort());
    expect(result.unknown).toEqual(unknown);
  });
});
