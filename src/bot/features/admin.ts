import { Composer, InlineKeyboard } from 'grammy';
import { createCallbackData } from 'callback-data';
import type { BotContext } from '../context.ts';
import { renderStats, renderUserProfile } from '../renderers/admin.ts';
import { escapeHtml, formatWib } from '../../text/format.ts';

/** Confirm/cancel of a broadcast; the text itself waits in the admin's message being replied to. */
const broadcastData = createCallbackData('bcast', { action: String });

const isAdmin = (ctx: BotContext): boolean => ctx.from !== undefined && ctx.deps.settings.adminIds.includes(ctx.from.id);

/**
 * Admin commands, answered for ADMIN_IDS only; anyone else gets the same answer as for an unknown
 * command, so the commands are not even revealed.
 * - `/broadcast <text>`: after a confirmation, queues the text in the outbox for every active user.
 * - `/stats`: users, transactions today and over 7 days, queues, broadcast, uptime (services/stats.ts).
 *
 * Broadcast texts waiting for their confirmation are kept by this feature, per admin id, in memory
 * (a restart asks again).
 */
export function createAdminFeature(): Composer<BotContext> {
  const feature = new Composer<BotContext>();
  const admins = feature.chatType('private');
  const drafts = new Map<number, string>();

  admins.command('broadcast', async (ctx) => {
    if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
    const text = ctx.match.trim();
    if (text === '') return void (await ctx.reply(ctx.t('admin-broadcast-usage')));
    drafts.set(ctx.from.id, text);
    const audience = ctx.deps.store.users.count({ active: true });
    await ctx.reply(ctx.t('admin-broadcast-confirm', { count: audience, text: text }), {
      reply_markup: new InlineKeyboard()
        .text(ctx.t('admin-broadcast-send'), broadcastData.pack({ action: 'send' }))
        .text(ctx.t('button-cancel'), broadcastData.pack({ action: 'cancel' })),
    });
  });

  feature.callbackQuery(broadcastData.filter(), async (ctx) => {
    if (!isAdmin(ctx)) return void (await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback') }));
    const { action } = broadcastData.unpack(ctx.callbackQuery.data);
    const text = drafts.get(ctx.from.id);
    drafts.delete(ctx.from.id);
    await ctx.answerCallbackQuery();
    if (action !== 'send' || text === undefined) {
      await ctx.editMessageText(ctx.t(text === undefined ? 'unhandled-callback' : 'admin-broadcast-cancelled'));
      return;
    }
    const recipients = ctx.deps.store.users.list({ active: true });
    // The admin's words are sent as they typed them: the outbox sends HTML, so they are escaped.
    await ctx.deps.enqueue(
      recipients.map((user) => ({ chatId: user.id, kind: 'broadcast', payload: { type: 'send', text: escapeHtml(text) } })),
    );
    ctx.deps.logger.info('broadcast queued', { adminId: ctx.from.id, recipients: recipients.length });
    await ctx.editMessageText(ctx.t('admin-broadcast-queued', { count: recipients.length }));
  });

  admins.command('stats', async (ctx) => {
    if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
    await ctx.reply(renderStats(ctx.t, await ctx.deps.services.stats.collect()));
  });

  admins.command('user', async (ctx) => {
    if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
    const query = ctx.match.trim();
    if (query === '') return void (await ctx.reply(ctx.t('admin-user-usage')));
    const { userAdmin } = ctx.deps.services;
    const user = userAdmin.find(query);
    const profile = user ? await userAdmin.profile(user.id) : undefined;
    if (!profile) return void (await ctx.reply(ctx.t('admin-user-not-found', { query })));
    await ctx.reply(renderUserProfile(ctx.t, profile));
  });

  for (const action of ['ban', 'unban'] as const) {
    admins.command(action, async (ctx) => {
      if (!isAdmin(ctx)) return void (await ctx.reply(ctx.t('unhandled-text')));
      const query = ctx.match.trim();
      if (query === '') return void (await ctx.reply(ctx.t('admin-ban-usage')));
      const { userAdmin } = ctx.deps.services;
      const target = userAdmin.find(query);
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
        return void (await ctx.reply(ctx.t(key, { ...who, query, since: target.ban ? formatWib(target.ban.at) : '' })));
      }
      await ctx.reply(ctx.t(action === 'ban' ? 'admin-ban-done' : 'admin-unban-done', who));
    });
  }

  return feature;
}
