import { GrammyError } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { fromProvider, readTap, requireClient } from '../guards.ts';
import { editInPlace, quietly } from '../edits.ts';
import { describeProviderError } from '../provider-errors.ts';
import { marketplaceItemData, marketplaceItemsPageData } from '../callback-data/marketplace.ts';
import { createItemDetailsKeyboard } from '../keyboards/marketplace.ts';
import { isButtonUrl } from '../keyboards/rows.ts';
import { captionFor, renderAccount, renderItemDetails, renderItemsPage, renderVerifyOutcome } from '../renderers/marketplace.ts';
import type { Item, MarketplaceClient } from '../../services/providers.ts';
import { withoutFormatChars } from '../../text/format.ts';
import { raw } from '../../text/html.ts';
import { localeOf } from '../i18n.ts';
import { FastComposer } from '../composer.ts';
import { showChatAction } from '../middlewares/crowd.ts';

/**
 * The marketplace seller's corner (document 2): `/account` (`/akun`) and `/items` (`/produk`, paged;
 * an item's tap sends its details with its image) in private chats; `/verify CODE` (`/validasi`)
 * anywhere: checks a buyer's purchase code (in a group with the account of whoever linked it).
 * Without a code it asks with a forced reply, whose answer is read as the code, never as a secret.
 * Caching, rate limits and keeping codes out of the log are the verification service's business.
 */
export const marketplaceFeature = new FastComposer<BotContext>();
const privateChat = marketplaceFeature.chatType('private');

privateChat.command(commandNames('account'), async (ctx) => {
  const client = await requireClient(ctx, ctx.deps, 'marketplace');
  if (!client) return;
  await showChatAction(ctx, 'typing');
  const account = await fromProvider(ctx, ctx.deps, () => client.accountDetails());
  if (!account) return;
  await ctx.reply(renderAccount(ctx.t, await localeOf(ctx), account), { link_preview_options: { is_disabled: true } });
});

privateChat.command(commandNames('items'), async (ctx) => {
  const client = await requireClient(ctx, ctx.deps, 'marketplace');
  if (!client) return;
  await showChatAction(ctx, 'typing');
  const items = await fromProvider(ctx, ctx.deps, () => client.items());
  if (!items) return;
  const { text, keyboard } = renderItemsPage(ctx.t, await localeOf(ctx), items, 0);
  await ctx.reply(text, { reply_markup: keyboard, link_preview_options: { is_disabled: true } });
});

marketplaceFeature.callbackQuery(marketplaceItemsPageData.filter(), async (ctx) => {
  const page = await readTap(ctx, marketplaceItemsPageData, ({ page }) => safeInteger(page, 0));
  if (page === undefined) return;
  const client = await callbackClient(ctx);
  if (!client) return;
  const items = await fromProvider(ctx, ctx.deps, () => client.items(), { answerTap: true });
  if (!items) return;
  // The provider may have been slow: an answer to an expired query is not worth an error.
  await quietly(ctx.answerCallbackQuery());
  const { text, keyboard } = renderItemsPage(ctx.t, await localeOf(ctx), items, page);
  await editInPlace(ctx, text, keyboard, { link_preview_options: { is_disabled: true } });
});

marketplaceFeature.callbackQuery(marketplaceItemData.filter(), async (ctx) => {
  const id = await readTap(ctx, marketplaceItemData, ({ id }) => safeInteger(id, 1));
  if (id === undefined) return;
  const client = await callbackClient(ctx);
  if (!client) return;
  const item = await fromProvider(ctx, ctx.deps, () => client.item(id), { answerTap: true });
  if (!item) return;
  await quietly(ctx.answerCallbackQuery());
  await sendItemDetails(ctx, item);
});

/** A client for the tapper's marketplace account, or undefined after telling them to connect (as an alert). */
async function callbackClient(ctx: BotContext): Promise<MarketplaceClient | undefined> {
  const client = ctx.from ? await ctx.deps.services.credentials.client(ctx.from.id, 'marketplace') : undefined;
  if (!client) {
    await ctx.answerCallbackQuery({ text: ctx.t('error-not-connected', { service: raw(ctx.t('service-marketplace')) }), show_alert: true });
  }
  return client;
}

/** Sends an item's details as a photo with them as its caption, else (no image, too long, refused) as text with the image's link. */
async function sendItemDetails(ctx: BotContext, item: Item): Promise<void> {
  const locale = await localeOf(ctx);
  const keyboard = createItemDetailsKeyboard(ctx.t, item);
  const imageUrl = [item.media.preview_image, item.media.thumbnail].find((url) => isButtonUrl(url));
  if (imageUrl !== undefined) {
    const caption = captionFor(ctx.t, locale, item);
    if (caption !== undefined) {
      try {
        await ctx.replyWithPhoto(imageUrl, { caption, reply_markup: keyboard });
        return;
      } catch (error) {
        if (!(error instanceof GrammyError)) throw error;
        ctx.deps.logger.warn('marketplace item image refused by Telegram; sending the details as text', {
          userId: ctx.from?.id,
          itemId: item.id,
          description: error.description,
        });
      }
    }
  }
  const imageLinks = [item.media.preview_image, item.media.thumbnail].filter(
    (url): url is string => url !== undefined && url.trim() !== '',
  );
  const text = renderItemDetails(ctx.t, locale, item, { description: 600, tags: 30, image: imageLinks[0] });
  await ctx.reply(text, { reply_markup: keyboard });
}

marketplaceFeature.command(commandNames('verify'), async (ctx) => {
  const code = firstWord(ctx.match);
  if (code === '') {
    // No code yet: ask for it with a forced reply; the answer is read below, never taken for a secret.
    await ctx.reply(ctx.t('marketplace-verify-prompt'), {
      reply_markup: { force_reply: true, selective: true, input_field_placeholder: ctx.t('marketplace-verify-placeholder') },
      // In a group the forced reply is selective: only the sender of the command is asked.
      reply_parameters: ctx.chat.type === 'private' ? undefined : { message_id: ctx.msg.message_id, allow_sending_without_reply: true },
    });
    return;
  }
  await answerVerify(ctx, code, ctx.msg.message_id);
});

// A reply to the /verify prompt is the purchase code (in groups too: the bot sees replies to itself).
// It is handled here, before the fallback that deletes secret-looking text, which a code resembles.
marketplaceFeature.on('message:text', async (ctx, next) => {
  const reply = ctx.message.reply_to_message;
  if (reply?.from?.id !== ctx.me.id || reply.text !== ctx.t('marketplace-verify-prompt')) return next();
  if (ctx.message.text.trimStart().startsWith('/')) return next();
  await answerVerify(ctx, firstWord(ctx.message.text), ctx.message.message_id);
});

/** The first word of `text`, without invisible formatting characters ('' when none). */
function firstWord(text: string): string {
  return withoutFormatChars(text).trim().split(/\s+/)[0] ?? '';
}

/** Checks `code` and answers with the outcome, as a reply to the message `messageId` that carried it. */
async function answerVerify(ctx: BotContext, code: string, messageId: number): Promise<void> {
  const { deps } = ctx;
  if (!ctx.chat) return;
  const replyTo = { reply_parameters: { message_id: messageId, allow_sending_without_reply: true } };
  const result = await deps.services.verification.verify(
    { chatId: ctx.chat.id, isPrivate: ctx.chat.type === 'private', senderId: ctx.from?.id, code },
    { beforeAsking: () => showChatAction(ctx, 'typing') },
  );
  switch (result.kind) {
    case 'bad-code':
      await ctx.reply(ctx.t('marketplace-verify-usage'), { ...replyTo });
      return;
    case 'not-connected':
      await ctx.reply(notConnectedText(ctx.t, result.who));
      return;
    case 'too-many':
      if (result.tell)
        await ctx.reply(ctx.t('marketplace-verify-too-many', { seconds: Math.max(1, Math.ceil(result.waitMs / 1000)) }), replyTo);
      return;
    case 'failed': {
      const { error } = result;
      const text =
        error.kind === 'credentials' && !result.ownAccount
          ? ctx.t('marketplace-verify-owner-credentials')
          : describeProviderError(ctx.t, error, deps.settings.publicIp);
      await ctx.reply(text, replyTo);
      return;
    }
    case 'answered': {
      const text = renderVerifyOutcome(ctx.t, result.outcome, {
        now: deps.now().getTime(),
        account: result.account,
        cached: result.cached,
        locale: await localeOf(ctx),
      });
      await ctx.reply(text, { link_preview_options: { is_disabled: true }, ...replyTo });
      return;
    }
  }
}

/** Why no marketplace account can answer a /verify here, and what to do. */
function notConnectedText(t: TranslateFunction, who: 'sender' | 'group-owner' | 'group'): string {
  if (who === 'group-owner') return t('marketplace-verify-owner-not-connected');
  if (who === 'group') return t('marketplace-verify-group-not-connected');
  return t('error-not-connected', { service: t('service-marketplace') });
}

/** `value` when it is a safe integer of at least `min`. */
function safeInteger(value: number, min: number): number | undefined {
  return Number.isSafeInteger(value) && value >= min ? value : undefined;
}
