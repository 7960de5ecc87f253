import type { BotContext } from '../context.ts';
import { renderStats, renderUserProfile, renderWalletAudit } from '../renderers/admin.ts';
import { formatWibIn } from '../../text/format.ts';
import { FastComposer } from '../composer.ts';

/** True when the sender is one of ADMIN_IDS. */
export const isAdmin = (ctx: BotContext): boolean => ctx.from !== undefined && ctx.deps.settings.adminIds.includes(ctx.from.id);

/**
 * Admin commands, answered for ADMIN_IDS only; anyone else gets the same answer as for an unknown
 * command, so the commands are not even revealed.
 * - `/stats`: users, transactions today and over 7 days, queues, broadcast, uptime (services/stats.ts).
 * - `/user`, `/ban`, `/unban`: a user's profile, banning (services/user-admin.ts).
 * - `/audit`: every downline wallet against its ledger and its purchases (services/wallet-audit.ts).
 * (`/broadcast` and `/broadcast_cancel` are in broadcast.ts.)
 */
export const adminFeature = new FastComposer<BotContext>();
const admins = adminFeature.chatType('private');

admins.command('stats', async (ctx) => {
  if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
  await ctx.reply(renderStats(ctx.t, await ctx.deps.services.stats.collect()));
});

admins.command('audit', async (ctx) => {
  if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
  await ctx.reply(renderWalletAudit(ctx.t, await ctx.deps.services.walletAudit.run()));
});

admins.command('user', async (ctx) => {
  if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
  const query = ctx.match.trim();
  if (query === '') return void (await ctx.reply(ctx.t('admin-user-usage')));
  const { userAdmin } = ctx.deps.services;
  const user = await userAdmin.find(query);
  const profile = user ? await userAdmin.profile(user.id) : undefined;
  if (!profile) return void (await ctx.reply(ctx.t('admin-user-not-found', { query })));
  await ctx.reply(renderUserProfile(ctx.t, profile, ctx.deps.settings.defaultLocale));
});

for (const action of ['ban', 'unban'] as const) {
  admins.command(action, async (ctx) => {
    if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
    const query = ctx.match.trim();
    if (query === '') return void (await ctx.reply(ctx.t('admin-ban-usage')));
    const { userAdmin } = ctx.deps.services;
    const target = await userAdmin.find(query);
    if (!target) return void (await ctx.reply(ctx.t('admin-user-not-found', { query })));
    const result = action === 'ban' ? await userAdmin.ban(target.id, ctx.from.id) : await userAdmin.unban(target.id, ctx.from.id);
    const who = { name: target.firstName, id: String(target.id) };
    if (!result.ok) {
      const key = {
        'not-found': 'admin-user-not-found',
        admin: 'admin-ban-admin',
        'already-banned': 'admin-ban-already',
        'not-banned': 'admin-unban-not-banned',
      }[result.reason];
      return void (await ctx.reply(ctx.t(key, { ...who, query, since: target.ban ? formatWibIn(ctx.t, target.ban.at) : '' })));
    }
    await ctx.reply(ctx.t(action === 'ban' ? 'admin-ban-done' : 'admin-unban-done', who));
  });
}
