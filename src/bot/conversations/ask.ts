/**
 * Asking inside a conversation: one way to wait for an answer, one rule for what leaves a flow,
 * and the small Telegram helpers every flow needs (a call whose failure changes nothing, an edit
 * that falls back to a new message, deleting a message that carried a secret). Used by the buy,
 * connect, pin and game order conversations.
 */
import { GrammyError, type Context } from 'grammy';
import type { InlineKeyboardMarkup, ParseMode } from 'grammy/types';
import type { Conversation } from '@grammyjs/conversations';
import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';

/** Swallows a failed Telegram call whose failure changes nothing for the user (an answer to an old query, an edit). */
export async function quietly(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch {
    // Nothing to do: the message is already as it should be, or the query expired.
  }
}

/** True when Telegram refused an edit because the message already reads exactly so. */
export function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && /message is not modified/i.test(error.description);
}

/**
 * Shows `text` in place of message `messageId` of the chat (a "checking…" or "processing…"
 * message); when Telegram refuses the edit (the message is gone, too old), sends `text` as a new
 * message instead. Resolves with the id of the message that shows the text.
 */
export async function editOrReply(
  ctx: Context,
  messageId: number,
  text: string,
  other: { parse_mode?: ParseMode; reply_markup?: InlineKeyboardMarkup } = {},
): Promise<number> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return (await ctx.reply(text, other)).message_id;
  try {
    await ctx.api.editMessageText(chatId, messageId, text, other);
    return messageId;
  } catch (error) {
    // Already showing this very text: sending it again would only repeat it.
    if (isNotModified(error)) return messageId;
    return (await ctx.reply(text, other)).message_id;
  }
}

/**
 * Deletes the message that carried a secret (an API key, a PIN) and resolves true; when Telegram
 * refuses, logs why (once, through `external`) and resolves false, so the caller tells the user to
 * delete it themselves. `message` is the conversation context of that message.
 */
export async function deleteSecretMessage(conversation: BotConversation, deps: BotDeps, message: ConversationContext): Promise<boolean> {
  try {
    await message.deleteMessage();
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const ids = { chatId: message.chat?.id, messageId: message.msg?.message_id };
    await conversation.external(() => deps.logger.warn('could not delete a message that carried a secret; the user was asked to delete it', { ...ids, reason }));
    return false;
  }
}

/**
 * The shared rule of every flow: a /command, or a tap on a button the flow does not own (another
 * feature's), leaves the flow. The conversation ends and the update goes on to the rest of the
 * bot, so the command runs or the button does what it says.
 */
export function leavesFlow(ctx: Context, ownsButton: (data: string | undefined) => boolean): boolean {
  if (ctx.callbackQuery) return !ownsButton(ctx.callbackQuery.data);
  return (ctx.message?.text ?? '').trim().startsWith('/');
}

export interface WaitForAnswerOptions<C extends Context, T> {
  /** True for callback data of this flow's buttons (current or outdated ones). */
  ownsButton: (data: string | undefined) => boolean;
  /**
   * The answer this update carries, or undefined when it is none (then `otherwise` runs and the
   * update is skipped: it is not kept in the conversation state). Called more than once per update,
   * so it must be pure.
   */
  accept: (ctx: C) => T | undefined;
  /** Answers an update that is not an answer: a hint for a message, a short note for an old button. */
  otherwise: (ctx: C) => unknown;
  /**
   * Updates that leave this step besides the shared rule (e.g. a new quick-buy message while a
   * summary waits). Pure, like `accept`.
   */
  alsoLeaves?: (ctx: C) => boolean;
  /** Runs before the flow is left (e.g. to close a summary's buttons). */
  leave?: () => Promise<void>;
}

/**
 * Waits (with the conversation's timeout) for the next update that answers the question:
 * `conversation.waitUntil` with `otherwise`, plus the shared leave rule. Updates that are neither
 * messages nor button taps are skipped and passed on to the rest of the bot.
 */
export async function waitForAnswer<OC extends Context, C extends Context, T>(
  conversation: Conversation<OC, C>,
  options: WaitForAnswerOptions<C, T>,
): Promise<T> {
  const leaves = (ctx: C) => leavesFlow(ctx, options.ownsButton) || (options.alsoLeaves?.(ctx) ?? false);
  const ctx = await conversation.waitUntil((next) => leaves(next) || (!next.message && !next.callbackQuery) || options.accept(next) !== undefined, {
    otherwise: options.otherwise,
  });
  if (leaves(ctx)) {
    await options.leave?.();
    return conversation.halt({ next: true });
  }
  const answer = options.accept(ctx);
  if (answer === undefined) return conversation.skip({ next: true });
  return answer;
}
