/**
 * Asking inside a conversation: one way to wait for an answer, one rule for what leaves a flow,
 * and deleting a message that carried a secret. Used by the buy, connect, pin and game order
 * conversations. Telegram calls whose failure changes nothing (`quietly`, `editOrReply`) live in
 * `../edits.ts`.
 */
import type { Context } from 'grammy';
import type { Conversation } from '@grammyjs/conversations';
import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';

/**
 * The opening of a flow that only runs in a private chat (buying, ordering): the user and chat
 * ids, or undefined after telling the user the flow works only in a private chat.
 */
export async function privateChatOf(ctx: ConversationContext): Promise<{ userId: number; chatId: number } | undefined> {
  if (ctx.chat?.type !== 'private' || ctx.from === undefined) {
    await ctx.reply(ctx.t('error-private-only'));
    return undefined;
  }
  return { userId: ctx.from.id, chatId: ctx.chat.id };
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
    await conversation.external(() =>
      deps.logger.warn('could not delete a message that carried a secret; the user was asked to delete it', { ...ids, reason }),
    );
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
  const ctx = await conversation.waitUntil(
    (next) => leaves(next) || (!next.message && !next.callbackQuery) || options.accept(next) !== undefined,
    {
      otherwise: options.otherwise,
    },
  );
  if (leaves(ctx)) {
    await options.leave?.();
    return conversation.halt({ next: true });
  }
  const answer = options.accept(ctx);
  if (answer === undefined) return conversation.skip({ next: true });
  return answer;
}
