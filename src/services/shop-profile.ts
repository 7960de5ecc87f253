/**
 * The reseller's shop profile (/toko): what each field accepts. Pure rules, shared by the flow
 * that asks for them and its tests; the profile itself is stored on the user (`users.update`).
 */

/** Longest accepted value of each field, in characters: a receipt line stays a line. */
export const shopFieldLimits = { name: 40, address: 80, footer: 120 } as const;

export type ShopField = keyof typeof shopFieldLimits;

/** The footer may keep this many lines; the name and address are one line each. */
export const footerLines = 3;

/**
 * What the user typed for `field`, tidied: spaces collapsed, a name or address on one line, a
 * footer of at most three lines. `{ tooLong }` (the limit) when it is longer than the field allows,
 * `{ tooManyLines }` for a footer of more lines, `{ empty: true }` when nothing is left.
 */
export function readShopField(
  field: ShopField,
  text: string,
): { value: string } | { tooLong: number } | { tooManyLines: number } | { empty: true } {
  const lines = text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
  const value = field === 'footer' ? lines.join('\n') : lines.join(' ');
  if (value === '') return { empty: true };
  if (field === 'footer' && lines.length > footerLines) return { tooManyLines: footerLines };
  const limit = shopFieldLimits[field];
  return [...value].length > limit ? { tooLong: limit } : { value };
}
