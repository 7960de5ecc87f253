/**
 * Asking inside a conversation: one way to wait for an answer, and one rule for what leaves a flow.
 * Written for the order conversation; buy, connect and pin can adopt it (each still has its own
 * receive loop).
 */
import type { Context } from 'grammy';
import type { Conversation } from '@grammyjs/conversations';

/** Swallows a failed Telegram call whose failure changes nothing for the user (an answer to an old query, an edit). */
export async function quietly(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch {
    // Nothing to do: the message is already as it should be, or the query expired.
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
  const leaves = (ctx: C) => leavesFlow(ctx, options.ownsButton);
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
