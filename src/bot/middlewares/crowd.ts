import type { MiddlewareFn } from 'grammy';
import type { BotContext } from '../context.ts';

/**
 * More updates than this in hand is a crowd (a burst after an outage): the bot then skips calls
 * that only reassure ("typing…"), each one more request paid by everyone waiting behind it.
 */
export const crowdThreshold = 32;

/** Counts the updates in hand (install it first) and sets `ctx.crowded` when more than `threshold` are. */
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

/** Shows `action` ("typing…") in the chat, except in a crowd; never fails (it is only a courtesy). */
export async function showChatAction(ctx: BotContext, action: 'typing' | 'upload_photo'): Promise<void> {
  if (ctx.crowded) return;
  await ctx.replyWithChatAction(action).catch(() => undefined);
}
