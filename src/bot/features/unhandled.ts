import type { BotContext } from '../context.ts';
import { FastComposer } from '../composer.ts';
import { readStrayText, type StrayText } from '../../services/stray-text.ts';
import { operatorNames } from '../../domain/operators.ts';
import { searchProducts } from '../../services/product-search.ts';
import { raw } from '../../text/html.ts';
import { escapeHtml } from '../../text/format.ts';
import { quietly } from '../edits.ts';
import { pinData } from '../callback-data/pin.ts';
import { shopData } from '../callback-data/shop.ts';
import { sellStepData } from '../callback-data/sell.ts';
import { buyPickerData } from '../callback-data/buy-picker.ts';

/** Last in the chain: a short helpful answer to anything nobody handled, never silence; quiet about chatter in groups. */
export const unhandledFeature = new FastComposer<BotContext>();

/**
 * Text that looks like a credential or a PIN (a long run of letters and digits, or 4-6 digits): an
 * answer to a connect or PIN step that timed out. It must not stay visible in the chat.
 */
export function looksLikeSecret(text: string): boolean {
  const value = text.trim();
  if (/^\d{4,6}$/.test(value)) return true;
  return /^[A-Za-z0-9_\-:+/=]{16,}$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/** For a message whose conversation had timed out: how long it waited and the command that starts it again. */
function expiry(ctx: BotContext): { minutes: number; command: string } | undefined {
  const id = ctx.expiredConversation;
  if (id === undefined) return undefined;
  const minutes = Math.max(1, Math.round(ctx.deps.settings.conversationTimeoutMs / 60_000));
  return { minutes, command: ctx.t('conversation-restart', { id }) };
}

// A button of a flow that is over (cancelled, timed out, done, replaced): nothing to answer any
// more, so its buttons go.
unhandledFeature.callbackQuery([pinData.filter(), shopData.filter(), sellStepData.filter(), buyPickerData.filter()], async (ctx) => {
  await quietly(ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback') }));
  await quietly(ctx.editMessageReplyMarkup());
});

unhandledFeature.on('callback_query', async (ctx) => {
  await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback'), show_alert: false });
});

unhandledFeature.chatType('private').on('message:text', async (ctx, next) => {
  if (!looksLikeSecret(ctx.message.text)) return next();
  try {
    await ctx.deleteMessage();
  } catch (error) {
    ctx.deps.logger.warn('could not delete a message that looks like a secret', { userId: ctx.from.id, error });
  }
  const expired = expiry(ctx);
  await ctx.reply(expired ? ctx.t('unhandled-secret-expired', expired) : ctx.t('unhandled-secret'));
});

/** Most products suggested for "search words + number". */
const maxSuggestions = 5;

/** The answer to a message `readStrayText` recognised: how to buy, why a target is no number, or matching CODE.TARGET lines. */
async function strayTextAnswer(ctx: BotContext, stray: StrayText): Promise<string> {
  switch (stray.kind) {
    case 'phone':
      return stray.operator
        ? ctx.t('unhandled-phone', { phone: stray.phone, operator: operatorNames[stray.operator], search: stray.operator })
        : ctx.t('unhandled-phone-unknown', { phone: stray.phone });
    case 'bad-target':
      return ctx.t('unhandled-bad-target', { code: stray.code, target: stray.target.slice(0, 40) });
    case 'search-target': {
      const query = stray.query.slice(0, 40);
      const matches = await matchingProducts(ctx, stray.query);
      if (matches.length === 0) return ctx.t('unhandled-search-target-none', { target: stray.target, query });
      const lines = matches.map((p) => `<code>${escapeHtml(`${p.code}.${stray.target}`)}</code> · ${escapeHtml(p.product_name)}`);
      return ctx.t('unhandled-search-target', { query, target: stray.target, lines: raw(lines.join('\n')) });
    }
  }
}

/** The best few products of the user's price list for `query`; none when not connected or the list cannot be fetched. */
async function matchingProducts(ctx: BotContext, query: string): Promise<Array<{ code: string; product_name: string }>> {
  const userId = ctx.from?.id;
  if (userId === undefined || !(await ctx.deps.services.trading.canTrade(userId))) return [];
  try {
    const products = await ctx.deps.services.catalogue.priceList(userId);
    return searchProducts(products, query, { wholeWords: true }).slice(0, maxSuggestions);
  } catch {
    return [];
  }
}

unhandledFeature.chatType('private').on('message', async (ctx) => {
  const expired = expiry(ctx);
  if (expired) return void (await ctx.reply(ctx.t('conversation-expired', expired)));
  const stray = ctx.message.text === undefined ? undefined : readStrayText(ctx.message.text);
  await ctx.reply(stray ? await strayTextAnswer(ctx, stray) : ctx.t('unhandled-text'));
});
