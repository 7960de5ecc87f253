import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { FastComposer } from '../composer.ts';

/**
 * Group notifications: `/linkgroup` in a group where the sender is an admin makes the group
 * receive their settlement notices (targets masked, no balance); `/unlinkgroup` stops it; the
 * bot being removed from the group, or the group becoming a supergroup, is followed.
 */
export const groupsFeature = new FastComposer<BotContext>();

const adminStatuses = new Set(['creator', 'administrator']);

async function isGroupAdmin(ctx: BotContext): Promise<boolean> {
  if (!ctx.chat || !ctx.from) return false;
  try {
    const member = await ctx.api.getChatMember(ctx.chat.id, ctx.from.id);
    return adminStatuses.has(member.status);
  } catch (error) {
    ctx.deps.logger.warn('could not read a group member', { chatId: ctx.chat.id, error });
    return false;
  }
}

groupsFeature.chatType('private').command(commandNames('linkgroup'), async (ctx) => {
  await ctx.reply(ctx.t('groups-link-in-group'));
});
groupsFeature.chatType('private').command(commandNames('unlinkgroup'), async (ctx) => {
  await ctx.reply(ctx.t('groups-link-in-group'));
});

const inGroups = groupsFeature.chatType(['group', 'supergroup']);

inGroups.command(commandNames('linkgroup'), async (ctx) => {
  const { db } = ctx.deps;
  // A top-up reseller (or a downline, who buys through their upline's account) links for settlement
  // notices and price digests; a marketplace seller for /verify in their support group.
  const trades = (await ctx.deps.services.trading.of(ctx.from.id)) !== undefined;
  if (!trades && !(await db.credentials.has(ctx.from.id, 'marketplace'))) {
    await ctx.reply(ctx.t('groups-link-not-connected'));
    return;
  }
  if (!(await isGroupAdmin(ctx))) {
    await ctx.reply(ctx.t('groups-link-not-admin'));
    return;
  }
  await ctx.deps.services.groupLinks.link({ chatId: ctx.chat.id, ownerId: ctx.from.id, title: ctx.chat.title });
  ctx.deps.logger.info('group linked', { chatId: ctx.chat.id, ownerId: ctx.from.id });
  await ctx.reply(ctx.t('groups-linked', { name: ctx.from.first_name }));
});

inGroups.command(commandNames('unlinkgroup'), async (ctx) => {
  const { db } = ctx.deps;
  const link = await db.groups.get(ctx.chat.id);
  if (!link) {
    await ctx.reply(ctx.t('groups-not-linked'));
    return;
  }
  if (link.ownerId !== ctx.from.id && !(await isGroupAdmin(ctx))) {
    await ctx.reply(ctx.t('groups-unlink-not-allowed'));
    return;
  }
  await ctx.deps.services.groupLinks.unlink(ctx.chat.id);
  await ctx.reply(ctx.t('groups-unlinked'));
});

// The bot was removed or kicked: the group no longer receives anything.
groupsFeature.on('my_chat_member', async (ctx, next) => {
  const status = ctx.myChatMember.new_chat_member.status;
  const chatId = ctx.myChatMember.chat.id;
  if ((status === 'left' || status === 'kicked') && (await ctx.deps.services.groupLinks.unlink(chatId))) {
    ctx.deps.logger.info('group unlinked: the bot was removed', { chatId });
  }
  if (ctx.chat?.type === 'private' && status === 'kicked' && ctx.from) {
    await ctx.deps.services.accounts.blocked(ctx.from.id);
  }
  await next();
});

// A group that became a supergroup keeps its link under the new id.
groupsFeature.on('message:migrate_to_chat_id', async (ctx) => {
  await ctx.deps.services.groupLinks.migrate(ctx.chat.id, ctx.message.migrate_to_chat_id);
});
