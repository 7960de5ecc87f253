/**
 * Products and Indonesian phone numbers: what a product is (PLN, game, e-money, data, pulsa) and
 * which operator it tops up, read from its name and code (the spec's price list has no category);
 * which operator a phone number belongs to, and whether the two disagree. Pure functions, no I/O.
 */

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

/** What a product tops up. */
export type ProductKind = 'pln' | 'game' | 'emoney' | 'data' | 'pulsa';

const plnCode = /^(PLN|TOKEN)/i;
const plnName = /\b(pln|token listrik|listrik)\b/i;
const gameName = /\b(diamonds?|uc|genesis|crystals?|mobile legends|free ?fire|pubg|genshin|valorant|welkin|games?)\b/i;
const emoneyName = /\b(dana|ovo|go-?\s?pay|shopee\s?pay|linkaja|link aja|e-?wallet|e-?money|e-?toll|saldo)\b/i;
const emoneyCode = /^(DANA|OVO|GOPAY|GOJEK|SPAY|SHOPEE|LINKAJA)/i;
/** E-wallets topped up by the owner's phone number (an e-toll or e-money card has a card number). */
const walletName = /\b(dana|ovo|go-?\s?pay|shopee\s?pay|linkaja|link aja)\b/i;

/** Whether a product tops up a phone-numbered wallet (DANA, OVO, GoPay, ShopeePay, LinkAja). */
export function isPhoneWallet(product: { code: string; product_name: string }): boolean {
  return emoneyCode.test(product.code) || walletName.test(product.product_name);
}
const dataName = /\b(data|internet|kuota)\b|\d\s?[gm]b\b/i;

/**
 * The one product classifier (price-list categories, search, how a target is read, PLN tokens):
 * PLN, then game, e-money, data, and pulsa (an operator or "pulsa"), first match wins; undefined
 * when nothing tells. A game word in the name of an operator's product ("Telkomsel Kuota Games")
 * says what the package is for: it is a data package, bought for a phone number.
 */
export function productKind(product: { code: string; product_name: string }): ProductKind | undefined {
  const { code, product_name: name } = product;
  if (plnCode.test(code) || plnName.test(name)) return 'pln';
  if (gameName.test(name)) return namedOperator(product) ? 'data' : 'game';
  if (emoneyName.test(name) || emoneyCode.test(code)) return 'emoney';
  if (dataName.test(name)) return 'data';
  if (/\bpulsa\b/i.test(name) || namedOperator(product)) return 'pulsa';
  return undefined;
}

/**
 * The operator a product tops up, from the first operator named in its product name, else its
 * code prefix; undefined for PLN and game products and anything unrecognised.
 */
export function operatorOfProduct(product: { code: string; product_name: string }): Operator | undefined {
  const kind = productKind(product);
  return kind === 'pln' || kind === 'game' ? undefined : namedOperator(product);
}

/** The operator a product's name (first alias) or code prefix names, whatever the product is. */
export function namedOperator(product: { code: string; product_name: string }): Operator | undefined {
  let first: { operator: Operator; at: number } | undefined;
  for (const [operator, pattern] of nameAliases) {
    const match = pattern.exec(product.product_name);
    if (match && (first === undefined || match.index < first.at)) first = { operator, at: match.index };
  }
  if (first) return first.operator;
  return codePrefixes.find(([, pattern]) => pattern.test(product.code))?.[0];
}

/**
 * A phone number in its local form (`08…`, digits only, 10–13 digits), or undefined when `raw`
 * is not one. Accepts `+62 812-3456-7890`, `62812…`, `0812 3456 7890`, `(0812) 345…`.
 */
export function normalisePhone(raw: string): string | undefined {
  const compact = raw.trim().replace(/[\s().-]/g, '');
  if (!/^\+?\d+$/.test(compact)) return undefined;
  let digits = compact.replace(/^\+/, '');
  if (digits.startsWith('62')) digits = `0${digits.slice(2)}`;
  else if (compact.startsWith('+')) return undefined; // another country
  return /^08\d{8,11}$/.test(digits) ? digits : undefined;
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
