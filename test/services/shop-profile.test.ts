import { describe, expect, it } from 'vitest';
import { readShopField } from '../../src/services/shop-profile.ts';

describe('what each shop profile field accepts', () => {
  it.each([
    ['name', '  Konter   Budi ', { value: 'Konter Budi' }],
    ['name', 'Konter\nBudi', { value: 'Konter Budi' }],
    ['name', 'x'.repeat(40), { value: 'x'.repeat(40) }],
    ['name', 'x'.repeat(41), { tooLong: 40 }],
    ['name', ' \n ', { empty: true }],
    ['address', 'Jl. Melati 5,\nBandung', { value: 'Jl. Melati 5, Bandung' }],
    ['address', 'a'.repeat(81), { tooLong: 80 }],
    ['footer', 'Terima kasih!\n\n  Buka 08.00–21.00  ', { value: 'Terima kasih!\nBuka 08.00–21.00' }],
    ['footer', 'satu\ndua\ntiga\nempat', { tooManyLines: 3 }],
    ['footer', 'b'.repeat(121), { tooLong: 120 }],
    ['footer', '🙏'.repeat(120), { value: '🙏'.repeat(120) }],
  ] as const)('%s %j → %j', (field, text, expected) => {
    expect(readShopField(field, text)).toEqual(expected);
  });
});
