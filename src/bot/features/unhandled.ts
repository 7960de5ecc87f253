import type { BotContext } from '../context.ts';
import { FastComposer } from '../composer.ts';

/**
 * Last in the chain: a short helpful answer to anything nobody handled, never silence. In groups
 * the bot stays quiet about ordinary chatter.
 */
export const unhandledFeature = new FastComposer<BotContext>();

/**
 * Text that looks like a credential or a PIN: one long run of letters and digits, or 4-6 digits
 * alone. It arrives here when a user answers a connect or PIN step after the conversation timed
 * out; it must not stay visible in the chat.
 */
export function looksLikeSecret(text: string): boolean {
  const value = text.trim();
  if (/^\d{4,6}$/.test(value)) return true;
  return /^[A-Za-z0-9_\-:+/=]{16,}$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
}

/**
 * For a message that reached no handler because the conversation waiting for it had timed out
 * (its buttons have handlers of their own in the features): how long it waited and the command
 * that starts it again.
 */
function expiry(ctx: BotContext): { minutes: number; command: string } | undefined {
  const id = ctx.expiredConversation;
  if (id === undefined) return undefined;
  const minutes = Math.max(1, Math.round(ctx.deps.settings.conversationTimeoutMs / 60_000));
  return { minutes, command: ctx.t('conversation-restart', { id }) };
}

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

unhandledFeature.chatType('private').on('message', async (ctx) => {
  const expired = expiry(ctx);
  await ctx.reply(expired ? ctx.t('conversation-expired', expired) : ctx.t('unhandled-text'));
});
