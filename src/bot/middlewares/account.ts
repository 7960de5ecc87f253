import type { MiddlewareFn } from 'grammy';
import type { BotContext, BotDeps } from '../context.ts';

/**
 * Attaches the dependencies and the sender's stored record to the context. The record is created
 * on first contact; a user who had blocked the bot and writes again is active again.
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
    if (!existing) {
      const { user } = await deps.db.users.upsert({ id: from.id, firstName: from.first_name, username: from.username });
      ctx.account = user;
      deps.logger.info('new user', { userId: from.id });
      await deps.enqueue(deps.notices.operator('operator-new-user', { name: from.first_name, userId: from.id }));
    } else {
      if (!existing.active || existing.firstName !== from.first_name || existing.username !== from.username) {
        await deps.db.users.update(from.id, { active: true, firstName: from.first_name, username: from.username });
      }
      ctx.account = await deps.db.users.get(from.id);
    }
    return next();
  };
}
