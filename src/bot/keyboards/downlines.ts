import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { downlineData, joinRequestData } from '../callback-data/downlines.ts';
import { packIfFits } from '../callback-data/read.ts';
import type { DownlineEntry } from '../../services/downlines.ts';
import type { DownlineInvite, DownlineMode, JoinRequest } from '../../store/records/users.ts';

/** A translate function as the bot and the notices both have it. */
type Translate = (key: string, variables?: Record<string, string | number>) => string;

const data = (action: string, id: string | number = '-', arg = '-') => downlineData.pack({ action, id: String(id), arg });

/** How many downlines the /downline screen lists as buttons (the rest are counted). */
export const downlinesShown = 20;

/** Under the /downline screen: a button per downline, then invites, levels and the auto-approve switch. */
export function createDownlineHomeKeyboard(t: TranslateFunction, mode: DownlineMode, entries: readonly DownlineEntry[]): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  entries.slice(0, downlinesShown).forEach((entry, index) => {
    keyboard.text(t('downline-button-card', { n: index + 1, name: entry.user.firstName }), data('card', entry.user.id));
    if (index % 2 === 1) keyboard.row();
  });
  // An odd count leaves its last button alone in a row of its own.
  if (Math.min(entries.length, downlinesShown) % 2 === 1) keyboard.row();
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
  return keyboard.row().text(t('downline-button-back'), data('home'));
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
