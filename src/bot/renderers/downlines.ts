import type { TranslateFunction } from '@grammyjs/i18n';
import type { DownlineEntry, JoinAnswer } from '../../services/downlines.ts';
import { inviteState, invitePayload } from '../../services/downline-rules.ts';
import type { LevelLineProblem } from '../../services/downline-rules.ts';
import { hasSellRules } from '../../services/pricing.ts';
import type { DownlineInvite, DownlineLevel, DownlineMode, JoinRequest } from '../../store/records/users.ts';
import { formatRupiah, formatWibDateIn, formatWibIn } from '../../text/format.ts';
import type { DownlineToday } from '../../services/downline-figures.ts';
import type { DailySpendCheck } from '../../services/downline-spend.ts';
import { raw } from '../../text/html.ts';
import { displayName } from '../../notify/downline-notices.ts';
import { describeMarkup, describeStep } from './sell.ts';

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

/**
 * The /downline screen: levels, auto-approve, and one page of the downlines (`shown`, from number
 * `first`), each with level, joined date and status, then their wallet balance and today's
 * purchases with the upline's margin from them.
 */
export function renderDownlineHome(
  t: TranslateFunction,
  mode: DownlineMode,
  total: number,
  shown: readonly DownlineToday[],
  first = 1,
): string {
  const lines = [t('downline-title'), '', t('downline-levels-title')];
  for (const level of mode.levels) lines.push(levelLine(t, mode, level));
  lines.push('', t(mode.autoApprove ? 'downline-auto-on' : 'downline-auto-off'));
  lines.push(t(mode.groupNotices ? 'downline-group-on' : 'downline-group-off'), '');
  if (total === 0) lines.push(t('downline-none'));
  else {
    lines.push(t('downline-list-title', { count: total }));
    shown.forEach((figures, index) => lines.push(downlineLine(t, figures, first + index)));
    if (total > shown.length) lines.push('', t('downline-list-page', { from: first, to: first + shown.length - 1, count: total }));
  }
  return lines.join('\n');
}

function downlineLine(t: TranslateFunction, figures: DownlineToday, n: number): string {
  const { entry } = figures;
  const head = t('downline-list-line', {
    n,
    name: displayName(entry.user),
    level: entry.level.name,
    joined: formatWibDateIn(t, entry.membership.joinedAt),
    status: t(`downline-status-${entry.membership.status}`),
  });
  const today = t('downline-list-today', {
    balance: formatRupiah(figures.balance),
    count: figures.today.count,
    margin: formatRupiah(figures.today.margin),
  });
  return `${head}\n${today}`;
}

/** One downline's card: level, status, wallet, today's purchases and the upline's margin, the daily limit. */
export function renderDownlineCard(t: TranslateFunction, figures: DownlineToday): string {
  const { entry } = figures;
  const limit = entry.membership.dailyLimit;
  return [
    t('downline-card', {
      name: displayName(entry.user),
      id: entry.user.id,
      level: entry.level.name,
      joined: formatWibIn(t, entry.membership.joinedAt),
      status: t(`downline-status-${entry.membership.status}`),
    }),
    t('downline-card-wallet', { balance: formatRupiah(figures.balance) }),
    t('downline-card-today', {
      count: figures.today.count,
      success: figures.today.success,
      sales: formatRupiah(figures.today.sales),
      margin: formatRupiah(figures.today.margin),
    }),
    limit === undefined
      ? t('downline-card-limit-none')
      : t('downline-card-limit', {
          limit: formatRupiah(limit),
          spent: formatRupiah(figures.spent),
          left: formatRupiah(Math.max(0, limit - figures.spent)),
        }),
  ].join('\n');
}

/**
 * What a downline is told when a purchase does not fit their daily spend limit (`checkDailySpend`
 * answered `fits: false`): the limit and what is left today. Their own figures only.
 */
export function renderSpendRefusal(t: TranslateFunction, check: DailySpendCheck): string {
  return t('downline-spend-over', { limit: formatRupiah(check.limit ?? 0), left: formatRupiah(check.left ?? 0) });
}

/** The daily limit screen of one downline: the current limit and how to set one. */
export function renderLimitScreen(t: TranslateFunction, entry: DownlineEntry): string {
  const limit = entry.membership.dailyLimit;
  return [
    t('downline-limit-title', { name: displayName(entry.user) }),
    limit === undefined ? t('downline-card-limit-none') : t('downline-limit-current', { limit: formatRupiah(limit) }),
    '',
    t('downline-limit-help', { id: entry.user.id }),
  ].join('\n');
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
    default:
      return t(`downline-join-${answer.kind}`);
  }
}

/** The request message once decided (its buttons gone): who asked, and what was decided. */
export function renderDecidedRequest(t: TranslateFunction, request: JoinRequest, level: DownlineLevel | undefined): string {
  const asked = t('downline-request', { name: displayName(request), id: request.userId });
  const decided =
    request.status === 'approved'
      ? t('downline-request-approved', { level: level?.name ?? '?' })
      : t(request.status === 'declined' ? 'downline-request-declined' : 'downline-request-void');
  return `${asked}\n\n${decided}`;
}
