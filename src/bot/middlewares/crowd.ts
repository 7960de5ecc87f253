import type { MiddlewareFn } from 'grammy';
import type { BotContext } from '../context.ts';

/**
 * More updates than this in handling at once is a crowd (a burst after an outage, a broadcast
 * answered by many): the bot then skips the Telegram calls that only reassure, such as the
 * "typing…" shown while a slow balance read runs. Each is one more request in Telegram's limits
 * and in the reply queue, paid by everyone waiting behind it; the answer itself is what counts.
 */
export const crowdThreshold = 32;

/**
 * Counts the updates being handled (install it first) and sets `ctx.crowded` on each update when,
 * counting itself, more than `threshold` are in hand at its start.
 */
export function countCrowd(threshold = crowdThreshold): MiddlewareFn<BotContext> {
  let inFlight = 0;
  return async (ctx, next) => {
    inFlight++;
    ctx.crowded = inFlight > threshold;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}

/**
 * Shows `action` ("typing…", "sending a photo…") in the chat, except in a crowd; never fails (a
 * chat action is only a courtesy).
 */
export async function showChatAction(ctx: BotContext, action: 'typing' | 'upload_photo'): Promise<void> {
  if (ctx.crowded) return;
  await ctx.replyWithChatAction(action).catch(() => undefined);
}
