import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/**
 * Last in the chain: a short helpful answer to anything nobody handled, never silence. In groups
 * the bot stays quiet about ordinary chatter.
 */
export const unhandledFeature = new Composer<BotContext>();

unhandledFeature.on('callback_query', async (ctx) => {
  await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback'), show_alert: false });
});

unhandledFeature.chatType('private').on('message', async (ctx) => {
  await ctx.reply(ctx.t('unhandled-text'));
});
