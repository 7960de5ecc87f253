/**
 * Indonesian mobile operators: which one a phone number belongs to (by its prefix), which one a
 * pulsa or data product is for (by its name or code), and whether the two disagree. Pure
 * functions, no I/O. Used by the purchase summary (a warning before Confirm) and the price search
 * (operator names and aliases).
 */
import { normalisePhone, targetKindOf } from './targets.ts';

/** An operator or one of its brands that providers list separately (by.U is Telkomsel's, Axis is XL's). */
export type Operator = 'telkomsel' | 'byu' | 'indosat' | 'xl' | 'axis' | 'tri' | 'smartfren';

/** How an operator is written to the user. */
export const operatorNames: Readonly<Record<Operator, string>> = {
  telkomsel: 'Telkomsel',
  byu: 'by.U',
  indosat: 'Indosat',
  xl: 'XL',
  axis: 'Axis',
  tri: 'Tri',
  smartfren: 'Smartfren',
};

/** The network behind a brand: a number of the same family is never warned about. */
const families: Readonly<Record<Operator, Operator>> = {
  telkomsel: 'telkomsel',
  byu: 'telkomsel',
  indosat: 'indosat',
  xl: 'xl',
  axis: 'xl',
  tri: 'tri',
  smartfren: 'smartfren',
};

/** The first four digits of a local number (`08xx`) and the operator that issues them. */
const prefixes: ReadonlyMap<string, Operator> = new Map(
  (
    [
      ['telkomsel', ['0811', '0812', '0813', '0821', '0822', '0823', '0851', '0852', '0853']],
      ['indosat', ['0814', '0815', '0816', '0855', '0856', '0857', '0858']],
      ['xl', ['0817', '0818', '0819', '0859', '0877', '0878']],
      ['axis', ['0831', '0832', '0833', '0838']],
      ['tri', ['0895', '0896', '0897', '0898', '0899']],
      ['smartfren', ['0881', '0882', '0883', '0884', '0885', '0886', '0887', '0888', '0889']],
    ] as const
  ).flatMap(([operator, list]) => list.map((prefix) => [prefix, operator] as const)),
);

/**
 * Words that name an operator in a product name or a search, lower case. by.U comes before
 * Telkomsel so "Telkomsel by.U" reads as by.U. `halo` and `as` are Telkomsel's kartuHalo and
 * Kartu As; `3` is Tri.
 */
export const operatorAliases: ReadonlyArray<readonly [Operator, readonly string[]]> = [
  ['byu', ['byu', 'by.u', 'by u']],
  ['telkomsel', ['telkomsel', 'tsel', 'simpati', 'kartu as', 'as', 'halo', 'kartuhalo', 'loop']],
  ['indosat', ['indosat', 'isat', 'im3', 'ooredoo', 'mentari']],
  ['xl', ['xl']],
  ['axis', ['axis']],
  ['tri', ['tri', 'three', '3']],
  ['smartfren', ['smartfren', 'sf']],
];

/** Product code prefixes providers commonly use, when the name says nothing. */
const codePrefixes: ReadonlyArray<readonly [Operator, RegExp]> = [
  ['byu', /^BYU/i],
  ['telkomsel', /^(TSEL|TELKOMSEL|SIMPATI)/i],
  ['indosat', /^(ISAT|INDOSAT|IM3)/i],
  ['xl', /^XL/i],
  ['axis', /^AXIS/i],
  ['tri', /^(TRI|THREE)/i],
  ['smartfren', /^(SMART|SMARTFREN)/i],
];

/** Name words that count for a product: the aliases except the bare `as`, `halo` and `3`, which read too loosely in a name. */
const nameAliases: ReadonlyArray<readonly [Operator, RegExp]> = operatorAliases.map(([operator, words]) => {
  const kept = words
    .filter((word) => !['as', 'halo', '3'].includes(word))
    .map((word) => word.replace(/[.]/g, '\\.?').replace(/ /g, '\\s?'));
  return [operator, new RegExp(`(^|[^\\p{L}\\p{N}])(${kept.join('|')})(?![\\p{L}\\p{N}])`, 'iu')] as const;
});

/** The operator that issues a phone number (any form `normalisePhone` reads), or undefined. */
export function operatorOfNumber(raw: string): Operator | undefined {
  const phone = normalisePhone(raw);
  return phone ? prefixes.get(phone.slice(0, 4)) : undefined;
}

/**
 * The operator a product tops up, from the first operator named in its product name, else its
 * code prefix; undefined for PLN, game and e-wallet products and anything unrecognised.
 */
export function operatorOfProduct(product: { code: string; product_name: string }): Operator | undefined {
  if (targetKindOf(product) === 'verbatim') return undefined;
  let first: { operator: Operator; at: number } | undefined;
  for (const [operator, pattern] of nameAliases) {
    const match = pattern.exec(product.product_name);
    if (match && (first === undefined || match.index < first.at)) first = { operator, at: match.index };
  }
  if (first) return first.operator;
  return codePrefixes.find(([, pattern]) => pattern.test(product.code))?.[0];
}

/** A target whose operator is not the product's: what the summary warns about. */
export interface OperatorMismatch {
  /** The number's first four digits, local form (`0877`). */
  prefix: string;
  /** Display names (`XL`, `Telkomsel`). */
  numberOperator: string;
  productOperator: string;
}

/**
 * Whether `target` is a phone number of another operator than `product` (XL and Axis count as
 * one, by.U as Telkomsel). Undefined when they agree, or when either is unknown: PLN, e-wallet and
 * game products, targets that are not phone numbers, prefixes not in the table.
 */
export function operatorMismatch(product: { code: string; product_name: string }, target: string): OperatorMismatch | undefined {
  const productOperator = operatorOfProduct(product);
  const phone = normalisePhone(target);
  if (!productOperator || !phone) return undefined;
  const numberOperator = prefixes.get(phone.slice(0, 4));
  if (!numberOperator || families[numberOperator] === families[productOperator]) return undefined;
  return { prefix: phone.slice(0, 4), numberOperator: operatorNames[numberOperator], productOperator: operatorNames[productOperator] };
}
