/**
 * PLN prepaid tokens. The provider's SN of a PLN product carries the 20-digit token, often with
 * the customer's name, tariff and kWh around it (`1234-5678-9012-3456-7890/NAMA/R1/1300VA/13.8`).
 * People type a token into the meter in groups of four, so it is shown that way; copying takes
 * the digits only.
 */
import { productKind } from '../domain/operators.ts';

/** Twenty digits, optionally grouped by four with spaces or dashes, not part of a longer number. */
const tokenPattern = /(?<![\d-])(\d{4}[- ]?\d{4}[- ]?\d{4}[- ]?\d{4}[- ]?\d{4})(?![\d-])/;

/** The token's 20 digits (no separators) when `tx` is a PLN purchase whose SN holds one; otherwise undefined. */
export function plnToken(tx: { code: string; productName: string; sn?: string | undefined }): string | undefined {
  if (tx.sn === undefined || productKind({ code: tx.code, product_name: tx.productName }) !== 'pln') return undefined;
  const found = tokenPattern.exec(tx.sn)?.[1];
  return found?.replace(/\D/g, '');
}

/** `12345678901234567890` as `1234 5678 9012 3456 7890`. */
export function groupToken(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * A PLN SN split into the token and what surrounds it (name, tariff, kWh), separators trimmed;
 * undefined when `tx` has no token.
 */
export function splitPlnSn(tx: {
  code: string;
  productName: string;
  sn?: string | undefined;
}): { token: string; info: string } | undefined {
  const token = plnToken(tx);
  if (token === undefined || tx.sn === undefined) return undefined;
  const info = tx.sn
    .replace(tokenPattern, ' ')
    .replace(/^[\s/|,;:-]+|[\s/|,;:-]+$/g, '')
    .trim();
  return { token, info };
}

/** An SN as shown in one line (purchase results): a PLN token grouped in fours, followed by what surrounded it. */
export function displaySn(tx: { code: string; productName: string; sn?: string | undefined }): string {
  const pln = splitPlnSn(tx);
  if (!pln) return tx.sn ?? '';
  const grouped = groupToken(pln.token);
  return pln.info === '' ? grouped : `${grouped} · ${pln.info}`;
}
