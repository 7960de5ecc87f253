import { describe, expect, it } from 'vitest';
import { boundedCache, productTextKey } from '../../src/services/memo.ts';

describe('boundedCache', () => {
  it('makes a value once per key, undefined included', () => {
    const made: string[] = [];
    const remember = boundedCache<string, string | undefined>(10);
    const make = (key: string) => () => {
      made.push(key);
      return key === 'none' ? undefined : key.toUpperCase();
    };
    expect(remember('a', make('a'))).toBe('A');
    expect(remember('a', make('a'))).toBe('A');
    expect(remember('none', make('none'))).toBeUndefined();
    expect(remember('none', make('none'))).toBeUndefined();
    expect(made).toEqual(['a', 'none']);
  });

  it('forgets everything once full, then fills again', () => {
    let made = 0;
    const remember = boundedCache<number, number>(2);
    const make = (n: number) => () => (made++, n * 2);
    remember(1, make(1));
    remember(2, make(2));
    remember(3, make(3));
    expect(made).toBe(3);
    // 1 and 2 were forgotten when 3 came; 3 is kept.
    remember(3, make(3));
    expect(made).toBe(3);
    remember(1, make(1));
    expect(made).toBe(4);
  });

  it('keys a product by code and name: another name is another product', () => {
    expect(productTextKey({ code: 'TSEL10', product_name: 'Telkomsel 10.000' })).toBe(
      productTextKey({ code: 'TSEL10', product_name: 'Telkomsel 10.000' }),
    );
    expect(productTextKey({ code: 'TSEL10', product_name: 'Telkomsel 10.000' })).not.toBe(
      productTextKey({ code: 'TSEL10', product_name: 'Telkomsel 10.000 Promo' }),
    );
  });
});
