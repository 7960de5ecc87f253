import type { MiddlewareFn } from 'grammy';
import type { BotContext, BotDeps } from '../context.ts';
import { localeFromTelegram } from '../i18n.ts';

/**
 * Attaches the dependencies and the sender's stored record to the context. The record is created
 * on first contact; a user who had blocked the bot and writes again is active again. The record
 * keeps the language of their Telegram app (when the bot speaks it), so that what the bot sends
 * on its own speaks the language its replies do.
 */
export function attachAccount(deps: BotDeps): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    ctx.deps = deps;
    const from = ctx.from;
    if (!from || from.is_bot) {
      ctx.account = undefined;
      return next();
    }
    const existing = await deps.db.users.get(from.id);
    // An update without a language code says nothing about the app's language: keep what is stored.
    const telegramLocale = from.language_code === undefined ? existing?.telegramLocale : localeFromTelegram(from.language_code);
    if (!existing) {
      const { user } = await deps.db.users.upsert({ id: from.id, firstName: from.first_name, username: from.username, telegramLocale });
      ctx.account = user;
      deps.logger.info('new user', { userId: from.id });
      await deps.enqueue(deps.notices.operator('operator-new-user', { name: from.first_name, userId: from.id }));
    } else {
      const changed =
        !existing.active ||
        existing.firstName !== from.first_name ||
        existing.username !== from.username ||
        existing.telegramLocale !== telegramLocale;
      if (changed)
        await deps.db.users.update(from.id, { active: true, firstName: from.first_name, username: from.username, telegramLocale });
      ctx.account = await deps.db.users.get(from.id);
    }
    return next();
  };
}
