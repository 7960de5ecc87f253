import type { MiddlewareFn } from 'grammy';
import type { BotContext, BotDeps } from '../context.ts';
import { localeFromTelegram } from '../i18n.ts';

/**
 * Attaches the dependencies and the sender's record (created on first contact, active again when
 * they write). It keeps their Telegram app's language, so what the bot sends on its own speaks it too.
 */
export function attachAccount(deps: BotDeps): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    ctx.deps = deps;
    const from = ctx.from;
    if (!from || from.is_bot) {
      ctx.account = undefined;
      return next();
    }
    const { user, created } = await deps.services.accounts.seen({
      id: from.id,
      firstName: from.first_name,
      username: from.username,
      telegramLocale: from.language_code === undefined ? undefined : localeFromTelegram(from.language_code),
    });
    ctx.account = user;
    if (created) {
      deps.logger.info('new user', { userId: from.id });
      await deps.enqueue(deps.notices.operator('operator-new-user', { name: from.first_name, userId: from.id }));
    }
    return next();
  };
}
