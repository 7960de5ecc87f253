/**
 * A plain message nothing else understood, read for what the user most likely meant, so the
 * fallback answer can say how to do it instead of only "I did not understand". Pure functions, no
 * I/O; the bot words the answers.
 */
import { normalisePhone, operatorOfNumber, type Operator } from '../domain/operators.ts';
import { withoutFormatChars } from '../text/format.ts';
import { maxQuickBuyLineLength, normaliseCode } from './targets.ts';

/**
 * - `phone`: a bare phone number (normalised), with its operator when the prefix tells.
 * - `bad-target`: `CODE.TARGET` whose target has too few digits to be a number (`TSEL10.abcdefghij`).
 * - `search-target`: search words then a phone number (`pulsa tsel 10rb 0812…`).
 */
export type StrayText =
  | { kind: 'phone'; phone: string; operator?: Operator }
  | { kind: 'bad-target'; code: string; target: string }
  | { kind: 'search-target'; query: string; target: string };

/**
 * A product code as in quick-buy, but with a letter and a digit (`TSEL10`, `ML86`, `PLN20`), so
 * `a.b` or `ok.` is not taken for an attempt to buy; `Rp10.000` is an amount, not a code.
 */
const codeWithTarget = /^(?!rp)(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_-]*\d)([A-Za-z0-9][A-Za-z0-9_-]{1,29})\s*[.:]\s*(\S.*)$/i;

/** What `text` (one line) most likely meant, or undefined when it is none of `StrayText`'s kinds. */
export function readStrayText(text: string): StrayText | undefined {
  const line = withoutFormatChars(text).trim();
  if (line === '' || line.includes('\n') || line.length > maxQuickBuyLineLength) return undefined;
  const phone = normalisePhone(line);
  if (phone) {
    const operator = operatorOfNumber(phone);
    return operator ? { kind: 'phone', phone, operator } : { kind: 'phone', phone };
  }
  const dotted = codeWithTarget.exec(line);
  // Quick-buy takes a target with four digits or more; one with fewer cannot be a number.
  if (dotted?.[1] && dotted[2] && dotted[2].replace(/\D/g, '').length < 4) {
    return { kind: 'bad-target', code: normaliseCode(dotted[1]), target: dotted[2].trim() };
  }
  const words = line.split(/\s+/);
  for (let i = 1; i < words.length; i++) {
    const query = words.slice(0, i).join(' ');
    const target = normalisePhone(words.slice(i).join(' '));
    if (target && /\p{L}/u.test(query)) return { kind: 'search-target', query, target };
  }
  return undefined;
}
