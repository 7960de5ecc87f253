import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { downlineData, joinRequestData } from '../callback-data/downlines.ts';
import { reportDownlineData } from '../callback-data/report.ts';
import { formatRupiah } from '../../text/format.ts';
import { packIfFits } from '../callback-data/read.ts';
import type { DownlineEntry } from '../../services/downlines.ts';
import type { DownlineInvite, DownlineMode, JoinRequest } from '../../store/records/users.ts';

/** A translate function as the bot and the notices both have it. */
type Translate = (key: string, variables?: Record<string, string | number>) => string;

const data = (action: string, id: string | number = '-', arg = '-') => downlineData.pack({ action, id: String(id), arg });

/** How many downlines one page of the /downline screen lists (each as a button too). */
export const downlinesShown = 10;

/** The daily limits the limit screen offers as buttons (rupiah). */
export const dailyLimitPresets = [100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000] as const;

/**
 * Under the /downline screen: a button per downline of page `page` (`shown` of `total`), ◀️ / ▶️
 * between pages, then invites, levels and the auto-approve switch.
 */
export function createDownlineHomeKeyboard(
  t: TranslateFunction,
  mode: DownlineMode,
  shown: readonly DownlineEntry[],
  page: { index: number; total: number } = { index: 0, total: shown.length },
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  const first = page.index * downlinesShown + 1;
  shown.forEach((entry, index) => {
    keyboard.text(t('downline-button-card', { n: first + index, name: entry.user.firstName }), data('card', entry.user.id));
    if (index % 2 === 1) keyboard.row();
  });
  // An odd count leaves its last button alone in a row of its own.
  if (shown.length % 2 === 1) keyboard.row();
  const pages = Math.ceil(page.total / downlinesShown);
  if (pages > 1) {
    if (page.index > 0) keyboard.text(t('downline-button-previous'), data('home', page.index - 1));
    if (page.index < pages - 1) keyboard.text(t('downline-button-next'), data('home', page.index + 1));
    keyboard.row();
  }
  keyboard.text(t('downline-button-invites'), data('invites')).text(t('downline-button-levels'), data('levels')).row();
  keyboard.text(
    t(mode.autoApprove ? 'downline-button-auto-on' : 'downline-button-auto-off'),
    data('auto', '-', mode.autoApprove ? 'off' : 'on'),
  );
  return keyboard;
}

/** Under the invite list: revoke each active one, make a new one, back. */
export function createInvitesKeyboard(t: TranslateFunction, active: readonly DownlineInvite[]): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  active.forEach((invite, index) => {
    keyboard.text(t('downline-button-revoke', { n: index + 1 }), data('revoke', invite.id));
    if (index % 3 === 2) keyboard.row();
  });
  return keyboard.row().text(t('downline-button-new-invite'), data('newinv')).row().text(t('downline-button-back'), data('home'));
}

/** Under one downline: suspend or resume, remove, move to each other level, back. */
export function createDownlineCardKeyboard(t: TranslateFunction, mode: DownlineMode, entry: DownlineEntry): InlineKeyboard {
  const id = entry.user.id;
  const keyboard = new InlineKeyboard()
    .text(
      t(entry.membership.status === 'active' ? 'downline-button-suspend' : 'downline-button-resume'),
      data(entry.membership.status === 'active' ? 'sus' : 'res', id),
    )
    .text(t('downline-button-remove'), data('rm', id))
    .row();
  for (const level of mode.levels.filter((l) => l.id !== entry.level.id)) {
    const packed = packIfFits(() => data('lvl', id, level.id));
    if (packed) keyboard.text(t('downline-button-level', { level: level.name }), packed);
  }
  return keyboard
    .row()
    .text(t('downline-button-limit'), data('limit', id))
    .text(t('downline-button-report'), reportDownlineData.pack({ who: String(id), period: 'today' }))
    .row()
    .text(t('downline-button-back'), data('home'));
}

/** Under a downline's daily limit screen: the preset amounts, no limit, back to the card. */
export function createLimitKeyboard(t: TranslateFunction, entry: DownlineEntry): InlineKeyboard {
  const id = entry.user.id;
  const keyboard = new InlineKeyboard();
  dailyLimitPresets.forEach((amount, index) => {
    const label = formatRupiah(amount);
    keyboard.text(entry.membership.dailyLimit === amount ? `✅ ${label}` : label, data('lim', id, String(amount)));
    if (index % 3 === 2) keyboard.row();
  });
  if (dailyLimitPresets.length % 3 !== 0) keyboard.row();
  return keyboard
    .text(t('downline-button-limit-off'), data('lim', id, 'off'))
    .row()
    .text(t('downline-button-back'), data('card', id));
}

/** Back to the /downline screen. */
export function createDownlineBackKeyboard(t: TranslateFunction): InlineKeyboard {
  return new InlineKeyboard().text(t('downline-button-back'), data('home'));
}

/** Under a join request: approve into each level (the default first), or decline. Plain JSON for the outbox. */
export function createJoinRequestKeyboard(
  t: Translate,
  request: JoinRequest,
  mode: DownlineMode,
): { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> } {
  const levels = [...mode.levels].sort((a, b) => Number(b.id === mode.defaultLevelId) - Number(a.id === mode.defaultLevelId));
  const rows: Array<Array<{ text: string; callback_data: string }>> = [];
  for (const level of levels) {
    const packed = packIfFits(() => joinRequestData.pack({ action: 'ok', request: request.id, level: level.id }));
    if (!packed) continue;
    const button = { text: t('downline-button-approve', { level: level.name }), callback_data: packed };
    const last = rows.at(-1);
    if (last && last.length < 2) last.push(button);
    else rows.push([button]);
  }
  rows.push([
    { text: t('downline-button-decline'), callback_data: joinRequestData.pack({ action: 'no', request: request.id, level: '-' }) },
  ]);
  return { inline_keyboard: rows };
}
