import type { BotContext } from '../context.ts';
import { commandNames, commands, type CommandName } from '../commands.ts';
import type { ServiceName } from '../../domain.ts';
import { createMainMenuKeyboard } from '../keyboards/main-menu.ts';
import { FastComposer } from '../composer.ts';

/** /start and /help: greet, say what to do next, list the commands. */
export const startFeature = new FastComposer<BotContext>();

startFeature.command('start', async (ctx) => {
  const name = ctx.from?.first_name ?? '';
  if (ctx.chat.type !== 'private') {
    await ctx.reply(ctx.t('start-group'));
    return;
  }
  // A downline trades through their upline's account: told so, never sent to /connect.
  const membership = ctx.account?.membership;
  if (membership) {
    const upline = await ctx.deps.db.users.get(membership.uplineId);
    await ctx.reply(ctx.t('start-welcome-downline', { name, upline: upline?.firstName ?? '' }), {
      reply_markup: createMainMenuKeyboard(ctx.t),
    });
    return;
  }
  const connected = ctx.from ? (await ctx.deps.db.credentials.listServices(ctx.from.id)).length > 0 : false;
  await ctx.reply(ctx.t(connected ? 'start-welcome-connected' : 'start-welcome', { name }), {
    reply_markup: createMainMenuKeyboard(ctx.t),
  });
});

startFeature.command(commandNames('help'), async (ctx) => {
  const services = ctx.from ? await ctx.deps.db.credentials.listServices(ctx.from.id) : [];
  // A downline's reseller commands work through their upline's account.
  const connected: readonly ServiceName[] = ctx.account?.membership ? [...services, 'reseller'] : services;
  await ctx.reply(helpText(ctx, connected), { link_preview_options: { is_disabled: true } });
});

/**
 * The sections of /help. A section tied to a service marks its commands while the user has not
 * connected that service. A command left out of every section lands in the last one, so a new
 * command in commands.ts always shows up in /help.
 */
const helpSections: ReadonlyArray<{ heading: string; service?: ServiceName; names: readonly CommandName[] }> = [
  {
    heading: 'help-section-reseller',
    service: 'reseller',
    names: ['balance', 'prices', 'sellprice', 'buy', 'status', 'history', 'export', 'report', 'shop', 'pin', 'alert', 'watch'],
  },
  { heading: 'help-section-marketplace', service: 'marketplace', names: ['account', 'items', 'verify'] },
  { heading: 'help-section-gameshop', service: 'gameshop', names: ['games', 'order', 'orders'] },
  { heading: 'help-section-groups', names: ['linkgroup', 'unlinkgroup'] },
  { heading: 'help-section-settings', names: ['start', 'help', 'settings', 'connect', 'disconnect', 'language', 'cancel'] },
];

/** The /help message: every command with its alias and description, grouped by service. */
function helpText(ctx: BotContext, connected: readonly ServiceName[]): string {
  const listed = new Set(helpSections.flatMap((section) => section.names));
  const leftovers = commands.map((c) => c.name).filter((name) => !listed.has(name));
  const parts = [`<b>${ctx.t('help-title')}</b>`];
  helpSections.forEach((section, index) => {
    const names = index === helpSections.length - 1 ? [...section.names, ...leftovers] : section.names;
    const mark = section.service && !connected.includes(section.service) ? ` ${ctx.t('help-connect-first')}` : '';
    const lines = names.map((name) => {
      const [command, ...aliases] = commandNames(name);
      const label = aliases.length > 0 ? `/${command} (${aliases.map((a) => `/${a}`).join(', ')})` : `/${command}`;
      return `${label} — ${ctx.t(`command-${name}`)}${mark}`;
    });
    if (section.service === 'reseller') {
      lines.push(`${ctx.t('help-quick-buy')}${mark}`);
      lines.push(`${ctx.t('help-inline', { bot: ctx.me.username })}${mark}`);
    }
    parts.push([`<b>${ctx.t(section.heading)}</b>`, ...lines].join('\n'));
  });
  return parts.join('\n\n');
}
