import { InlineKeyboard } from 'grammy';

/** The keyboard without empty rows (left by `.row()` after the last button of a section). */
export function withoutEmptyRows(keyboard: InlineKeyboard): InlineKeyboard {
  return new InlineKeyboard(keyboard.inline_keyboard.filter((row) => row.length > 0));
}
