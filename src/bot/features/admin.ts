import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

const isAdmin = (ctx: BotContext): boolean => ctx.from !== undefined && ctx.deps.settings.adminIds.includes(ctx.from.id);

/**
 * Admin commands, answered for ADMIN_IDS only; anyone else gets the same answer as for an unknown
 * command, so the commands are not even revealed.
 * (`/broadcast` and `/broadcast_cancel` are in broadcast.ts.)
 * - `/stats`: users, active users, open purchases, queued notices.
 */
export function createAdminFeature(): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const admins = feature.chatType('private');

  admins.command('stats', async (ctx) => {
    if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
    const { store } = ctx.deps;
    await ctx.reply(
      ctx.t('admin-stats', {
        users: store.users.count(),
        active: store.users.count({ active: true }),
        open: store.transactions.listOpen().length,
        queued: store.outbox.size(),
      }),
    );
  });

  return feature;
}
