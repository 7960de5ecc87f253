import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { gamesData, orderConfirmData, orderStepData, ordersPageData } from '../callback-data/gameshop.ts';
import { packIfFits } from '../callback-data/read.ts';
import { addCopyButton, addPageButtons, isButtonUrl, nonEmpty, withoutEmptyRows } from './rows.ts';
import { raw } from '../../text/html.ts';
import type { Game } from '../../services/providers.ts';

/** A game as the /games keyboards need it. */
type GameButton = Pick<Game, 'id' | 'slug' | 'title'>;

/** Callback data ordering `game`: by slug, or by id when the slug does not fit 64 bytes. */
function gameButtonData(game: GameButton): string | undefined {
  return (
    packIfFits(() => gamesData.pack({ action: 'game', value: game.slug })) ??
    packIfFits(() => gamesData.pack({ action: 'gid', value: String(game.id) }))
  );
}

/** One button per game that can be packed, labelled by `label`. */
function gameButtons(games: readonly GameButton[], label: (game: GameButton) => string): Array<{ text: string; data: string }> {
  return games.flatMap((game) => {
    const data = gameButtonData(game);
    return data ? [{ text: label(game), data }] : [];
  });
}

/** Buttons in rows of `columns`. */
function grid(keyboard: InlineKeyboard, buttons: Array<{ text: string; data: string }>, columns: number): InlineKeyboard {
  buttons.forEach((button, index) => {
    keyboard.text(button.text, button.data);
    if ((index + 1) % columns === 0 || index === buttons.length - 1) keyboard.row();
  });
  return keyboard;
}

/** /games overview: the popular games (tap to order), then one button per category. */
export function createGamesKeyboard(
  t: TranslateFunction,
  popular: readonly GameButton[],
  categories: ReadonlyArray<{ id: number; title: string; count: number }>,
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  const hot = gameButtons(popular, (game) => `🔥 ${game.title}`);
  grid(keyboard, hot, 2);
  const categoryButtons = categories.flatMap((category) => {
    const data = packIfFits(() => gamesData.pack({ action: 'cat', value: String(category.id) }));
    return data ? [{ text: t('games-button-category', { category: raw(category.title), count: category.count }), data }] : [];
  });
  grid(keyboard, categoryButtons, 2);
  return withoutEmptyRows(keyboard);
}

/** One category of /games: its games (tap to order) and a way back. */
export function createCategoryKeyboard(t: TranslateFunction, games: readonly GameButton[]): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  const buttons = gameButtons(games, (game) => game.title);
  grid(keyboard, buttons, 2);
  keyboard.text(t('button-back'), gamesData.pack({ action: 'home', value: '-' }));
  return withoutEmptyRows(keyboard);
}

/** A choice offered by a question of the order conversation. */
export interface OrderChoice {
  label: string;
  value: string;
}

/**
 * The buttons of one question of the order conversation (`flow`, `step`): the choices in rows of
 * `columns`, then "Skip" when the answer is optional. Undefined when there is nothing to tap.
 */
export function createOrderChoiceKeyboard(
  t: TranslateFunction,
  flow: string,
  step: number,
  choices: readonly OrderChoice[],
  options: { columns?: number; skip?: boolean } = {},
): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  const buttons = choices.flatMap((choice) => {
    const data = packIfFits(() => orderStepData.pack({ flow, step, value: choice.value }));
    return data ? [{ text: choice.label, data }] : [];
  });
  grid(keyboard, buttons, options.columns ?? 1);
  if (options.skip) keyboard.text(t('order-button-skip'), orderStepData.pack({ flow, step, value: 'skip' })).row();
  return nonEmpty(keyboard);
}

/** Order now / Cancel under the order summary. */
export function createOrderSummaryKeyboard(t: TranslateFunction, confirmationId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('order-button-confirm'), orderConfirmData.pack({ action: 'ok', id: confirmationId }))
    .text(t('button-cancel'), orderConfirmData.pack({ action: 'no', id: confirmationId }));
}

/** Under "the promo code is not valid": order without it, try another code, or cancel. */
export function createPromoInvalidKeyboard(t: TranslateFunction, confirmationId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('order-button-without-promo'), orderConfirmData.pack({ action: 'nopromo', id: confirmationId }))
    .row()
    .text(t('order-button-other-promo'), orderConfirmData.pack({ action: 'promo', id: confirmationId }))
    .text(t('button-cancel'), orderConfirmData.pack({ action: 'no', id: confirmationId }));
}

/**
 * Under a created order: "Pay" opening the shop's payment page (when the URL is usable) and
 * "Copy code" copying `code` (a virtual-account number, a payment code). Undefined when neither applies.
 */
export function createPayKeyboard(t: TranslateFunction, paymentUrl: string | undefined, code?: string): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  if (isButtonUrl(paymentUrl)) keyboard.url(t('order-button-pay'), paymentUrl);
  addCopyButton(keyboard, t('order-button-copy-code'), code);
  return keyboard.inline_keyboard.flat().length > 0 ? keyboard : undefined;
}

/** /orders: a Pay button per listed order that can still be paid, then previous/next page. */
export function createOrdersKeyboard(
  t: TranslateFunction,
  payable: ReadonlyArray<{ n: number; url: string }>,
  options: { page: number; hasNext: boolean },
): InlineKeyboard | undefined {
  const keyboard = new InlineKeyboard();
  payable.forEach(({ n, url }, index) => {
    if (!isButtonUrl(url)) return;
    keyboard.url(t('orders-button-pay', { n }), url);
    if (index % 2 === 1) keyboard.row();
  });
  addPageButtons(keyboard.row(), t, options.page, options.hasNext, (page) => ordersPageData.pack({ page }));
  return nonEmpty(keyboard);
}
