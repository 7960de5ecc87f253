import type { BotContext } from '../context.ts';
import { commandNames, commands, downlineCommands, type CommandName, type DownlineCommandName } from '../commands.ts';
import type { ServiceName } from '../../domain.ts';
import { createMainMenuKeyboard } from '../keyboards/main-menu.ts';
import { FastComposer } from '../composer.ts';
import { displayName } from '../../notify/downline-notices.ts';

/** /start and /help: greet, say what to do next, list the commands. */
export const startFeature = new FastComposer<BotContext>();

startFeature.command('start', async (ctx) => {
  const name = ctx.from?.first_name ?? '';
  if (ctx.chat.type !== 'private') {
    await ctx.reply(ctx.t('start-group'));
    return;
  }
  const membership = ctx.deps.settings.downlines ? ctx.account?.membership : undefined;
  if (membership) {
    // A downline buys through their upline's account: nothing to connect first.
    const [upline, account] = await Promise.all([
      ctx.deps.db.users.get(membership.uplineId),
      ctx.deps.services.trading.of(ctx.account!.id),
    ]);
    const level = account?.kind === 'downline' ? account.level.name : '-';
    await ctx.reply(ctx.t('start-welcome-downline', { name, upline: upline ? displayName(upline) : '-', level }), {
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
  const connected = ctx.from ? await ctx.deps.db.credentials.listServices(ctx.from.id) : [];
  const role: HelpRole = !ctx.deps.settings.downlines
    ? 'none'
    : ctx.account?.membership
      ? 'downline'
      : ctx.account?.downlineMode
        ? 'upline'
        : 'reseller';
  await ctx.reply(helpText(ctx, connected, role), { link_preview_options: { is_disabled: true } });
});

/**
 * Who reads /help, as far as downlines go (DOWNLINES=true): `none` with downlines off; a
 * `downline` buys through their upline's reseller account (so that section is not "connect
 * first") and has no provider balance to alert on; an `upline` has downline mode open; any other
 * `reseller` is offered /downline to open it.
 */
type HelpRole = 'none' | 'downline' | 'upline' | 'reseller';

/** Commands a downline cannot use, left out of their /help: /alert watches one's own provider balance. */
const notForDownlines: ReadonlySet<CommandName> = new Set(['alert']);

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

/** One command of /help: `/name (/alias, …) — description`, then `mark` if any. */
function helpLine(ctx: BotContext, name: CommandName | DownlineCommandName, mark: string): string {
  const [command, ...aliases] = commandNames(name);
  const label = aliases.length > 0 ? `/${command} (${aliases.map((a) => `/${a}`).join(', ')})` : `/${command}`;
  return `${label} — ${ctx.t(`command-${name}`)}${mark}`;
}

/**
 * The /help message: every command with its alias and description, grouped by service; with
 * downlines on, the downline commands of the reader's role after the reseller section.
 */
function helpText(ctx: BotContext, connected: readonly ServiceName[], role: HelpRole): string {
  const listed = new Set(helpSections.flatMap((section) => section.names));
  const hidden = role === 'downline' ? notForDownlines : new Set<CommandName>();
  const leftovers = commands.map((c) => c.name).filter((name) => !listed.has(name) && !hidden.has(name));
  // A downline's reseller commands run on their upline's account.
  const served = role === 'downline' ? [...connected, 'reseller'] : connected;
  const parts = [`<b>${ctx.t('help-title')}</b>`];
  helpSections.forEach((section, index) => {
    const names = (index === helpSections.length - 1 ? [...section.names, ...leftovers] : section.names).filter((n) => !hidden.has(n));
    const mark = section.service && !served.includes(section.service) ? ` ${ctx.t('help-connect-first')}` : '';
    const lines = names.map((name) => helpLine(ctx, name, mark));
    if (section.service === 'reseller') {
      lines.push(`${ctx.t('help-quick-buy')}${mark}`);
      lines.push(`${ctx.t('help-inline', { bot: ctx.me.username })}${mark}`);
    }
    parts.push([`<b>${ctx.t(section.heading)}</b>`, ...lines].join('\n'));
    if (section.service === 'reseller' && role !== 'none') parts.push(downlineHelp(ctx, connected, role));
  });
  return parts.join('\n\n');
}

/** The downline section of /help: a downline's wallet commands, or an upline's (marked until downline mode is open). */
function downlineHelp(ctx: BotContext, connected: readonly ServiceName[], role: Exclude<HelpRole, 'none'>): string {
  const mine = downlineCommands.filter((c) => c.role === (role === 'downline' ? 'downline' : 'upline'));
  const lines = mine.map(({ name }) => {
    // /downline opens the mode (a connected reseller only); the others need it open.
    const mark =
      role !== 'reseller'
        ? ''
        : name === 'downline'
          ? connected.includes('reseller')
            ? ''
            : ` ${ctx.t('help-connect-first')}`
          : ` ${ctx.t('help-open-downline-first')}`;
    return helpLine(ctx, name, mark);
  });
  return [`<b>${ctx.t(role === 'downline' ? 'help-section-downline' : 'help-section-upline')}</b>`, ...lines].join('\n');
}
