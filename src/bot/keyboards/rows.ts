import { InlineKeyboard } from 'grammy';

/** Telegram's limit for the text a `copy_text` button copies. */
const copyTextLimit = 256;

/**
 * Adds a button that copies `value` (Bot API 7.11 `copy_text`) when there is a value short enough
 * to copy; returns whether it did. Clients without the feature still copy a `<code>` value on tap.
 */
export function addCopyButton(keyboard: InlineKeyboard, label: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value.length > copyTextLimit) return false;
  keyboard.copyText(label, value);
  return true;
}

/**
 * True for a link Telegram accepts on a URL button: absolute http(s). Anything else a provider
 * sends would make Telegram refuse the whole message, so it is shown as text instead.
 */
export function isButtonUrl(value: string | null | undefined): value is string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The keyboard without empty rows (left by `.row()` after the last button of a section). */
export function withoutEmptyRows(keyboard: InlineKeyboard): InlineKeyboard {
  return new InlineKeyboard(keyboard.inline_keyboard.filter((row) => row.length > 0));
}

/** The keyboard without empty rows, or undefined when it has no button at all. */
export function nonEmpty(keyboard: InlineKeyboard): InlineKeyboard | undefined {
  const rows = withoutEmptyRows(keyboard);
  return rows.inline_keyboard.length > 0 ? rows : undefined;
}

/** ‹ Previous / Next › of a paged list at `page` (0-based); `pack` makes the callback data of a page. */
export function addPageButtons(
  keyboard: InlineKeyboard,
  t: (key: string) => string,
  page: number,
  hasNext: boolean,
  pack: (page: number) => string,
): InlineKeyboard {
  if (page > 0) keyboard.text(t('button-prev'), pack(page - 1));
  if (hasNext) keyboard.text(t('button-next'), pack(page + 1));
  return keyboard;
}
