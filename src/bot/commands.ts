import type { Api } from 'grammy';
import type { BotCommand, BotCommandScope } from 'grammy/types';
import type { I18n } from '@grammyjs/i18n';
import type { Logger } from '../logger.ts';
import { supportedLocales, type Locale } from '../domain.ts';

/**
 * Every command the bot understands, with its Indonesian aliases. Descriptions come from the
 * locales (`command-<name>`). In groups, a `listed` command is also offered in the menu; a
 * `refused` one shows or moves a user's own money, orders or accounts, so it only works in a
 * private chat (`privateOnlyAnswer` answers it elsewhere).
 */
export const commands = [
  { name: 'start', aliases: [], groups: 'unlisted' },
  { name: 'help', aliases: ['bantuan'], groups: 'listed' },
  { name: 'connect', aliases: ['hubungkan'], groups: 'refused' },
  { name: 'disconnect', aliases: ['putuskan'], groups: 'refused' },
  { name: 'balance', aliases: ['saldo'], groups: 'refused' },
  { name: 'prices', aliases: ['harga'], groups: 'refused' },
  { name: 'sellprice', aliases: ['jual'], groups: 'refused' },
  { name: 'buy', aliases: ['beli'], groups: 'refused' },
  { name: 'status', aliases: ['cek'], groups: 'refused' },
  { name: 'history', aliases: ['riwayat'], groups: 'refused' },
  { name: 'export', aliases: ['ekspor'], groups: 'refused' },
  { name: 'report', aliases: ['laporan'], groups: 'refused' },
  { name: 'shop', aliases: ['toko'], groups: 'refused' },
  { name: 'summary', aliases: ['ringkasan'], groups: 'refused' },
  { name: 'pin', aliases: [], groups: 'refused' },
  { name: 'language', aliases: ['bahasa'], groups: 'listed' },
  { name: 'settings', aliases: ['pengaturan'], groups: 'refused' },
  { name: 'account', aliases: ['akun'], groups: 'refused' },
  { name: 'items', aliases: ['produk'], groups: 'refused' },
  { name: 'verify', aliases: ['validasi'], groups: 'listed' },
  { name: 'games', aliases: ['game'], groups: 'refused' },
  { name: 'order', aliases: ['pesan'], groups: 'refused' },
  { name: 'orders', aliases: ['pesanan'], groups: 'refused' },
  { name: 'linkgroup', aliases: ['tautkangrup'], groups: 'listed' },
  { name: 'unlinkgroup', aliases: ['lepasgrup'], groups: 'listed' },
  { name: 'alert', aliases: ['peringatan'], groups: 'unlisted' },
  { name: 'watch', aliases: ['pantau'], groups: 'refused' },
  { name: 'cancel', aliases: ['batal'], groups: 'unlisted' },
] as const satisfies ReadonlyArray<{ name: string; aliases: readonly string[]; groups: 'listed' | 'refused' | 'unlisted' }>;

export type CommandName = (typeof commands)[number]['name'];

/**
 * The downline commands, only with DOWNLINES=true (descriptions in downline.ftl and wallet.ftl):
 * an upline's (and a reseller's who may open downline mode) and a downline's. Private chats only.
 */
export const downlineCommands = [
  { name: 'downline', aliases: [], role: 'upline' },
  { name: 'payinfo', aliases: ['carabayar'], role: 'upline' },
  { name: 'dlbalance', aliases: ['saldodl'], role: 'upline' },
  { name: 'resolve', aliases: ['selesaikan'], role: 'upline' },
  { name: 'deposit', aliases: ['isisaldo'], role: 'downline' },
  { name: 'statement', aliases: ['mutasi'], role: 'downline' },
] as const satisfies ReadonlyArray<{ name: string; aliases: readonly string[]; role: 'upline' | 'downline' }>;

export type DownlineCommandName = (typeof downlineCommands)[number]['name'];

/** Commands only ADMIN_IDS may run, in each admin's private-chat menu only (descriptions in admin.ftl). */
export const adminCommands = ['broadcast', 'broadcast_cancel', 'stats', 'user', 'ban', 'unban', 'audit'] as const;

/** The command and its aliases, for `bot.command(...)`. */
export function commandNames(name: CommandName | DownlineCommandName): string[] {
  const entry = [...commands, ...downlineCommands].find((c) => c.name === name);
  return entry ? [entry.name, ...entry.aliases] : [name];
}

/**
 * Publishes the command menu for each language in private chats, groups and each admin's chat (a
 * `chat` scope wins over `all_private_chats`). With `downlines` (DOWNLINES=true) the private lists
 * end with the downline commands: one list for everyone, as a `chat` scope per upline and downline
 * would have to be published again at every join and removal (and would hide an admin's list).
 * A failure is only logged: the menu is cosmetic (an admin who never opened a chat with the bot
 * gets "chat not found").
 */
export async function publishCommands(
  api: Api,
  i18n: Pick<I18n, 't'>,
  logger: Logger,
  defaultLocale: Locale,
  adminIds: readonly number[] = [],
  options: { downlines?: boolean } = {},
): Promise<void> {
  // The default list (no language_code) is in the default locale; each locale also gets its own.
  const targets: Array<{ locale: Locale; languageCode?: Locale }> = [
    { locale: defaultLocale },
    ...supportedLocales.map((locale) => ({ locale, languageCode: locale })),
  ];
  for (const { locale, languageCode } of targets) {
    const describe = (command: string): BotCommand => ({ command, description: i18n.t(locale, `command-${command}`) });
    const extra = options.downlines ? downlineCommands.map((c) => describe(c.name)) : [];
    const list = (groupsOnly: boolean): BotCommand[] =>
      groupsOnly
        ? commands.filter((c) => c.groups === 'listed').map((c) => describe(c.name))
        : [...commands.map((c) => describe(c.name)), ...extra];
    const forAdmins = [...list(false), ...adminCommands.map(describe)];
    const scopes: Array<{ scope: BotCommandScope; list: BotCommand[] }> = [
      { scope: { type: 'all_private_chats' }, list: list(false) },
      { scope: { type: 'all_group_chats' }, list: list(true) },
      ...adminIds.map((chatId) => ({ scope: { type: 'chat' as const, chat_id: chatId }, list: forAdmins })),
    ];
    for (const { scope, list: items } of scopes) {
      try {
        await api.setMyCommands(items, { scope, language_code: languageCode });
      } catch (error) {
        logger.warn('could not publish the command menu; the bot keeps running', { locale, scope: scope.type, error });
      }
    }
  }
}
