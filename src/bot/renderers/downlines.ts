import type { TranslateFunction } from '@grammyjs/i18n';
import type { DownlineEntry, JoinAnswer } from '../../services/downlines.ts';
import { inviteState, invitePayload } from '../../services/downline-rules.ts';
import type { LevelLineProblem } from '../../services/downline-rules.ts';
import { hasSellRules } from '../../services/pricing.ts';
import type { DownlineInvite, DownlineLevel, DownlineMode, JoinRequest } from '../../store/records/users.ts';
import { formatRupiah, formatWibDateIn, formatWibIn } from '../../text/format.ts';
import { raw } from '../../text/html.ts';
import { displayName } from '../../notify/downline-notices.ts';
import { describeMarkup, describeStep } from './sell.ts';
import { downlinesShown } from '../keyboards/downlines.ts';

/** One level in a line: its name (default marked) and its rules in /jual words. */
export function levelLine(t: TranslateFunction, mode: DownlineMode, level: DownlineLevel): string {
  const { rules } = level;
  const parts: string[] = [];
  if (!hasSellRules(rules)) parts.push(t('downline-level-at-cost'));
  else {
    parts.push(rules.default ? describeMarkup(t, rules.default) : t('downline-level-no-default'));
    if (rules.step > 1) parts.push(describeStep(t, rules.step));
    const brands = Object.keys(rules.brands).length;
    const products = Object.keys(rules.products).length;
    if (brands + products > 0) parts.push(t('downline-level-overrides', { brands, products }));
  }
  const name = level.id === mode.defaultLevelId ? t('downline-level-default', { level: level.name }) : level.name;
  return t('downline-level-line', { level: name, rules: raw(parts.join(' · ')) });
}

/** The /downline screen: levels, auto-approve, and the downlines with level, joined date and status. */
export function renderDownlineHome(t: TranslateFunction, mode: DownlineMode, entries: readonly DownlineEntry[]): string {
  const lines = [t('downline-title'), '', t('downline-levels-title')];
  for (const level of mode.levels) lines.push(levelLine(t, mode, level));
  lines.push('', t(mode.autoApprove ? 'downline-auto-on' : 'downline-auto-off'), '');
  if (entries.length === 0) lines.push(t('downline-none'));
  else {
    lines.push(t('downline-list-title', { count: entries.length }));
    entries.slice(0, downlinesShown).forEach((entry, index) => lines.push(downlineLine(t, entry, index + 1)));
    if (entries.length > downlinesShown) lines.push(t('downline-list-more', { count: entries.length - downlinesShown }));
  }
  return lines.join('\n');
}

function downlineLine(t: TranslateFunction, entry: DownlineEntry, n: number): string {
  return t('downline-list-line', {
    n,
    name: displayName(entry.user),
    level: entry.level.name,
    joined: formatWibDateIn(t, entry.membership.joinedAt),
    status: t(`downline-status-${entry.membership.status}`),
  });
}

/** One downline's card. */
export function renderDownlineCard(t: TranslateFunction, entry: DownlineEntry): string {
  return t('downline-card', {
    name: displayName(entry.user),
    // An id is digits to copy, not an amount: a number would be grouped (700.000.002).
    id: String(entry.user.id),
    level: entry.level.name,
    joined: formatWibIn(t, entry.membership.joinedAt),
    status: t(`downline-status-${entry.membership.status}`),
  });
}

/** The active invite links, each with its limits. */
export function renderInvites(t: TranslateFunction, bot: string, uplineId: number, active: readonly DownlineInvite[]): string {
  const lines = [t('downline-invites-title'), ''];
  if (active.length === 0) lines.push(t('downline-invites-none'));
  active.forEach((invite, index) => {
    const limits = [
      invite.expiresAt === undefined
        ? t('downline-invite-no-expiry')
        : t('downline-invite-until', { date: formatWibIn(t, invite.expiresAt) }),
      invite.maxUses === undefined
        ? t('downline-invite-uses', { uses: invite.uses })
        : t('downline-invite-uses-of', { uses: invite.uses, max: invite.maxUses }),
    ];
    lines.push(t('downline-invite-line', { n: index + 1, link: inviteLink(bot, uplineId, invite), limits: limits.join(' · ') }));
  });
  lines.push('', t('downline-invites-help'));
  return lines.join('\n');
}

/** The link of an invite: `https://t.me/<bot>?start=dl_<upline>_<id>`. */
export function inviteLink(bot: string, uplineId: number, invite: Pick<DownlineInvite, 'id'>): string {
  return `https://t.me/${bot}?start=${invitePayload(uplineId, invite.id)}`;
}

/** The invites that still work at `now`. */
export function activeInvites(mode: DownlineMode, now: Date): DownlineInvite[] {
  return mode.invites.filter((invite) => inviteState(invite, now) === 'active');
}

/** The levels screen: each level, and how to set one. */
export function renderLevels(t: TranslateFunction, mode: DownlineMode): string {
  return [
    t('downline-levels-screen-title'),
    '',
    ...mode.levels.map((level) => levelLine(t, mode, level)),
    '',
    t('downline-levels-help'),
  ].join('\n');
}

/** Why typed level lines were not applied. */
export function renderLevelProblems(t: TranslateFunction, problems: readonly LevelLineProblem[]): string {
  return [
    t('downline-level-problems'),
    ...problems.map((p) => t(`downline-level-problem-${p.reason}`, { line: p.line.slice(0, 60) })),
    '',
    t('downline-levels-help'),
  ].join('\n');
}

/** What the joiner is told when they open an invite link. */
export function joinAnswerText(t: TranslateFunction, answer: JoinAnswer): string {
  switch (answer.kind) {
    case 'requested':
    case 'pending':
      return t(`downline-join-${answer.kind}`, { name: displayName(answer.upline) });
    case 'joined':
      return t('downline-join-joined', { name: displayName(answer.upline), level: answer.level.name });
    case 'member':
      return t(answer.same ? 'downline-join-member-same' : 'downline-join-member-other');
    case 'invite':
      return t(`downline-join-invite-${answer.state}`);
    case 'wallet-elsewhere':
      return t('downline-join-wallet-elsewhere', {
        name: answer.formerUpline ? displayName(answer.formerUpline) : '-',
        balance: formatRupiah(answer.balance),
      });
    default:
      return t(`downline-join-${answer.kind}`);
  }
}

/** The request message once decided (its buttons gone): who asked, and what was decided. */
export function renderDecidedRequest(t: TranslateFunction, request: JoinRequest, level: DownlineLevel | undefined): string {
  const asked = t('downline-request', { name: displayName(request), id: String(request.userId) });
  const decided =
    request.status === 'approved'
      ? t('downline-request-approved', { level: level?.name ?? '?' })
      : t(request.status === 'declined' ? 'downline-request-declined' : 'downline-request-void');
  return `${asked}\n\n${decided}`;
}
