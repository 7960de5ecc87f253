/** Pure text formatting shared by the bot, the notices and the jobs: money, time, masking, escaping. */

const rupiahFormat = new Intl.NumberFormat('id-ID', { maximumFractionDigits: 0 });

/** Integer rupiah as Indonesians write it: `Rp 250.000`. */
export function formatRupiah(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}Rp ${rupiahFormat.format(Math.abs(Math.round(amount)))}`;
}

/** A number with a currency code (marketplace amounts): `USD 24.00`. */
export function formatMoney(amount: number, currency: string): string {
  if (currency.toUpperCase() === 'IDR') return formatRupiah(amount);
  return `${currency.toUpperCase()} ${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)}`;
}

const wibFormat = new Intl.DateTimeFormat('id-ID', {
  timeZone: 'Asia/Jakarta',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** A moment in Western Indonesian Time: `22 Nov 2026 14.05 WIB`. */
export function formatWib(date: Date | string): string {
  const value = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(value.getTime())) return String(date);
  return `${wibFormat.format(value).replace(/,/g, '')} WIB`;
}

const wibDateFormat = new Intl.DateTimeFormat('id-ID', { timeZone: 'Asia/Jakarta', day: '2-digit', month: 'short', year: 'numeric' });

/** A date as it is in Western Indonesian Time, without the hour: `11 Apr 2019`; an unreadable date is shown as given. */
export function formatWibDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : wibDateFormat.format(date);
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
