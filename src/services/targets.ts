/**
 * Purchase targets and quick-buy lines: what a reseller types, turned into what the provider must
 * receive. Pure. A phone number is normalised (`normalisePhone`); any other target (game id, PLN
 * meter number) is sent as typed, only trimmed.
 */
import { echoInput, withoutFormatChars } from '../text/format.ts';
import { isPhoneWallet, namedOperator, normalisePhone, productKind } from '../domain/operators.ts';

/** How a product's target is read. */
export type TargetKind = 'phone' | 'verbatim' | 'auto';

export type TargetProblem = 'empty' | 'phone' | 'too-long' | 'characters';

export type TargetCheck = { ok: true; target: string } | { ok: false; problem: TargetProblem };

/** Longest target accepted (game ids with a zone, meter numbers and phone numbers are far shorter). */
export const maxTargetLength = 40;

/**
 * Longest quick-buy line read: a code, a separator and a target fit with room to spare. A longer
 * line is a problem as it stands, never matched: the line patterns may backtrack (quadratic or worse).
 */
export const maxQuickBuyLineLength = 100;

/** Most CODE.TARGET lines accepted in one message. */
export const maxQuickBuyLines = 20;

/**
 * How a product's target is read: `verbatim` for PLN and game products (meter numbers and game
 * ids are sent as typed), `phone` for pulsa, data and e-money products, `auto` when unknown (a
 * target is then normalised only when it is unmistakably a phone number).
 */
export function targetKindOf(product: { code: string; product_name: string }): TargetKind {
  // An operator's data package "for games" is data (productKind), bought for a phone number.
  const kind = productKind(product);
  if (kind === 'pln' || kind === 'game') return 'verbatim';
  // Only a named operator, pulsa or a phone wallet says the target is a phone number: an e-toll or
  // e-money card, or a home-internet customer number, is sent as typed unless it is one.
  if (namedOperator(product) || isPhoneWallet(product) || /\bpulsa\b/i.test(product.product_name)) return 'phone';
  return 'auto';
}

/** The value to send to the provider for a target of a product of `kind`, or why it cannot be used. */
export function normaliseTarget(raw: string, kind: TargetKind = 'auto'): TargetCheck {
  const trimmed = withoutFormatChars(raw).trim();
  if (trimmed === '') return { ok: false, problem: 'empty' };
  if (kind === 'phone') {
    const phone = normalisePhone(trimmed);
    return phone ? { ok: true, target: phone } : { ok: false, problem: 'phone' };
  }
  if (kind === 'auto' && looksLikePhone(trimmed)) {
    const phone = normalisePhone(trimmed);
    // `+62…` can only be a phone number; `08…`/`62…` that fail the check may be a meter number.
    if (phone) return { ok: true, target: phone };
    if (trimmed.startsWith('+')) return { ok: false, problem: 'phone' };
  }
  if (trimmed.length > maxTargetLength) return { ok: false, problem: 'too-long' };
  // Control characters and line breaks never belong in a target.
  if (/\p{Cc}/u.test(trimmed)) return { ok: false, problem: 'characters' };
  return { ok: true, target: trimmed };
}

/** `+…`, `08…` or `628…` made of digits and the usual separators. */
function looksLikePhone(text: string): boolean {
  if (!/^\+?[\d\s().-]+$/.test(text)) return false;
  const digits = text.replace(/\D/g, '');
  return text.startsWith('+') || digits.startsWith('08') || digits.startsWith('628');
}

/** One line of a quick-buy message: a product code and the target as typed (trimmed). */
interface QuickBuyLine {
  /** 1-based line number in the message (counting only non-empty lines). */
  line: number;
  /** Upper case. */
  code: string;
  /** Absent only for a bare `/beli CODE`: the conversation then asks for it. */
  target?: string;
  /** Typed as `CODE TARGET` (a space) rather than `CODE.TARGET`: hints then show that form. */
  spaced?: boolean;
}

export interface QuickBuyParse {
  lines: QuickBuyLine[];
  /** Lines that are not CODE.TARGET, with their text (trimmed, shortened) for the error list. */
  problems: Array<{ line: number; text: string }>;
  /** Non-empty lines in the message; more than `maxQuickBuyLines` means the message is refused. */
  count: number;
}

/** A product code: letters, digits, `_` or `-`, with at least one letter (`12345678.1234` is a game id, not CODE.TARGET). */
const codePattern = '(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_-]{0,29}';
/** `CODE.TARGET` or `CODE:TARGET`. */
const dottedLine = new RegExp(`^(${codePattern})\\s*[.:]\\s*(.+)$`);
const spacedLine = new RegExp(`^(${codePattern})\\s+(.+)$`);
/**
 * `CODE TARGET` in a plain message: only when the code has a digit (TSEL10, ML86) and the target
 * is a number of six digits or more, so a price search such as `telkomsel 10` or
 * `token pln 50000` is not taken for a purchase.
 */
const spacedNumberLine = new RegExp(`^((?=[A-Za-z0-9_-]*\\d)${codePattern})\\s+(\\+?[\\d\\s().-]+)$`);
const codeOnly = new RegExp(`^(${codePattern})$`);

/** A product code as the provider spells codes: upper case. */
export function normaliseCode(code: string): string {
  return withoutFormatChars(code).trim().toUpperCase();
}

function nonEmptyLines(text: string): string[] {
  return withoutFormatChars(text)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * Reads a plain message as quick-buy lines (`CODE.TARGET`, `CODE:TARGET`, or `CODE TARGET` with a
 * numeric target; one per line). Undefined when no line is CODE.TARGET with a target of at least
 * four digits, so ordinary chatter falls through to the help answer.
 */
export function parseQuickBuy(text: string): QuickBuyParse | undefined {
  if (text.trim().startsWith('/')) return undefined;
  const lines: QuickBuyLine[] = [];
  const problems: QuickBuyParse['problems'] = [];
  const all = nonEmptyLines(text);
  all.forEach((raw, index) => {
    if (raw.length > maxQuickBuyLineLength) return void problems.push({ line: index + 1, text: echoInput(raw, 30) });
    const dotted = dottedLine.exec(raw);
    const spaced = dotted ? undefined : spacedNumberLine.exec(raw);
    const match = dotted ?? (spaced?.[2] && countDigits(spaced[2]) >= 6 ? spaced : undefined);
    const target = match?.[2]?.trim();
    if (match?.[1] && target && countDigits(target) >= 4) {
      lines.push({ line: index + 1, code: normaliseCode(match[1]), target, ...(dotted ? {} : { spaced: true }) });
    } else problems.push({ line: index + 1, text: echoInput(raw, 30) });
  });
  if (lines.length === 0) return undefined;
  return { lines, problems, count: all.length };
}

/**
 * Reads the argument of `/beli` (`/buy`): nothing (the conversation asks), `CODE`,
 * `CODE TARGET`, `CODE.TARGET`, or several `CODE.TARGET` lines. A target may contain spaces
 * (`ML86 12345678 1234`).
 */
export function parseBuyCommand(argument: string): QuickBuyParse {
  const all = nonEmptyLines(argument);
  const lines: QuickBuyLine[] = [];
  const problems: QuickBuyParse['problems'] = [];
  all.forEach((raw, index) => {
    const line = index + 1;
    if (raw.length > maxQuickBuyLineLength) return void problems.push({ line, text: echoInput(raw, 30) });
    const dotted = dottedLine.exec(raw);
    const spaced = dotted ? undefined : spacedLine.exec(raw);
    const match = dotted ?? spaced;
    if (match?.[1] && match[2]) {
      lines.push({ line, code: normaliseCode(match[1]), target: match[2].trim(), ...(dotted ? {} : { spaced: true }) });
      return;
    }
    const code = codeOnly.exec(raw);
    // A bare code is only meaningful alone: the conversation then asks for the target.
    if (code?.[1] && all.length === 1) lines.push({ line, code: normaliseCode(code[1]) });
    else problems.push({ line, text: echoInput(raw, 30) });
  });
  return { lines, problems, count: all.length };
}

function countDigits(text: string): number {
  return text.replace(/\D/g, '').length;
}
