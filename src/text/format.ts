/** Pure text formatting shared by the bot, the notices and the jobs: money, time, masking, escaping. */
import type { Locale } from '../domain.ts';

const rupiahFormat = new Intl.NumberFormat('id-ID', { maximumFractionDigits: 0 });

/** Integer rupiah as Indonesians write it: `Rp 250.000`. */
export function formatRupiah(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}Rp ${rupiahFormat.format(Math.abs(Math.round(amount)))}`;
}

/** How each language writes an amount in another currency: Indonesian `1.284,50 USD`, English `USD 1,284.50`. */
const moneyFormats: Record<Locale, { numbers: Intl.NumberFormat; codeFirst: boolean }> = {
  id: { numbers: new Intl.NumberFormat('id-ID', { minimumFractionDigits: 2, maximumFractionDigits: 2 }), codeFirst: false },
  en: { numbers: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }), codeFirst: true },
};

/**
 * An amount with its currency code (marketplace amounts) as the reader's language writes it:
 * `1.284,50 USD` in Indonesian, `USD 1,284.50` in English. Rupiah is `Rp 1.284.500` in both.
 */
export function formatMoney(amount: number, currency: string, locale: Locale): string {
  const code = currency.toUpperCase();
  if (code === 'IDR') return formatRupiah(amount);
  const { numbers, codeFirst } = moneyFormats[locale];
  const number = numbers.format(amount);
  return codeFirst ? `${code} ${number}` : `${number} ${code}`;
}

/**
 * A translate function as the pure text helpers use it: `ctx.t`, a `ReceiptTranslate`, or
 * `i18n.t` bound to the reader's locale outside a chat (the outbox, jobs).
 */
export type TextTranslate = (key: string, variables?: Record<string, string>) => string;

const wibParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Jakarta',
  day: '2-digit',
  month: 'numeric',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Day, month (1–12), year, hour and minute of `value` in Western Indonesian Time, as digits. */
function partsInWib(value: Date): { day: string; month: number; year: string; hour: string; minute: string } {
  const parts = new Map(wibParts.formatToParts(value).map((part) => [part.type, part.value]));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.get(type) ?? '';
  return { day: get('day'), month: Number(get('month')), year: get('year'), hour: get('hour'), minute: get('minute') };
}

/** `22 Nov 2026`, the month named in the reader's language (`time-months`: Agu in Indonesian, Aug in English). */
function dayIn(t: TextTranslate, parts: ReturnType<typeof partsInWib>): string {
  const month = t('time-months').split(' ')[parts.month - 1] ?? String(parts.month);
  return `${parts.day} ${month} ${parts.year}`;
}

const readDate = (date: Date | string): Date | undefined => {
  const value = typeof date === 'string' ? new Date(date) : date;
  return Number.isNaN(value.getTime()) ? undefined : value;
};

/**
 * A moment in Western Indonesian Time as the reader's language writes it, through its
 * translations (`time-wib`, `time-months`): `22 Agu 2026 14.05 WIB` in Indonesian,
 * `22 Aug 2026 14:05 WIB` in English. An unreadable date is shown as given.
 */
export function formatWibIn(t: TextTranslate, date: Date | string): string {
  const value = readDate(date);
  if (value === undefined) return String(date);
  const parts = partsInWib(value);
  return t('time-wib', { date: dayIn(t, parts), hour: parts.hour, minute: parts.minute });
}

/** A date as it is in Western Indonesian Time, without the hour (`11 Apr 2019`), month in the reader's language; an unreadable date is shown as given. */
export function formatWibDateIn(t: TextTranslate, date: Date | string): string {
  const value = readDate(date);
  return value === undefined ? String(date) : dayIn(t, partsInWib(value));
}

/** Hides the middle of a target for group posts: `081234567890` → `0812****7890`. */
export function maskTarget(target: string): string {
  if (target.length <= 6) return `${target.slice(0, 1)}${'*'.repeat(Math.max(0, target.length - 2))}${target.slice(-1)}`;
  const keep = target.length >= 10 ? 4 : 2;
  return `${target.slice(0, keep)}${'*'.repeat(target.length - keep * 2)}${target.slice(-keep)}`;
}

/** Escapes text for parse_mode HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * User input quoted back in a reply (an unknown ref id, a search word): cut to `max` characters
 * with an ellipsis (the translate function escapes it). A reply that echoes a 4,000-character word whole would break
 * Telegram's 4,096-character limit, and nobody reads more than the start of it anyway.
 */
export function echoInput(text: string, max = 64): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** A margin with its sign and without `Rp` (short for phones): `+850`, `-151`, `+1.000`. */
export function formatMargin(margin: number): string {
  return `${margin < 0 ? '-' : '+'}${formatRupiah(Math.abs(margin)).replace('Rp ', '')}`;
}

/**
 * Hidden characters: format characters (Cf: zero-width spaces and joiners, soft hyphens, the
 * byte-order mark, bidi overrides), control characters but the line feed, and line/paragraph
 * separators. They are invisible or reorder what follows, so text holding one does not read as
 * typed. A zero-width joiner between two pictographs (one emoji: 👨‍👩‍👧) is matched first, as
 * `joiner`, and kept.
 */
const hiddenChars =
  /(?<joiner>(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic}))|[\p{Cf}\p{Zl}\p{Zp}]|(?!\n)\p{Cc}/gu;

/** `text` without hidden characters: for user-typed text printed where others read it (a shop's name on a receipt). */
export function withoutHiddenChars(text: string): string {
  return text.replace(hiddenChars, (_char, joiner: string | undefined) => joiner ?? '');
}

/** Whether `text` holds a hidden character: a shop profile field refuses one. */
export function hasHiddenChars(text: string): boolean {
  return withoutHiddenChars(text) !== text;
}

/**
 * `text` without its format characters, the Cf part of the hidden ones: every code, target and id
 * a user types passes through here before anything reads it, so what is sent is what the summary
 * shows. Control characters stay: there a tab separates and a NUL is refused.
 */
export function withoutFormatChars(text: string): string {
  return text.replace(/\p{Cf}/gu, '');
}
