import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { Item } from '../../services/providers.ts';
import { marketplaceItemData, marketplaceItemsPageData } from '../callback-data/marketplace.ts';
import { addPageButtons, isButtonUrl, nonEmpty, withoutEmptyRows } from './rows.ts';
import { raw } from '../../text/html.ts';

/** Longest item name on a button (characters); Telegram cuts long buttons anyway. */
const maxButtonName = 40;

/** `text` cut to `max` characters (code points) with an ellipsis. */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= max
    ? chars.join('')
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * Under a page of /items: one button per item (numbered like the text) opening its details, then
 * previous/next when there is more than one page.
 */
export function createItemsKeyboard(
  t: TranslateFunction,
  items: readonly Item[],
  options: { page: number; pages: number; firstNumber: number },
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  items.forEach((item, index) => {
    const label = t('marketplace-items-button', { n: options.firstNumber + index, name: raw(shorten(item.name, maxButtonName)) });
    keyboard.text(label, marketplaceItemData.pack({ id: item.id })).row();
  });
  addPageButtons(keyboard, t, options.page, options.page < options.pages - 1, (page) => marketplaceItemsPageData.pack({ page }));
  return withoutEmptyRows(keyboard);
}

/**
 * Under an item's details: the live demo and the video/audio preview as URL buttons (each only
 * when the marketplace gave a usable link). Undefined when there is no button to show.
 */
export function createItemDetailsKeyboard(t: TranslateFunction, item: Item): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  if (isButtonUrl(item.demo_link)) keyboard.url(t('marketplace-item-button-demo'), item.demo_link).row();
  if (isButtonUrl(item.media.preview_video)) keyboard.url(t('marketplace-item-button-video'), item.media.preview_video).row();
  if (isButtonUrl(item.media.preview_audio)) keyboard.url(t('marketplace-item-button-audio'), item.media.preview_audio).row();
  return nonEmpty(keyboard);
}
