import { type InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BotContext, BotDeps } from '../context.ts';
import { commandNames } from '../commands.ts';
import { connectedTo, fromProvider, readTap, requireClient } from '../guards.ts';
import { editInPlace } from '../edits.ts';
import { formatRupiah, formatWibIn } from '../../text/format.ts';
import { conversationIds, enterFlow, type OrderArgs } from '../conversations/ids.ts';
import {
  gamesData,
  orderConfirmData,
  orderStepData,
  ordersPageData,
  readGamesData,
  readOrderConfirmData,
  readOrdersPage,
} from '../callback-data/gameshop.ts';
import { createOrdersKeyboard } from '../keyboards/gameshop.ts';
import { renderCategory, renderGamesOverview } from '../renderers/gameshop.ts';
import { isButtonUrl } from '../keyboards/rows.ts';
import type { Game } from '../../services/providers.ts';
import { raw } from '../../text/html.ts';
import { paymentStatusText } from '../renderers/game-order.ts';
import { FastComposer } from '../composer.ts';

/** Orders per /orders page. */
export const ordersPageSize = 10;
const noPreview = { link_preview_options: { is_disabled: true } };

/**
 * The game shop:
 * - `/games` (`/game`): the shop's popular games first (tap one to order it), then the games by
 *   category (a button per category opens it, with a way back).
 * - `/order` (`/pesan`) [game]: the order conversation, with the game when one is named.
 * - `/orders` (`/pesanan`): the sender's game orders, newest first, ten per page, with a Pay
 *   button for each one that can still be paid.
 * - Buttons of order conversations that are over (double taps, old summaries) are answered here
 *   from the stored orders: they never order anything.
 */
export const gameshopFeature = new FastComposer<BotContext>();
const privateChat = gameshopFeature.chatType('private');

/** The sender's games, or undefined after telling them what went wrong (not connected, provider error). */
async function fetchGames(ctx: BotContext): Promise<{ games: Game[]; popular: Game[] } | undefined> {
  const client = await requireClient(ctx, ctx.deps, 'gameshop');
  return client && fromProvider(ctx, ctx.deps, () => client.games());
}

/** Enters the order conversation, ending whatever flow was still open in this chat. */
const startOrder = (ctx: BotContext, args: OrderArgs) => enterFlow(ctx, conversationIds.order, args);

privateChat.command(commandNames('games'), async (ctx) => {
  const list = await fetchGames(ctx);
  if (!list) return;
  const { text, keyboard } = renderGamesOverview(ctx.t, list.games, list.popular);
  await ctx.reply(text, { reply_markup: keyboard });
});

privateChat.command(commandNames('order'), connectedTo('gameshop'), async (ctx) => {
  const game = ctx.match.trim();
  await startOrder(ctx, game === '' ? {} : { game: game.slice(0, 100) });
});

privateChat.command(commandNames('orders'), async (ctx) => {
  const { text, keyboard } = await renderOrdersPage(ctx.t, ctx.deps, ctx.from.id, 0);
  await ctx.reply(text, { link_preview_options: { is_disabled: true }, reply_markup: keyboard });
});

gameshopFeature.callbackQuery(gamesData.filter(), async (ctx) => {
  const data = await readTap(ctx, gamesData, readGamesData);
  if (!data) return;
  if (data.action === 'game') {
    await ctx.answerCallbackQuery();
    await startOrder(ctx, { game: data.value });
    return;
  }
  await ctx.answerCallbackQuery();
  const list = await fetchGames(ctx);
  if (!list) return;
  if (data.action === 'gid') {
    const game = list.games.find((g) => String(g.id) === data.value);
    if (!game) {
      await ctx.reply(ctx.t('games-gone'));
      return;
    }
    await startOrder(ctx, { game: game.slug });
    return;
  }
  const view = data.action === 'cat' ? renderCategory(ctx.t, list.games, Number(data.value)) : undefined;
  const { text, keyboard } = view ?? renderGamesOverview(ctx.t, list.games, list.popular);
  await editInPlace(ctx, text, keyboard, noPreview);
});

gameshopFeature.callbackQuery(ordersPageData.filter(), async (ctx) => {
  const page = await readTap(ctx, ordersPageData, readOrdersPage);
  if (page === undefined) return;
  await ctx.answerCallbackQuery();
  const { text, keyboard } = await renderOrdersPage(ctx.t, ctx.deps, ctx.from.id, page);
  await editInPlace(ctx, text, keyboard, noPreview);
});

// A confirmation button whose conversation is over: say whether it already ordered, never order again.
gameshopFeature.callbackQuery(orderConfirmData.filter(), async (ctx) => {
  const data = readOrderConfirmData(ctx.callbackQuery.data);
  const order = data ? await ctx.deps.services.gameOrders.findByConfirmation(ctx.from.id, data.id) : undefined;
  await ctx
    .answerCallbackQuery(
      order
        ? { text: ctx.t('order-already-created', { orderId: raw(order.orderId) }), show_alert: true }
        : { text: ctx.t('order-summary-expired') },
    )
    .catch(() => undefined);
  await ctx.editMessageReplyMarkup().catch(() => undefined);
});

// A question of an order conversation that is over.
gameshopFeature.callbackQuery(orderStepData.filter(), async (ctx) => {
  await ctx.answerCallbackQuery({ text: ctx.t('order-question-expired') }).catch(() => undefined);
  await ctx.editMessageReplyMarkup().catch(() => undefined);
});

/** A page of the user's game orders as text and buttons; a page past the end falls back to the first. */
export async function renderOrdersPage(
  t: TranslateFunction,
  deps: BotDeps,
  userId: number,
  requestedPage: number,
): Promise<{ text: string; keyboard: InlineKeyboard | undefined }> {
  const { page, orders: shown, hasNext } = await deps.services.gameOrders.ordersPage(userId, requestedPage, ordersPageSize);
  if (shown.length === 0) return { text: t('orders-empty'), keyboard: undefined };
  const now = deps.now().getTime();
  const firstNumber = page * ordersPageSize + 1;
  const payable: Array<{ n: number; url: string }> = [];
  const lines = [t('orders-title', { page: page + 1 }), ''];
  shown.forEach((order, index) => {
    const n = firstNumber + index;
    const expired = Date.parse(order.expiredAt) <= now;
    const unpaid = order.paymentStatus.toUpperCase() === 'UNPAID';
    if (unpaid && !expired && isButtonUrl(order.paymentUrl)) payable.push({ n, url: order.paymentUrl });
    lines.push(
      t('orders-line', {
        n,
        orderId: order.orderId,
        game: order.gameTitle ?? order.game,
        product: order.productName ?? `ID ${order.productId}`,
        quantity: order.quantity,
        total: formatRupiah(order.totalPrice),
        method: order.paymentName ?? `ID ${order.paymentMethodId}`,
        status: raw(paymentStatusText(t, order.paymentStatus)),
        created: formatWibIn(t, order.createdAt),
      }),
      unpaid ? t(expired ? 'orders-expired' : 'orders-pay-before', { at: formatWibIn(t, order.expiredAt) }) : '',
      '',
    );
  });
  lines.push(t('orders-footer'));
  const text = lines.filter((line, index, all) => !(line === '' && all[index - 1] === '')).join('\n');
  return { text, keyboard: createOrdersKeyboard(t, payable, { page, hasNext }) };
}
