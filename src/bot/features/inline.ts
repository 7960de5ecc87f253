import { GrammyError } from 'grammy';
import type { InlineQueryResultArticle, InlineQueryResultsButton } from 'grammy/types';
import type { BotContext } from '../context.ts';
import type { PriceCard } from '../../services/inline-prices.ts';
import { echoInput, formatRupiah, withoutHiddenChars } from '../../text/format.ts';
import { raw } from '../../text/html.ts';
import type { TranslateFunction } from '@grammyjs/i18n';
import { FastComposer } from '../composer.ts';
import { productStatusWord } from '../../text/product-status.ts';

/** `/start inline`: what the inline answers' button opens. */
export const inlineStartParameter = 'inline';

/** Seconds Telegram may reuse an answer: short, so a price or status change shows soon (the price list is cached anyway). */
export const inlineCacheSeconds = 10;

/** The button above an answer; it opens the bot with `/start inline`. */
const openBot = (text: string): InlineQueryResultsButton => ({ text, start_parameter: inlineStartParameter });

/** Answers the inline query; one later than Telegram's ~10 s ("query is too old") is the next keystroke's business. */
async function answer(ctx: BotContext, ...args: Parameters<BotContext['answerInlineQuery']>): Promise<void> {
  try {
    await ctx.answerInlineQuery(...args);
  } catch (error) {
    if (!(error instanceof GrammyError && error.description.includes('query is too old'))) throw error;
    ctx.deps.logger.warn('inline query answered too late', { userId: ctx.from?.id });
  }
}

/** The answer to someone who gets no prices (no reseller account, banned): no results, a button to the bot. */
export async function answerWithoutPrices(ctx: BotContext): Promise<void> {
  await answer(ctx, [], { cache_time: inlineCacheSeconds, is_personal: true, button: openBot(ctx.t('inline-button-connect')) });
}

/** The price card a chosen result sends (HTML): shop name when there is a profile, product, sell price, availability. */
function priceCard(t: TranslateFunction, card: PriceCard, shopName: string | undefined): InlineQueryResultArticle {
  const price = formatRupiah(card.sellPrice);
  // The card is HTML; the list's description is plain text.
  const status = (word: string | ReturnType<typeof raw>) =>
    card.available ? t('inline-status-available') : t('inline-status-unavailable', { status: word });
  const text = t('inline-card', { name: card.name, price, status: raw(status(productStatusWord(t, card.status))) });
  return {
    type: 'article',
    id: card.code,
    title: card.name,
    description: t('inline-description', { price: raw(price), status: raw(status(raw(productStatusWord(t, card.status)))) }),
    input_message_content: { message_text: shopName ? `${t('inline-card-shop', { shop: withoutHiddenChars(shopName) })}\n${text}` : text },
  };
}

/**
 * Inline mode: `@bot tsel 10` in any chat lists the reseller's matching products with their sell
 * prices (never the cost); choosing one sends a price card. Users without a reseller account get
 * a button opening the bot, where `/start inline` says how to connect (or how to use it). The
 * cards the bot's own inline results post (`via_bot`) are not read as messages to the bot.
 */
export const inlineFeature = new FastComposer<BotContext>();

inlineFeature.on('inline_query', async (ctx) => {
  const { query, offset } = ctx.inlineQuery;
  const found = await ctx.deps.services.inlinePrices.search(ctx.from.id, query, offset);
  if (found.kind === 'not-connected') return answerWithoutPrices(ctx);
  const options = { cache_time: inlineCacheSeconds, is_personal: true };
  if (found.kind === 'unavailable') {
    await answer(ctx, [], { ...options, cache_time: 0, button: openBot(ctx.t('inline-button-unavailable')) });
    return;
  }
  if (found.cards.length === 0 && offset === '') {
    await answer(ctx, [], {
      ...options,
      button: openBot(ctx.t('inline-button-empty', { query: raw(echoInput(query.trim(), 32)) })),
    });
    return;
  }
  await answer(
    ctx,
    found.cards.map((card) => priceCard(ctx.t, card, found.shopName)),
    found.nextOffset === undefined ? options : { ...options, next_offset: found.nextOffset },
  );
});

inlineFeature.command('start', async (ctx, next) => {
  if (ctx.match !== inlineStartParameter || ctx.chat.type !== 'private') return next();
  // A downline shares their own prices too: only someone with no trading account is sent to /connect.
  const connected = (await ctx.deps.services.trading.of(ctx.from?.id ?? 0)) !== undefined;
  await ctx.reply(ctx.t(connected ? 'inline-start-help' : 'inline-start-connect', { bot: ctx.me.username }));
});

// A price card the user posted through the bot's inline results is their message, not a request.
inlineFeature.on('message', async (ctx, next) => {
  if (ctx.message.via_bot?.id === ctx.me.id) return;
  await next();
});
