/**
 * The reseller's shop profile (/toko): what each field accepts. Pure rules, shared by the flow
 * that asks for them and its tests; the profile itself is stored on the user (`users.update`).
 */
import { hasHiddenChars } from '../text/format.ts';

/** Longest accepted value of each field, in characters: a receipt line stays a line. */
export const shopFieldLimits = { name: 40, address: 80, footer: 120 } as const;

export type ShopField = keyof typeof shopFieldLimits;

/** The footer may keep this many lines; the name and address are one line each. */
export const footerLines = 3;

/** Line breaks of every kind: a name or an address is one line. */
const lineBreak = /[\n\r\u0085\u2028\u2029]/;
/** Why a typed field value was refused (see `readShopField`). */
export type ShopFieldProblem = { tooLong: number } | { tooManyLines: number } | { oneLine: true } | { invisible: true } | { empty: true };

/**
 * What the user typed for `field`, tidied: spaces collapsed, a footer of at most three lines.
 * Refused: a name or address with a line break (`{ oneLine }`), any field with a hidden
 * character (`{ invisible }`, see `hasHiddenChars`; tabs count as spaces, the footer keeps its line feeds), a value
 * longer than the field allows (`{ tooLong }`, the limit), a footer of more lines
 * (`{ tooManyLines }`), and nothing at all (`{ empty }`).
 */
export function readShopField(field: ShopField, text: string): { value: string } | ShopFieldProblem {
  const typed = text.trim();
  if (typed === '') return { empty: true };
  if (field !== 'footer' && lineBreak.test(typed)) return { oneLine: true };
  const lines = typed
    .split('\n')
    .map((line) => line.replace(/[\t\p{Zs}]+/gu, ' ').trim())
    .filter((line) => line !== '');
  if (lines.some(hasHiddenChars)) return { invisible: true };
  const value = lines.join('\n');
  if (field === 'footer' && lines.length > footerLines) return { tooManyLines: footerLines };
  const limit = shopFieldLimits[field];
  return [...value].length > limit ? { tooLong: limit } : { value };
}
