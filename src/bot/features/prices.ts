import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { canTrade, fromProvider, readTap } from '../guards.ts';
import { editInPlace } from '../edits.ts';
import { formatRupiah } from '../../text/format.ts';
import { conversationIds, enterFlow } from '../conversations/ids.ts';
import { priceProductData, priceSearchData, priceViewData } from '../callback-data/prices.ts';
import { looksLikeSecret } from './unhandled.ts';
import type { PriceView } from '../keyboards/prices.ts';
import { isConfidentQuery, parseSearchQuery, searchProducts } from '../../services/product-search.ts';
import { isProductAvailable, type Product } from '../../services/providers.ts';
import { raw } from '../../text/html.ts';
import { hasSellRules } from '../../services/pricing.ts';
import { localeOf } from '../i18n.ts';
import { boundedCache } from '../../services/memo.ts';
import { FastComposer } from '../composer.ts';
import { renderPriceView } from '../renderers/prices.ts';
import { productStatusWord } from '../../text/product-status.ts';

/** Longest search text kept (bytes): it travels in the callback data of the paging buttons. */
const maxQueryBytes = 40;
const utf8 = new TextEncoder();
/** Scratch space of `normaliseQuery` (only how much of the text fits in it is read). */
const queryBytes = new Uint8Array(maxQueryBytes);

/**
 * /prices (/harga): brands → products of a brand, or with words (`/harga telkomsel 10`) the
 * matching products. Paging and refresh edit the message; an available product's tap starts the
 * buy conversation, an unavailable one's says its status.
 */
export const pricesFeature = new FastComposer<BotContext>();
const privateChat = pricesFeature.chatType('private');

privateChat.command(commandNames('prices'), canTrade, async (ctx) => {
  const query = normaliseQuery(ctx.match);
  await replyPriceView(ctx, query ? { kind: 's', brand: 0, page: 0, query } : { kind: 'b', brand: 0, page: 0, query: '' });
});

// 🔍 Search: asks for the words with a forced reply; the answer is read by `priceSearchFeature`.
pricesFeature.callbackQuery(priceSearchData.filter(), async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.reply(ctx.t('prices-search-prompt'), {
    reply_markup: { force_reply: true, input_field_placeholder: ctx.t('prices-search-placeholder') },
  });
});

pricesFeature.callbackQuery(priceViewData.filter(), async (ctx) => {
  const parsed = await readTap(ctx, priceViewData, parseView);
  if (!parsed) return;
  const products = await priceListForButton(ctx, parsed.fresh);
  if (!products) return;
  await ctx.answerCallbackQuery(parsed.fresh ? { text: ctx.t('prices-refreshed') } : undefined);
  const { text, keyboard } = await priceViewOf(ctx, products, parsed.view);
  await editInPlace(ctx, text, keyboard);
});

pricesFeature.callbackQuery(priceProductData.filter(), async (ctx) => {
  const code = await readTap(ctx, priceProductData, ({ code }) => code);
  if (code === undefined) return;
  const products = await priceListForButton(ctx, false);
  if (!products) return;
  const product = code.startsWith('#') ? products[Number(code.slice(1))] : products.find((p) => p.code === code);
  if (!product) {
    await ctx.answerCallbackQuery({ text: ctx.t('prices-gone'), show_alert: true });
    return;
  }
  if (!isProductAvailable(product)) {
    await ctx.answerCallbackQuery({
      text: toast(ctx.t('prices-unavailable', { name: raw(product.product_name), status: raw(productStatusWord(ctx.t, product.status)) })),
      show_alert: true,
    });
    return;
  }
  await ctx.answerCallbackQuery({
    text: toast(ctx.t('prices-buying', { name: raw(product.product_name), price: formatRupiah(product.price) })),
  });
  // A flow left half-way (one that let this tap through) gives way to the product just chosen.
  await enterFlow(ctx, conversationIds.buy, { lines: [{ code: product.code }] });
});

/** The price list behind a tapped price button, or undefined after answering the tap (not connected, provider error). */
async function priceListForButton(ctx: BotContext & { from: { id: number } }, fresh: boolean): Promise<Product[] | undefined> {
  if (!(await ctx.deps.services.trading.canTrade(ctx.from.id))) {
    await ctx.answerCallbackQuery({ text: ctx.t('error-not-connected', { service: raw(ctx.t('service-reseller')) }), show_alert: true });
    return undefined;
  }
  return fromProvider(ctx, ctx.deps, () => ctx.deps.services.catalogue.priceList(ctx.from.id, { fresh }), { answerTap: true });
}

/**
 * Typed text as a price search (after quick-buy, before the fallback). A reply to the 🔍 prompt
 * always is; other text of a reseller only when something matches, it answers no timed-out step,
 * and it is more than a loose word (`halo` greets as much as it names kartuHalo). Secret-looking
 * text is never searched nor echoed: the fallback deletes it.
 */
export const priceSearchFeature = new FastComposer<BotContext>();

priceSearchFeature.chatType('private').on('message:text', async (ctx, next) => {
  const text = ctx.message.text;
  const reply = ctx.message.reply_to_message;
  const answersPrompt = reply?.from?.id === ctx.me.id && reply.text === ctx.t('prices-search-prompt');
  const query = normaliseQuery(text);
  // Secret-looking text goes on to the fallback, which deletes it, even as an answer to the prompt.
  if (looksLikeSecret(text)) return next();
  if (!answersPrompt && (ctx.expiredConversation !== undefined || text.includes('\n'))) return next();
  if (query === '' || text.trimStart().startsWith('/') || !(await ctx.deps.services.trading.canTrade(ctx.from.id))) return next();
  const view: PriceView = { kind: 's', brand: 0, page: 0, query };
  if (answersPrompt) {
    await replyPriceView(ctx, view);
    return;
  }
  const parsed = parseSearchQuery(query);
  if (!isConfidentQuery(parsed)) return next();
  let products: Product[];
  try {
    products = await ctx.deps.services.catalogue.priceList(ctx.from.id);
  } catch {
    return next();
  }
  // Chatter is not a search: "ok" is found in "Token", but only as part of a word.
  if (searchProducts(products, parsed, { wholeWords: true }).length === 0) return next();
  const { text: answer, keyboard } = await priceViewOf(ctx, products, view);
  await ctx.reply(answer, { reply_markup: keyboard });
});

/** Fetches the user's (cached) price list and replies with `view` of it, or the provider's error. */
async function replyPriceView(ctx: BotContext, view: PriceView): Promise<void> {
  const userId = ctx.from?.id;
  if (userId === undefined) return;
  const products = await fromProvider(ctx, ctx.deps, () => ctx.deps.services.catalogue.priceList(userId));
  if (!products) return;
  const { text, keyboard } = await priceViewOf(ctx, products, view);
  await ctx.reply(text, { reply_markup: keyboard });
}

type RenderedView = ReturnType<typeof renderPriceView>;

/**
 * Views already rendered, by the price list they show (users of one account page through the same
 * list). A list fetched anew is another array, so nothing stale is shown; old views go with it.
 */
const renderedViews = new WeakMap<readonly Product[], (key: string, render: () => RenderedView) => RenderedView>();

/** `renderPriceView` of `view` for this user (their language and sell-price rules), rendered once per price list. */
async function priceViewOf(ctx: BotContext, products: readonly Product[], view: PriceView): Promise<RenderedView> {
  const rules = ctx.account?.sellRules;
  const key = [await localeOf(ctx), view.kind, view.brand, view.page, view.query, hasSellRules(rules) ? JSON.stringify(rules) : ''].join(
    '\u0000',
  );
  let views = renderedViews.get(products);
  if (!views) renderedViews.set(products, (views = boundedCache(200)));
  return views(key, () => renderPriceView(ctx.t, products, ctx.deps.services.catalogue.brands(products), view, rules));
}

/** Search words as matched and carried in callback data: lower case, single spaces, no `:`, at most `maxQueryBytes` bytes. */
export function normaliseQuery(text: string): string {
  const query = text.toLowerCase().replace(/:/g, ' ').replace(/\s+/g, ' ').trim();
  // Encoding into a buffer of the limit stops at the last whole character that fits, whatever the text's length.
  const { read } = utf8.encodeInto(query, queryBytes);
  return query.slice(0, read).trim();
}

/** Callback answers hold at most 200 characters; provider texts inside them may be longer. */
function toast(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function parseView(fields: ReturnType<typeof priceViewData.unpack>): { view: PriceView; fresh: boolean } | undefined {
  const { kind, brand, page, query, fresh } = fields;
  if (kind !== 'b' && kind !== 'p' && kind !== 's') return undefined;
  if (!Number.isSafeInteger(brand) || !Number.isSafeInteger(page) || brand < 0 || page < 0) return undefined;
  return { view: { kind, brand, page, query: normaliseQuery(query) }, fresh };
}
