import { describe, expect, it } from 'vitest';
import { readStrayText } from '../../src/services/stray-text.ts';

describe('readStrayText: a plain message that is not a command, a purchase or a search', () => {
  it.each([
    ['081234567890', { kind: 'phone', phone: '081234567890', operator: 'telkomsel' }],
    ['+62 817-1234-5678', { kind: 'phone', phone: '081712345678', operator: 'xl' }],
    ['0857 1234 5678', { kind: 'phone', phone: '085712345678', operator: 'indosat' }],
    ['0899 1234 5678', { kind: 'phone', phone: '089912345678', operator: 'tri' }],
    ['0800 1234 5678', { kind: 'phone', phone: '080012345678' }],
  ] as const)('a bare phone number %j', (text, expected) => expect(readStrayText(text)).toEqual(expected));

  it.each([
    ['TSEL10.abcdefghij', { kind: 'bad-target', code: 'TSEL10', target: 'abcdefghij' }],
    ['tsel10:08x', { kind: 'bad-target', code: 'TSEL10', target: '08x' }],
  ] as const)('CODE.TARGET with a target that is no number: %j', (text, expected) => expect(readStrayText(text)).toEqual(expected));

  it.each([
    ['pulsa tsel 10rb 081234567890', { kind: 'search-target', query: 'pulsa tsel 10rb', target: '081234567890' }],
    ['telkomsel 10 0812 3456 7890', { kind: 'search-target', query: 'telkomsel 10', target: '081234567890' }],
  ] as const)('search words then a phone number: %j', (text, expected) => expect(readStrayText(text)).toEqual(expected));

  it.each(['halo', 'apa kabar', '12345', 'TSEL10', 'a.b', 'pulsa\n081234567890', '1.5'])('%j is none of these', (text) =>
    expect(readStrayText(text)).toBeUndefined(),
  );
});
