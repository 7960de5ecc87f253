import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { buyPickerData, type BuyPickerAction } from '../callback-data/buy-picker.ts';
import { addPageButtons, withoutEmptyRows } from './rows.ts';

/** Which picker rendering the buttons belong to (see `buyPickerData`). */
export interface PickerStamp {
  flow: string;
  view: number;
}

/** Callback data of a picker button. */
export function packPickerButton(stamp: PickerStamp, action: BuyPickerAction, n = 0): string {
  return buyPickerData.pack({ flow: stamp.flow, view: stamp.view, action, n });
}

export interface PickerKeyboardOptions {
  /** Labels of every item of the step; a tap on one sends `pick` with its index in this list. */
  labels: readonly string[];
  perRow: number;
  /** Items per page; `labels.length` or more means a single page. */
  perPage: number;
  /** 0-based; clamped to the last page. */
  page: number;
  /** ⬅️ Back is offered (every step but the first). */
  back: boolean;
}

/**
 * A picker step's keyboard: the page's items (`perRow` a row), ‹ Previous / Next › when paged,
 * then ⬅️ Back (when offered) and ❌ Cancel.
 */
export function createPickerKeyboard(t: TranslateFunction, stamp: PickerStamp, options: PickerKeyboardOptions): InlineKeyboard {
  const { labels, perRow, perPage } = options;
  const pages = Math.max(1, Math.ceil(labels.length / perPage));
  const page = Math.min(options.page, pages - 1);
  const keyboard = new InlineKeyboard();
  const start = page * perPage;
  labels.slice(start, start + perPage).forEach((label, offset) => {
    keyboard.text(label, packPickerButton(stamp, 'pick', start + offset));
    if ((offset + 1) % perRow === 0) keyboard.row();
  });
  keyboard.row();
  addPageButtons(keyboard, t, page, page < pages - 1, (n) => packPickerButton(stamp, 'page', n)).row();
  if (options.back) keyboard.text(t('buy-picker-button-back'), packPickerButton(stamp, 'back'));
  keyboard.text(t('button-cancel'), packPickerButton(stamp, 'cancel'));
  return withoutEmptyRows(keyboard);
}
