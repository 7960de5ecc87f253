/**
 * Pure renderers of the admin commands (HTML): the figures of /stats, the profile of /user, the wallet audit.
 */
import type { TranslateFunction } from '@grammyjs/i18n';
import { escapeHtml, formatRupiah, formatWibIn } from '../../text/format.ts';
import type { WalletAudit } from '../../services/wallet-audit.ts';
import type { UserProfile } from '../../services/user-admin.ts';
import type { Stats, TransactionStats } from '../../services/stats.ts';
import { statusWord } from '../../text/receipt.ts';

/** The language the bot speaks to `user`: the one they chose, else their Telegram app's or the default, said to be not chosen. */
function languageOf(t: TranslateFunction, user: UserProfile['user'], defaultLocale: string): string {
  if (user.locale !== undefined) return user.locale;
  if (user.telegramLocale !== undefined) return t('admin-user-locale-telegram', { locale: user.telegramLocale });
  return t('admin-user-locale-default', { locale: defaultLocale });
}

/** The /stats message: users, transactions today and over 7 days, queues, broadcast, uptime. */
export function renderStats(t: TranslateFunction, stats: Stats): string {
  const period = (name: 'today' | 'week', figures: TransactionStats) =>
    t('admin-stats-period', { period: name, ...figures, volume: formatRupiah(figures.volume) });
  const minutes = Math.floor(stats.uptimeMs / 60_000);
  return [
    t('admin-stats-title'),
    t('admin-stats-users', { users: stats.users.total, active: stats.users.active, banned: stats.users.banned }),
    t('admin-stats-connected', stats.users.connected),
    '',
    period('today', stats.today),
    period('week', stats.week),
    '',
    t('admin-stats-queues', { backlog: stats.watcherBacklog, outbox: stats.outbox }),
    stats.broadcast ? t('admin-stats-broadcast', { ...stats.broadcast }) : t('admin-stats-broadcast-none'),
    t('admin-stats-uptime', { days: Math.floor(minutes / 1440), hours: Math.floor(minutes / 60) % 24, minutes: minutes % 60 }),
  ].join('\n');
}

/**
 * The /user message: who they are, their state, the services connected (labels only) and their
 * last transactions. A user who never chose a language is shown the one the bot speaks to them
 * (their Telegram app's, else `defaultLocale`), marked as not chosen.
 */
export function renderUserProfile(t: TranslateFunction, profile: UserProfile, defaultLocale: string): string {
  const { user, services, recent } = profile;
  const status = user.ban ? 'banned' : user.active ? 'active' : 'blocked';
  const orNone = (lines: string[]) => (lines.length === 0 ? [t('admin-user-none')] : lines);
  const lines = [
    t('admin-user-profile', {
      name: user.firstName,
      id: String(user.id),
      username: user.username === undefined ? '-' : `@${user.username}`,
      locale: languageOf(t, user, defaultLocale),
      joined: formatWibIn(t, user.createdAt),
      status,
      since: user.ban ? formatWibIn(t, user.ban.at) : '',
    }),
    '',
    t('admin-user-services'),
    ...orNone(
      services.map((info) =>
        t('admin-user-service', {
          service: t(`service-${info.service}`),
          label: info.label ?? '-',
          since: formatWibIn(t, info.connectedAt),
        }),
      ),
    ),
    '',
    t('admin-user-recent'),
    ...orNone(
      recent.map((tx) =>
        t('admin-user-transaction', {
          when: formatWibIn(t, tx.createdAt),
          product: tx.productName,
          target: tx.target,
          price: formatRupiah(tx.price),
          status: statusWord(t, tx),
        }),
      ),
    ),
  ];
  return lines.join('\n');
}

/** Findings listed in /audit's message at most (the rest counted). */
const auditFindingsShown = 20;

/** The /audit message: how many wallets add up, the money in them and held, then each finding. */
export function renderWalletAudit(t: TranslateFunction, audits: readonly WalletAudit[]): string {
  if (audits.length === 0) return t('admin-audit-none');
  const findings = audits.flatMap((audit) => audit.findings);
  const total = (pick: (audit: WalletAudit) => number) => formatRupiah(audits.reduce((sum, audit) => sum + pick(audit), 0));
  const head = t(findings.length === 0 ? 'admin-audit-clean' : 'admin-audit-findings', {
    wallets: String(audits.length),
    entries: String(audits.reduce((sum, audit) => sum + audit.entries, 0)),
    balance: total((audit) => audit.balance),
    held: total((audit) => audit.held),
    count: String(findings.length),
  });
  const lines = findings
    .slice(0, auditFindingsShown)
    .map(
      (finding) => `• ${String(finding.wallet)}${finding.refId === undefined ? '' : ` ${finding.refId}`}: ${escapeHtml(finding.detail)}`,
    );
  const more = findings.length > auditFindingsShown ? [t('admin-audit-more', { count: String(findings.length - auditFindingsShown) })] : [];
  return [head, ...lines, ...more].join('\n');
}
