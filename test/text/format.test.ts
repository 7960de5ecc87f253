import { describe, expect, it } from 'vitest';
import { formatMoney, formatRupiah } from '../../src/text/format.ts';

describe('money', () => {
  it('writes rupiah the Indonesian way in every language', () => {
    expect(formatRupiah(1_284_500)).toBe('Rp 1.284.500');
    expect(formatMoney(1_284_500, 'IDR', 'id')).toBe('Rp 1.284.500');
    expect(formatMoney(1_284_500, 'idr', 'en')).toBe('Rp 1.284.500');
  });

  it('writes other currencies with the reader’s separators: amount then code in Indonesian, code then amount in English', () => {
    expect(formatMoney(1284.5, 'USD', 'id')).toBe('1.284,50 USD');
    expect(formatMoney(1284.5, 'USD', 'en')).toBe('USD 1,284.50');
    expect(formatMoney(59, 'usd', 'id')).toBe('59,00 USD');
    expect(formatMoney(2950, 'EUR', 'en')).toBe('EUR 2,950.00');
    expect(formatMoney(-3.456, 'USD', 'id')).toBe('-3,46 USD');
  });
});
