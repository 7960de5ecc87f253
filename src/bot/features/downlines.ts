import type { CallbackQueryContext } from 'grammy';
import type { BotContext } from '../context.ts';
import { FastComposer } from '../composer.ts';
import { quietly } from '../edits.ts';
import { readTap } from '../guards.ts';
import { isOneOf } from '../callback-data/read.ts';
import { downlineData, joinRequestData } from '../callback-data/downlines.ts';
import { connectData } from '../callback-data/connect.ts';
import {
  createDownlineBackKeyboard,
  createDownlineCardKeyboard,
  createDownlineHomeKeyboard,
  createInvitesKeyboard,
  createLimitKeyboard,
  downlinesShown,
} from '../keyboards/downlines.ts';
import {
  activeInvites,
  inviteLink,
  joinAnswerText,
  levelLine,
  renderDecidedRequest,
  renderDownlineCard,
  renderDownlineHome,
  renderInvites,
  renderLevelProblems,
  renderLevels,
  renderLimitScreen,
} from '../renderers/downlines.ts';
import { downlineLimits, isInvitePayload } from '../../services/downline-rules.ts';
import { maxDailyLimit, type DownlineChange, type DownlineEntry } from '../../services/downlines.ts';
import { downlinesToday } from '../../services/downline-figures.ts';
import { formatRupiah } from '../../text/format.ts';
import { readAmount } from './wallet.ts';
import { displayName } from '../../notify/downline-notices.ts';

/**
 * Downlines (on with DOWNLINES=true): `/downline` opens downline mode for a
 * connected reseller and shows their downlines (a page at a time, each with their wallet balance,
 * today's purchases and the upline's margin from them), levels and invite links; a downline's card
 * suspends, resumes, removes, moves them and sets their daily spend limit (also `/downline limit`);
 * `/start dl_…` (an invite link) asks to join; the upline's approve and decline buttons under a request. A downline is
 * refused downline mode and connecting a reseller account. Private chats only. Everything it
 * changes goes through the downline service.
 */
export const downlinesFeature = new FastComposer<BotContext>();
const privateChat = downlinesFeature.chatType('private');

privateChat.command('start', async (ctx, next) => {
  if (!isInvitePayload(ctx.match)) return next();
  const answer = await ctx.deps.services.downlines.requestJoin(ctx.from.id, ctx.match);
  await ctx.reply(joinAnswerText(ctx.t, answer));
});

privateChat.command('downline', async (ctx) => {
  const [first = '', ...more] = ctx.match.split('\n');
  const [sub = '', ...words] = first.trim().split(/\s+/);
  const word = sub.toLowerCase();
  if (word === '') return openOrShow(ctx);
  if (!(await ctx.deps.services.downlines.mode(ctx.from.id))) return openOrShow(ctx);
  if (word === 'invite' || word === 'undang') return createInvite(ctx, words);
  if (word === 'level') return saveLevel(ctx, words, more);
  if (word === 'default' || word === 'utama') return setDefault(ctx, words[0] ?? '');
  if (word === 'auto') return setAuto(ctx, words[0]?.toLowerCase() ?? '');
  if (word === 'limit' || word === 'batas') return setLimit(ctx, words);
  if (word === 'grup' || word === 'group') return setGroupNotices(ctx, words[0]?.toLowerCase() ?? '');
  await ctx.reply(ctx.t('downline-usage'));
});

/** `/downline`: opens downline mode (or says why not), then the screen. */
async function openOrShow(ctx: BotContext): Promise<void> {
  const userId = ctx.from?.id;
  if (userId === undefined) return;
  const opened = await ctx.deps.services.downlines.open(userId);
  if ('refused' in opened) {
    const upline = opened.refused === 'is-downline' ? await ctx.deps.db.users.get(opened.uplineId) : undefined;
    await ctx.reply(ctx.t(`downline-refused-${opened.refused}`, { name: upline ? displayName(upline) : '' }));
    return;
  }
  if (opened.opened) await ctx.reply(ctx.t('downline-opened'));
  await showHome(ctx);
}

/**
 * The /downline screen, as a new message or in place of the tapped one: page `page` of the
 * downlines (a page past the end shows the last), each with today's figures (read for that page only).
 */
async function showHome(ctx: BotContext, options: { edit?: boolean; page?: number } = {}): Promise<void> {
  const userId = ctx.from?.id;
  if (userId === undefined) return;
  const mode = await ctx.deps.services.downlines.mode(userId);
  if (!mode) {
    await ctx.reply(ctx.t('downline-not-open'));
    return;
  }
  const entries = await ctx.deps.services.downlines.list(userId);
  const lastPage = Math.max(0, Math.ceil(entries.length / downlinesShown) - 1);
  const index = Math.min(Math.max(0, options.page ?? 0), lastPage);
  const shown = entries.slice(index * downlinesShown, (index + 1) * downlinesShown);
  const figures = await downlinesToday(ctx.deps.db, userId, shown, ctx.deps.now());
  const text = renderDownlineHome(ctx.t, mode, entries.length, figures, index * downlinesShown + 1);
  const reply_markup = createDownlineHomeKeyboard(ctx.t, mode, shown, { index, total: entries.length });
  if (options.edit) await quietly(ctx.editMessageText(text, { reply_markup }));
  else await ctx.reply(text, { reply_markup });
}

/** `/downline grup nyala|mati`: posts of downline purchases to the upline's linked group, masked. */
async function setGroupNotices(ctx: BotContext, word: string): Promise<void> {
  const userId = ctx.from?.id;
  const on = ['on', 'nyala', 'ya'].includes(word) ? true : ['off', 'mati', 'tidak'].includes(word) ? false : undefined;
  if (userId === undefined || on === undefined) {
    await ctx.reply(ctx.t('downline-usage'));
    return;
  }
  await ctx.deps.services.downlines.setGroupNotices(userId, on);
  const linked = (await ctx.deps.db.groups.byOwner(userId)).length > 0;
  await ctx.reply(ctx.t(!on ? 'downline-group-set-off' : linked ? 'downline-group-set-on' : 'downline-group-set-on-unlinked'), {
    reply_markup: createDownlineBackKeyboard(ctx.t),
  });
}

/** `/downline limit <id|@user> <amount|off>`: sets or clears a downline's daily spend limit. */
async function setLimit(ctx: BotContext, words: readonly string[]): Promise<void> {
  const userId = ctx.from?.id;
  const [who = '', ...rest] = words;
  if (userId === undefined) return;
  const text = rest.join(' ').trim();
  const off = /^(off|mati|hapus|tanpa|none|0)$/i.test(text);
  const amount = off ? undefined : readAmount(text);
  if (who === '' || (!off && amount === undefined)) {
    await ctx.reply(ctx.t('downline-limit-usage', { max: formatRupiah(maxDailyLimit) }));
    return;
  }
  const downline = await ctx.deps.services.wallets.findDownline(userId, who);
  const changed = downline
    ? await ctx.deps.services.downlines.changeDownline(userId, downline.id, { kind: 'limit', amount })
    : ({ kind: 'not-yours' } as const);
  if (!('entry' in changed) || !changed.entry) {
    await ctx.reply(
      changed.kind === 'bad-limit'
        ? ctx.t('downline-limit-usage', { max: formatRupiah(maxDailyLimit) })
        : ctx.t('wallet-adjust-not-yours', { who: who.slice(0, 40) }),
    );
    return;
  }
  await replyCard(ctx, changed.entry, changed.kind === 'unchanged' ? ctx.t('downline-unchanged') : limitDone(ctx, amount));
}

/** What the upline is told once a limit is set or cleared. */
function limitDone(ctx: BotContext, amount: number | undefined): string {
  return amount === undefined ? ctx.t('downline-done-limit-off') : ctx.t('downline-done-limit', { amount: formatRupiah(amount) });
}

/** A downline's card (with today's figures) and its buttons, as a new message under `note`, or in place of the tapped one. */
async function replyCard(ctx: BotContext, entry: DownlineEntry, note?: string, options: { edit?: boolean } = {}): Promise<void> {
  const userId = ctx.from?.id;
  const mode = userId === undefined ? undefined : await ctx.deps.services.downlines.mode(userId);
  if (userId === undefined || !mode) return;
  const [figures] = await downlinesToday(ctx.deps.db, userId, [entry], ctx.deps.now());
  if (!figures) return;
  const card = renderDownlineCard(ctx.t, figures);
  const reply_markup = createDownlineCardKeyboard(ctx.t, mode, entry);
  if (options.edit) await quietly(ctx.editMessageText(card, { reply_markup }));
  else await ctx.reply(note === undefined ? card : `${note}\n\n${card}`, { reply_markup });
}

/** `/downline invite 7d 10x`: a new link, expiring after the days and good for the number of people given. */
async function createInvite(ctx: BotContext, words: readonly string[]): Promise<void> {
  const limits: { days?: number; uses?: number } = {};
  for (const word of words) {
    const days = /^(\d{1,3})(d|h|hari)$/i.exec(word);
    const uses = /^(\d{1,5})(x|orang)$/i.exec(word);
    if (days && Number(days[1]) >= 1 && Number(days[1]) <= downlineLimits.inviteDays) limits.days = Number(days[1]);
    else if (uses && Number(uses[1]) >= 1 && Number(uses[1]) <= downlineLimits.inviteUses) limits.uses = Number(uses[1]);
    else {
      await ctx.reply(ctx.t('downline-invite-bad', { text: word.slice(0, 20) }));
      return;
    }
  }
  await replyNewInvite(ctx, limits);
}

async function replyNewInvite(ctx: BotContext, limits: { days?: number; uses?: number }): Promise<void> {
  const userId = ctx.from?.id;
  if (userId === undefined) return;
  const made = await ctx.deps.services.downlines.createInvite(userId, limits);
  if ('refused' in made) {
    await ctx.reply(
      ctx.t(made.refused === 'too-many' ? 'downline-invite-too-many' : 'downline-not-open', { max: downlineLimits.activeInvites }),
    );
    return;
  }
  await ctx.reply(ctx.t('downline-invite-made', { link: inviteLink(ctx.me.username, userId, made.invite) }), {
    link_preview_options: { is_disabled: true },
    reply_markup: createDownlineBackKeyboard(ctx.t),
  });
}

/** `/downline level Gold 2%` (more rule lines below, or `hapus`): creates or changes a level. */
async function saveLevel(ctx: BotContext, words: readonly string[], more: readonly string[]): Promise<void> {
  const userId = ctx.from?.id;
  const [name = '', ...rest] = words;
  if (userId === undefined) return;
  if (name === '') {
    const mode = await ctx.deps.services.downlines.mode(userId);
    await ctx.reply(mode ? renderLevels(ctx.t, mode) : ctx.t('downline-not-open'));
    return;
  }
  const lines = [rest.join(' '), ...more];
  if (lines.filter((l) => l.trim() !== '').length === 1 && /^(hapus|remove|delete)$/i.test(lines.join('').trim())) {
    const removed = await ctx.deps.services.downlines.removeLevel(userId, name);
    await ctx.reply(
      'refused' in removed
        ? ctx.t(`downline-level-remove-${removed.refused}`, { level: name })
        : ctx.t('downline-level-removed', { level: removed.name }),
    );
    return;
  }
  const saved = await ctx.deps.services.downlines.saveLevel(userId, name, lines);
  if ('problems' in saved) {
    await ctx.reply(renderLevelProblems(ctx.t, saved.problems));
    return;
  }
  if ('refused' in saved) {
    await ctx.reply(ctx.t(`downline-level-${saved.refused}`, { max: downlineLimits.levels }));
    return;
  }
  const mode = await ctx.deps.services.downlines.mode(userId);
  const line = mode ? levelLine(ctx.t, mode, saved.level) : saved.level.name;
  await ctx.reply(`${ctx.t(saved.created ? 'downline-level-created' : 'downline-level-saved')}\n${line}`, {
    reply_markup: createDownlineBackKeyboard(ctx.t),
  });
}

async function setDefault(ctx: BotContext, name: string): Promise<void> {
  const set = await ctx.deps.services.downlines.setDefaultLevel(ctx.from?.id ?? 0, name);
  await ctx.reply(
    'refused' in set ? ctx.t(`downline-level-remove-${set.refused}`, { level: name }) : ctx.t('downline-default-set', { level: set.name }),
  );
}

async function setAuto(ctx: BotContext, word: string): Promise<void> {
  const on = ['on', 'nyala', 'ya'].includes(word) ? true : ['off', 'mati', 'tidak'].includes(word) ? false : undefined;
  if (on === undefined) {
    await ctx.reply(ctx.t('downline-usage'));
    return;
  }
  await ctx.deps.services.downlines.setAutoApprove(ctx.from?.id ?? 0, on);
  await ctx.reply(ctx.t(on ? 'downline-auto-on' : 'downline-auto-off'), { reply_markup: createDownlineBackKeyboard(ctx.t) });
}

const actions = ['home', 'invites', 'newinv', 'revoke', 'auto', 'levels', 'card', 'sus', 'res', 'rm', 'lvl', 'limit', 'lim'] as const;
type Action = (typeof actions)[number];

downlinesFeature.callbackQuery(downlineData.filter(), async (ctx) => {
  const tap = await readTap(
    ctx,
    downlineData,
    (f) => (isOneOf(actions, f.action) ? { action: f.action, id: f.id, arg: f.arg } : undefined),
    {
      privateOnly: true,
    },
  );
  if (!tap) return;
  const mode = await ctx.deps.services.downlines.mode(ctx.from.id);
  if (!mode) {
    await ctx.answerCallbackQuery({ text: ctx.t('downline-not-open') });
    return;
  }
  await onTap(ctx, tap);
});

async function onTap(ctx: CallbackQueryContext<BotContext>, tap: { action: Action; id: string; arg: string }): Promise<void> {
  const service = ctx.deps.services.downlines;
  const userId = ctx.from.id;
  switch (tap.action) {
    case 'home':
      await ctx.answerCallbackQuery();
      return showHome(ctx, { edit: true, page: /^\d{1,4}$/.test(tap.id) ? Number(tap.id) : 0 });
    case 'invites':
    case 'revoke': {
      if (tap.action === 'revoke') {
        const revoked = await service.revokeInvite(userId, tap.id);
        await ctx.answerCallbackQuery({ text: ctx.t(`downline-invite-${revoked}`) });
      } else await ctx.answerCallbackQuery();
      const mode = await service.mode(userId);
      const active = mode ? activeInvites(mode, ctx.deps.now()) : [];
      await quietly(
        ctx.editMessageText(renderInvites(ctx.t, ctx.me.username, userId, active), {
          reply_markup: createInvitesKeyboard(ctx.t, active),
          link_preview_options: { is_disabled: true },
        }),
      );
      return;
    }
    case 'newinv':
      await ctx.answerCallbackQuery();
      return replyNewInvite(ctx, {});
    case 'auto':
      await service.setAutoApprove(userId, tap.arg === 'on');
      await ctx.answerCallbackQuery({ text: ctx.t(tap.arg === 'on' ? 'downline-auto-on' : 'downline-auto-off') });
      return showHome(ctx, { edit: true });
    case 'levels': {
      await ctx.answerCallbackQuery();
      const mode = await service.mode(userId);
      if (mode) await quietly(ctx.editMessageText(renderLevels(ctx.t, mode), { reply_markup: createDownlineBackKeyboard(ctx.t) }));
      return;
    }
    default:
      return onDownlineTap(ctx, tap);
  }
}

/** The change a card button asks for (`lim` with `arg` a rupiah amount or `off`); undefined when its `arg` does not read. */
function changeOf(tap: { action: Action; arg: string }): DownlineChange | undefined {
  switch (tap.action) {
    case 'sus':
      return { kind: 'suspend' };
    case 'res':
      return { kind: 'resume' };
    case 'rm':
      return { kind: 'remove' };
    case 'lim':
      return tap.arg === 'off'
        ? { kind: 'limit', amount: undefined }
        : /^\d{1,10}$/.test(tap.arg)
          ? { kind: 'limit', amount: Number(tap.arg) }
          : undefined;
    default:
      return { kind: 'level', levelId: tap.arg };
  }
}

/** A button of one downline's card: show it, suspend, resume, remove, change the level, the daily limit screen and its amounts. */
async function onDownlineTap(ctx: CallbackQueryContext<BotContext>, tap: { action: Action; id: string; arg: string }): Promise<void> {
  const service = ctx.deps.services.downlines;
  const downlineId = Number(tap.id);
  let entry: DownlineEntry | undefined;
  if (tap.action === 'card' || tap.action === 'limit') {
    entry = Number.isSafeInteger(downlineId) ? await service.entry(ctx.from.id, downlineId) : undefined;
    await ctx.answerCallbackQuery(entry ? {} : { text: ctx.t('downline-not-yours') });
    if (entry && tap.action === 'limit') {
      await quietly(ctx.editMessageText(renderLimitScreen(ctx.t, entry), { reply_markup: createLimitKeyboard(ctx.t, entry) }));
      return;
    }
  } else {
    const change = changeOf(tap);
    if (!change) {
      await ctx.answerCallbackQuery({ text: ctx.t('downline-unchanged') });
      return;
    }
    const changed = Number.isSafeInteger(downlineId)
      ? await service.changeDownline(ctx.from.id, downlineId, change)
      : { kind: 'not-yours' as const };
    if (!('entry' in changed)) {
      await ctx.answerCallbackQuery({ text: ctx.t(`downline-${changed.kind}`) });
      return showHome(ctx, { edit: true });
    }
    const done = change.kind === 'limit' ? limitDone(ctx, change.amount) : ctx.t(`downline-done-${change.kind}`);
    await ctx.answerCallbackQuery({ text: changed.kind === 'unchanged' ? ctx.t('downline-unchanged') : done });
    entry = changed.entry;
    if (!entry) return showHome(ctx, { edit: true });
  }
  if (!entry) return showHome(ctx, { edit: true });
  await replyCard(ctx, entry, undefined, { edit: true });
}

// The upline's answer under a join request: approve into a level, or decline; an old or second tap is told what was decided.
downlinesFeature.callbackQuery(joinRequestData.filter(), async (ctx) => {
  const tap = await readTap(
    ctx,
    joinRequestData,
    (f) =>
      f.action === 'ok'
        ? { request: f.request, decision: { approve: f.level } }
        : f.action === 'no'
          ? { request: f.request, decision: 'decline' as const }
          : undefined,
    { privateOnly: true },
  );
  if (!tap) return;
  const decided = await ctx.deps.services.downlines.decide(ctx.from.id, tap.request, tap.decision);
  switch (decided.kind) {
    case 'approved':
    case 'declined':
    case 'void':
    case 'decided': {
      const level = decided.kind === 'approved' ? decided.level : decided.kind === 'decided' ? decided.level : undefined;
      const note =
        decided.kind === 'void'
          ? ctx.t(`downline-request-void-${decided.why}`)
          : decided.kind === 'decided'
            ? ctx.t('downline-request-already')
            : ctx.t(`downline-request-${decided.kind}`, { level: level?.name ?? '' });
      await ctx.answerCallbackQuery({ text: note });
      await quietly(ctx.editMessageText(renderDecidedRequest(ctx.t, decided.request, level)));
      return;
    }
    default:
      await ctx.answerCallbackQuery({ text: ctx.t(`downline-request-${decided.kind}`), show_alert: decided.kind === 'not-connected' });
  }
});

// A downline keeps their upline's account: connecting a reseller account of their own is refused while they are one.
downlinesFeature.callbackQuery(connectData.filter(), async (ctx, next) => {
  const membership = ctx.account?.membership;
  const data = ctx.callbackQuery.data;
  const reseller =
    connectData.filter({ action: 'pick', service: 'reseller' }).test(data) ||
    connectData.filter({ action: 'replace', service: 'reseller' }).test(data);
  if (!membership || !reseller) return next();
  const upline = await ctx.deps.db.users.get(membership.uplineId);
  await ctx.answerCallbackQuery();
  await ctx.reply(ctx.t('downline-connect-refused', { name: upline ? displayName(upline) : '' }));
});
