import { describe, expect, it } from 'vitest';
import { readShopField } from '../../src/services/shop-profile.ts';

describe('what each shop profile field accepts', () => {
  it.each([
    ['name', '  Konter   Budi ', { value: 'Konter Budi' }],
    ['name', 'Konter\nBudi', { oneLine: true }],
    ['name', 'Konter\u2028Budi', { oneLine: true }],
    ['name', 'Konter \u202eiduB', { invisible: true }],
    ['name', 'Konter\u200bBudi', { invisible: true }],
    ['name', 'Konter\ufeffBudi', { invisible: true }],
    ['name', 'Konter\u0007Budi', { invisible: true }],
    ['name', 'Konter\tBudi', { value: 'Konter Budi' }],
    ['name', 'Konter 👨‍👩‍👧', { value: 'Konter 👨‍👩‍👧' }],
    ['name', 'x'.repeat(40), { value: 'x'.repeat(40) }],
    ['name', 'x'.repeat(41), { tooLong: 40 }],
    ['name', ' \n ', { empty: true }],
    ['address', 'Jl. Melati 5,\nBandung', { oneLine: true }],
    ['address', 'Jl. Melati 5\u2066, Bandung', { invisible: true }],
    ['address', 'a'.repeat(81), { tooLong: 80 }],
    ['footer', 'Terima kasih!\n\n  Buka 08.00–21.00  ', { value: 'Terima kasih!\nBuka 08.00–21.00' }],
    ['footer', 'satu\ndua\ntiga\nempat', { tooManyLines: 3 }],
    ['footer', 'Terima kasih\u202e!', { invisible: true }],
    ['footer', 'satu\u2028dua', { invisible: true }],
    ['footer', 'satu\r\ndua', { value: 'satu\ndua' }],
    ['footer', 'b'.repeat(121), { tooLong: 120 }],
    ['footer', '🙏'.repeat(120), { value: '🙏'.repeat(120) }],
  ] as const)('%s %j → %j', (field, text, expected) => {
    expect(readShopField(field, text)).toEqual(expected);
  });
});
