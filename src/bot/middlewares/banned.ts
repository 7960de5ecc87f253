import type { MiddlewareFn } from 'grammy';
import type { BotContext } from '../context.ts';
import { answerWithoutPrices } from '../features/inline.ts';

/** Users being told about their ban right now (so two updates at once tell them once). */
const telling = new Set<number>();

/**
 * Stops every update of a banned user before any flow or feature. The first one after the ban gets
 * the one message saying so (the ban record then says `notified`); after that nothing is answered
 * but a button's spinner. Purchases made before the ban still settle and are notified.
 */
export const refuseBanned: MiddlewareFn<BotContext> = async (ctx, next) => {
  const account = ctx.account;
  if (!account?.ban) return next();
  const { logger } = ctx.deps;
  if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
  // An inline query gets what anyone without prices gets: no results, a button to the bot.
  if (ctx.inlineQuery) await answerWithoutPrices(ctx).catch(() => undefined);
  if (account.ban.notified || telling.has(account.id)) {
    logger.debug('update of a banned user ignored', { userId: account.id });
    return;
  }
  telling.add(account.id);
  try {
    await ctx.api
      .sendMessage(account.id, ctx.t('ban-notice'))
      .catch((error: unknown) => logger.warn('could not tell a banned user', { userId: account.id, error }));
    // Only the ban this update saw: an unban meanwhile stays an unban.
    await ctx.deps.services.userAdmin.banNotified(account.id, account.ban.at);
  } finally {
    telling.delete(account.id);
  }
};
