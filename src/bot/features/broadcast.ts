import { InlineKeyboard } from 'grammy';
import type { InlineKeyboardMarkup, MessageEntity } from 'grammy/types';
import { createCallbackData } from 'callback-data';
import type { BotContext } from '../context.ts';
import { escapeHtml } from '../../text/format.ts';
import { serviceNames, supportedLocales } from '../../domain.ts';
import type { BroadcastAudience, NewBroadcastJob } from '../../services/broadcasts.ts';
import { StoreError } from '../../store/errors.ts';
import { FastComposer } from '../composer.ts';
import { isAdmin } from './admin.ts';

/** Audience choice, confirm, back and cancel of a broadcast draft. */
const broadcastData = createCallbackData('bcast', { action: String, value: String });

const encodeAudience = (audience: BroadcastAudience): string =>
  audience.kind === 'all'
    ? 'all'
    : audience.kind === 'service'
      ? `svc-${audience.service}`
      : audience.kind === 'locale'
        ? `loc-${audience.locale}`
        : `buy-${audience.days}`;

function decodeAudience(value: string): BroadcastAudience | undefined {
  const [kind, arg = ''] = value.split('-');
  if (kind === 'all') return { kind: 'all' };
  if (kind === 'svc' && (serviceNames as readonly string[]).includes(arg)) return { kind: 'service', service: arg };
  if (kind === 'loc' && (supportedLocales as readonly string[]).includes(arg)) return { kind: 'locale', locale: arg };
  if (kind === 'buy' && (arg === '7' || arg === '30')) return { kind: 'buyers', days: Number(arg) };
  return undefined;
}

function audienceLabel(ctx: BotContext, audience: BroadcastAudience): string {
  if (audience.kind === 'service') return ctx.t('broadcast-audience-service', { service: ctx.t(`service-${audience.service}`) });
  if (audience.kind === 'locale') return ctx.t(`broadcast-audience-locale-${audience.locale}`);
  if (audience.kind === 'buyers') return ctx.t('broadcast-audience-buyers', { days: audience.days });
  return ctx.t('broadcast-audience-all');
}

function audienceKeyboard(ctx: BotContext): InlineKeyboard {
  const button = (audience: BroadcastAudience) =>
    InlineKeyboard.text(audienceLabel(ctx, audience), broadcastData.pack({ action: 'aud', value: encodeAudience(audience) }));
  return InlineKeyboard.from([
    [button({ kind: 'all' })],
    serviceNames.map((service) => button({ kind: 'service', service })),
    supportedLocales.map((locale) => button({ kind: 'locale', locale })),
    [button({ kind: 'buyers', days: 7 }), button({ kind: 'buyers', days: 30 })],
    [InlineKeyboard.text(ctx.t('button-cancel'), broadcastData.pack({ action: 'cancel', value: '' }))],
  ]);
}

/** The command's own text as a message of its own: entities after the command, shifted. */
function commandText(ctx: BotContext & { message: { text: string } }): { text: string; entities: MessageEntity[] } {
  const full = ctx.message.text;
  const text = String(ctx.match ?? '').trim();
  const start = text === '' ? full.length : full.lastIndexOf(text);
  const entities = (ctx.message.entities ?? [])
    .filter((entity) => entity.type !== 'bot_command' && entity.offset >= start)
    .map((entity) => ({ ...entity, offset: entity.offset - start }));
  return { text, entities };
}

/**
 * Broadcasts, for ADMIN_IDS only (anyone else gets the answer to an unknown command):
 * - `/broadcast <text>`, or `/broadcast` in reply to any message (text, photo, video, document,
 *   with its inline buttons): the message is copied to the admin as the preview, the admin picks
 *   the audience, sees its size and confirms; the job is stored and delivered by the broadcast
 *   runner (src/jobs/broadcast.ts), which edits the confirmation into a progress message.
 * - `/broadcast_cancel`: stops the running broadcast; the final report follows.
 * Drafts are stored per admin id (`broadcasts.saveDraft`), so the taps that continue one may reach
 * another instance, or this one after a restart.
 */
export const broadcastFeature = new FastComposer<BotContext>();
const admins = broadcastFeature.chatType('private');

admins.command('broadcast', async (ctx) => {
  if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
  if (await ctx.deps.broadcasts.running()) return void (await ctx.reply(ctx.t('broadcast-busy')));
  const replied = ctx.message.reply_to_message;
  let previewMessageId: number;
  let replyMarkup: InlineKeyboardMarkup | undefined;
  if (replied) {
    replyMarkup = replied.reply_markup;
    try {
      const copy = await ctx.api.copyMessage(
        ctx.chat.id,
        ctx.chat.id,
        replied.message_id,
        replyMarkup ? { reply_markup: replyMarkup } : {},
      );
      previewMessageId = copy.message_id;
    } catch (error) {
      ctx.deps.logger.warn('a broadcast preview could not be copied', { error });
      return void (await ctx.reply(ctx.t('broadcast-cannot-copy')));
    }
  } else {
    const { text, entities } = commandText(ctx);
    if (text === '') return void (await ctx.reply(ctx.t('broadcast-usage')));
    // Sent as the admin typed it: their own formatting (entities), else escaped for the HTML parse mode.
    const preview = entities.length > 0 ? await ctx.reply(text, { entities }) : await ctx.reply(escapeHtml(text));
    previewMessageId = preview.message_id;
  }
  await ctx.deps.broadcasts.saveDraft(ctx.from.id, {
    previewMessageId,
    // Telegram's own shape, stored as JSON.
    ...(replyMarkup ? { replyMarkup: replyMarkup as unknown as NewBroadcastJob['replyMarkup'] } : {}),
  });
  await ctx.reply(ctx.t('broadcast-pick-audience'), { reply_markup: audienceKeyboard(ctx) });
});

admins.command('broadcast_cancel', async (ctx) => {
  if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
  const cancelled = await ctx.deps.broadcasts.cancel();
  await ctx.reply(ctx.t(cancelled ? 'broadcast-cancelling' : 'broadcast-none'));
});

broadcastFeature.callbackQuery(broadcastData.filter(), async (ctx) => {
  if (!isAdmin(ctx)) return void (await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback') }));
  const { action, value } = broadcastData.unpack(ctx.callbackQuery.data);
  const draft = await ctx.deps.broadcasts.draft(ctx.from.id);
  await ctx.answerCallbackQuery();
  if (!draft) return void (await ctx.editMessageText(ctx.t('unhandled-callback')));
  if (action === 'cancel') {
    await ctx.deps.broadcasts.saveDraft(ctx.from.id, undefined);
    return void (await ctx.editMessageText(ctx.t('broadcast-cancelled')));
  }
  if (action === 'back') return void (await ctx.editMessageText(ctx.t('broadcast-pick-audience'), { reply_markup: audienceKeyboard(ctx) }));
  if (action === 'aud') {
    const audience = decodeAudience(value);
    if (!audience) return void (await ctx.editMessageText(ctx.t('unhandled-callback')));
    const recipients = await ctx.deps.broadcasts.recipients(audience);
    await ctx.deps.broadcasts.saveDraft(ctx.from.id, { ...draft, audience });
    const keyboard = new InlineKeyboard();
    if (recipients.length > 0) keyboard.text(ctx.t('broadcast-send'), broadcastData.pack({ action: 'send', value: '' }));
    keyboard
      .text(ctx.t('broadcast-back'), broadcastData.pack({ action: 'back', value: '' }))
      .text(ctx.t('button-cancel'), broadcastData.pack({ action: 'cancel', value: '' }));
    const key = recipients.length > 0 ? 'broadcast-confirm' : 'broadcast-nobody';
    return void (await ctx.editMessageText(ctx.t(key, { count: recipients.length, audience: audienceLabel(ctx, audience) }), {
      reply_markup: keyboard,
    }));
  }
  if (action !== 'send' || !draft.audience) return void (await ctx.editMessageText(ctx.t('unhandled-callback')));
  // Who is in the audience now (users may have joined or blocked the bot since the count was shown).
  const recipients = await ctx.deps.broadcasts.recipients(draft.audience);
  await ctx.deps.broadcasts.saveDraft(ctx.from.id, undefined);
  // The confirmation becomes the progress message: edited first, so no progress edit of the job is overwritten.
  await ctx.editMessageText(ctx.t('broadcast-queued', { count: recipients.length }));
  try {
    await ctx.deps.broadcasts.start({
      adminId: ctx.from.id,
      fromChatId: ctx.from.id,
      messageId: draft.previewMessageId,
      replyMarkup: draft.replyMarkup,
      audience: draft.audience,
      recipients,
      progressMessageId: ctx.callbackQuery.message?.message_id,
    });
  } catch (error) {
    if (error instanceof StoreError && error.code === 'duplicate') return void (await ctx.editMessageText(ctx.t('broadcast-busy')));
    throw error;
  }
  ctx.deps.logger.info('broadcast queued', { adminId: ctx.from.id, recipients: recipients.length });
});
