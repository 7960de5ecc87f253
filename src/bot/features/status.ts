import type { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BotContext, BotDeps } from '../context.ts';
import { commandNames } from '../commands.ts';
import { editInPlace } from '../edits.ts';
import { readTap } from '../guards.ts';
import { echoInput, formatWibIn, withoutFormatChars } from '../../text/format.ts';
import { formatReceipt, statusIcon, statusWord } from '../../text/receipt.ts';
import { statusCheckData, statusListData } from '../callback-data/status.ts';
import { createPendingListKeyboard, createStatusReceiptKeyboard } from '../keyboards/status.ts';
import { isFinalStatus, type TransactionRecord } from '../../store/records/transactions.ts';
import { normalisePhone } from '../../domain/operators.ts';
import { FastComposer } from '../composer.ts';
import { describeProviderError } from '../provider-errors.ts';

/** Most open transactions listed by a bare /status. */
const pendingListLimit = 20;
/** A ref id longer than this is not one of ours: answered "not found" without a lookup. */
const maxRefLength = 100;

/**
 * /status REF (/cek REF): the sender's transaction as a receipt, re-checked with the provider while
 * open (a settled one from the store). A trx id or a target number works too (several: a list of
 * buttons); another user's ref answers like an unknown one. Without REF: the open transactions.
 */
export const statusFeature = new FastComposer<BotContext>();
const privateChat = statusFeature.chatType('private');

privateChat.command(commandNames('status'), async (ctx) => {
  const userId = ctx.from.id;
  const ref = parseRef(ctx.match);
  if (ref === undefined) {
    const { text, keyboard } = await renderPendingList(ctx.t, ctx.deps, userId);
    await ctx.reply(text, { reply_markup: keyboard });
    return;
  }
  const found = await lookUp(ctx.deps, userId, ref, ctx.match);
  const [tx] = found;
  if (!tx) {
    await ctx.reply(ctx.t('status-not-found', { query: echoInput(ref, 40) }));
    return;
  }
  if (found.length > 1) {
    const shown = found.slice(0, pendingListLimit);
    const more = found.length > shown.length ? ctx.t('status-matches-more') : undefined;
    const { text, keyboard } = renderList(ctx.t, ctx.t('status-matches-title', { count: shown.length }), shown, more);
    await ctx.reply(text, { reply_markup: keyboard });
    return;
  }
  const { current, note } = await refresh(ctx.t, ctx.deps, tx);
  await ctx.reply(receiptText(ctx.t, current, note), {
    reply_markup: createStatusReceiptKeyboard(ctx.t, current, { backToList: false }),
  });
});

statusFeature.callbackQuery(statusCheckData.filter(), async (ctx) => {
  const ref = await readTap(ctx, statusCheckData, ({ ref }) => ref);
  if (ref === undefined) return;
  const tx = await findOwn(ctx.deps, ctx.from.id, ref);
  if (!tx) {
    await ctx.answerCallbackQuery({ text: ctx.t('status-not-found-short'), show_alert: true });
    return;
  }
  const { current, note } = await refresh(ctx.t, ctx.deps, tx);
  await ctx.answerCallbackQuery({ text: `${statusIcon(current)} ${statusWord(ctx.t, current)}` });
  await editInPlace(ctx, receiptText(ctx.t, current, note), createStatusReceiptKeyboard(ctx.t, current, { backToList: true }));
});

statusFeature.callbackQuery(statusListData.filter(), async (ctx) => {
  await ctx.answerCallbackQuery();
  const { text, keyboard } = await renderPendingList(ctx.t, ctx.deps, ctx.from.id);
  await editInPlace(ctx, text, keyboard);
});

/** The ref id typed after the command: the first word, without quotes or brackets around it. */
function parseRef(match: string): string | undefined {
  const word = withoutFormatChars(match).trim().split(/\s+/)[0] ?? '';
  const ref = word.replace(/^[`'"<([]+|[`'">)\].,;]+$/g, '');
  return ref === '' ? undefined : ref;
}

/**
 * The sender's transactions that `query` names: the one with that ref id, else the one with that
 * provider trx id, else those to that target number (newest first). Someone else's transaction
 * is never among them, so it answers like an unknown one.
 */
async function lookUp(deps: BotDeps, userId: number, query: string, typed: string): Promise<TransactionRecord[]> {
  if (query.length > maxRefLength) return [];
  const byRef = (await findOwn(deps, userId, query)) ?? (await deps.db.transactions.findByTrxId(userId, query));
  if (byRef) return [byRef];
  // A phone number may be typed with spaces or dashes (`0812 3456 7890`): stored in the 08… form.
  const target = normalisePhone(withoutFormatChars(typed)) ?? normalisePhone(query) ?? query;
  return deps.db.transactions.listByTarget(userId, target, { limit: pendingListLimit + 1 });
}

/**
 * A list of transactions (the open ones, or several to one target): the title, one numbered line
 * each (product, target, status, time), `more` when the list was cut, and one button each.
 */
function renderList(
  t: TranslateFunction,
  title: string,
  shown: readonly TransactionRecord[],
  more: string | undefined,
): { text: string; keyboard: InlineKeyboard } {
  const lines = shown.map((tx, index) =>
    t('status-pending-line', {
      n: index + 1,
      product: tx.productName,
      target: tx.target,
      status: statusWord(t, tx),
      time: formatWibIn(t, tx.createdAt),
    }),
  );
  const parts = [title, '', ...lines, ...(more === undefined ? [] : ['', more])];
  return { text: parts.join('\n'), keyboard: createPendingListKeyboard(t, shown) };
}

/** The sender's transaction by ref id (ULIDs are case-insensitive, so a lower-case copy is found too). */
async function findOwn(deps: BotDeps, userId: number, ref: string): Promise<TransactionRecord | undefined> {
  if (ref.length > maxRefLength) return undefined;
  const found = await deps.db.transactions.findForUser(userId, ref);
  if (found || ref.toUpperCase() === ref) return found;
  return deps.db.transactions.findForUser(userId, ref.toUpperCase());
}

/**
 * A settled transaction as stored; an open one after a status check. A check without a verdict
 * (provider down, credentials refused …) gets a note saying why; the watcher keeps checking.
 */
async function refresh(t: TranslateFunction, deps: BotDeps, tx: TransactionRecord): Promise<{ current: TransactionRecord; note?: string }> {
  if (isFinalStatus(tx.status)) return { current: tx };
  const current = await deps.services.purchases.check(tx.refId);
  if (isFinalStatus(current.status)) return { current };
  const note = checkProblem(t, current, deps.settings.publicIp);
  return note === undefined ? { current } : { current, note };
}

/** Why a check reached no verdict (the transaction's `message`), in the provider-error wording; undefined for none. */
function checkProblem(t: TranslateFunction, tx: TransactionRecord, publicIp: string | undefined): string | undefined {
  const kind = tx.message;
  // Acknowledged earlier, refused now: still being checked, never "not charged".
  if (kind === 'recheck_refused') return t(tx.reviewRequestedAt === undefined ? 'status-recheck-refused' : 'status-recheck-review');
  // A downline's purchase is checked on the upline's account: what is wrong with it is the upline's
  // to fix (they are told), never the downline's to reconnect.
  if (tx.upline && (kind === 'not-connected' || kind === 'credentials' || kind === 'ip_blocked')) return t('buy-downline-unavailable');
  if (kind === 'not-connected') return t('error-not-connected', { service: t('service-reseller') });
  if (kind !== 'credentials' && kind !== 'ip_blocked' && kind !== 'unknown_outcome' && kind !== 'malformed') return undefined;
  return describeProviderError(t, { service: 'reseller', kind, endpoint: '/transaction' }, publicIp);
}

function receiptText(t: TranslateFunction, tx: TransactionRecord, note: string | undefined): string {
  const receipt = formatReceipt(t, tx);
  return note === undefined ? receipt : `⚠️ ${note}\n\n${receipt}`;
}

/** The sender's open transactions, newest first, as text and buttons (no keyboard when there are none). */
async function renderPendingList(
  t: TranslateFunction,
  deps: BotDeps,
  userId: number,
): Promise<{ text: string; keyboard?: InlineKeyboard }> {
  const open = (await deps.db.transactions.listOpen()).filter((tx) => tx.userId === userId).reverse();
  if (open.length === 0) return { text: t('status-pending-none') };
  const shown = open.slice(0, pendingListLimit);
  const more = open.length > shown.length ? t('status-pending-more', { count: open.length - shown.length }) : undefined;
  return renderList(t, t('status-pending-title', { count: open.length }), shown, more);
}
