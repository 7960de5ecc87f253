/**
 * The steps of the buy conversation (`buy.ts`), in order. Replayed from the top on every update, a
 * step waits and calls `external` and the Bot API in the same order each time; its result says
 * whether the flow goes on (the user was told when not).
 */
import { createHash } from 'node:crypto';
import type { ConversationContext, PendingQuestion } from '../context.ts';
import type { BuyConversationArgs } from './ids.ts';
import { formatWibIn } from '../../text/format.ts';
import { createBuyAgainKeyboard, createBuyCancelKeyboard, createBuySummaryKeyboard } from '../keyboards/buy.ts';
import {
  closeSummaryOf,
  lookup,
  lookupFailed,
  receive,
  repriceSelection,
  requestedLines,
  resolveLines,
  type BuyFlow,
  type PriceChangeLine,
} from './buy-flow.ts';
import { pickPurchase } from './buy-picker.ts';
import {
  fit,
  nothingToBuyText,
  renderPriceChanges,
  renderPurchaseSummary,
  renderRepeatQuestion,
  type PurchaseForm,
  type Selection,
} from '../renderers/purchase.ts';
import { quietly } from '../edits.ts';
import { isValidPin } from '../../services/pin.ts';
import { verifyPin } from './pin.ts';
import { maxQuickBuyLines } from '../../services/targets.ts';

/** The balance shown in the summary is skipped when the provider takes longer than this. */
const balanceDeadlineMs = 4_000;

/** A summary the user confirmed (prices checked after it was shown); its text and message get a closing line later. */
export interface ConfirmedSummary {
  selection: Selection;
  confirmationId: string;
  summary: string;
  messageId: number;
}

/** Closes the summary and the repeat question (if one was asked) with the same line. */
export type CloseAll = (line: string) => Promise<void>;

/** Resolves with `promise`'s value, or undefined after `ms` or on failure. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const settled = promise.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref?.();
  });
  return Promise.race([settled, deadline]).finally(() => clearTimeout(timer));
}

/**
 * The confirmation id of a summary, derived (never random) from the update that started the
 * conversation, and `round` ≥ 1 for one shown again after a price change. If a crash interrupts
 * that update after the summary was sent, the start replays it (update inbox) and shows a summary
 * with the SAME id: the tap on the first one still counts, and a purchase recorded under it is found
 * again instead of bought twice. Never shared: a message id is unique in its chat, a callback query id unique.
 */
function confirmationIdOf(ctx: ConversationContext, round: number): string {
  const origin = ctx.callbackQuery
    ? `callback:${ctx.callbackQuery.id}`
    : `message:${ctx.chat?.id}:${ctx.msg?.message_id ?? `update-${ctx.update.update_id}`}`;
  const hash = (text: string) => createHash('sha256').update(`kiosbot-confirmation:${text}`).digest('base64url').slice(0, 16);
  const base = hash(origin);
  return round === 0 ? base : hash(`${base}:${round}`);
}

/** A summary's lines in a few words ("TSEL10 → 081234567890", the first three of more, then "+N"). */
function describeLines(items: ReadonlyArray<{ code: string; target: string }>): string {
  const shown = items.slice(0, 3).map((item) => `${item.code} → ${item.target}`);
  return items.length > 3 ? `${shown.join(', ')} +${items.length - 3}` : shown.join(', ');
}

/**
 * Step 0: may this user buy at all (connected, or a downline whose upline can sell; PIN not
 * locked)? Marks the flow as a downline's, who buys through their upline and pays from their wallet.
 */
export async function mayBuy(flow: BuyFlow): Promise<boolean> {
  const { deps, userId, ctx, t } = flow;
  const gate = await flow.conversation.external(async () => {
    const account = await deps.services.trading.of(userId);
    return {
      account:
        account === undefined
          ? 'none'
          : account.kind === 'own'
            ? 'own'
            : !account.active
              ? 'suspended'
              : account.connected
                ? 'downline'
                : 'unavailable',
      lockedUntil: (await deps.services.pin.lockedUntil(userId))?.toISOString(),
    };
  });
  if (gate.account === 'none') {
    await ctx.reply(t('error-not-connected', { service: t('service-reseller') }));
    return false;
  }
  if (gate.account === 'suspended' || gate.account === 'unavailable') {
    await ctx.reply(t(`buy-downline-${gate.account}`));
    return false;
  }
  if (gate.lockedUntil !== undefined) {
    await ctx.reply(t('buy-pin-locked', { until: formatWibIn(t, gate.lockedUntil) }));
    return false;
  }
  flow.downline = gate.account === 'downline';
  return true;
}

/** Step 1: what to buy, from the typed lines or through the picker; undefined when there is nothing. */
export async function chooseSelection(
  flow: BuyFlow,
  args: BuyConversationArgs | undefined,
  form: PurchaseForm,
): Promise<Selection | undefined> {
  const { ctx, t } = flow;
  const lines = requestedLines(args);
  const skipped = Array.isArray(args?.skipped) ? args.skipped : [];
  if (lines.length + skipped.length > maxQuickBuyLines) {
    await ctx.reply(t('buy-too-many-lines', { max: maxQuickBuyLines, count: lines.length + skipped.length }));
    return undefined;
  }
  const [firstLine] = lines;
  const guided = lines.length === 0 || (lines.length === 1 && firstLine?.target === undefined && skipped.length === 0);
  const selection = guided ? await pickPurchase(flow, firstLine?.code) : await resolveLines(flow, lines, skipped);
  if (!selection) return undefined;
  if (selection.items.length === 0) {
    await ctx.reply(nothingToBuyText(t, selection.problems, form));
    return undefined;
  }
  return selection;
}

/**
 * Step 2: the summary, until confirmed at prices that still hold. At the Confirm tap the prices are
 * checked against a list fetched after it was shown: a change shows it again under a new
 * confirmation id (a tap on the old one cannot buy at an unseen price). Undefined: cancelled, or nothing left.
 */
export async function confirmSummary(flow: BuyFlow, first: Selection, form: PurchaseForm): Promise<ConfirmedSummary | undefined> {
  const { ctx, t } = flow;
  let selection = first;
  let changes: PriceChangeLine[] = [];
  for (let round = 0; ; round++) {
    const confirmationId = confirmationIdOf(ctx, round);
    const shown = await showSummary(flow, selection, changes, confirmationId);
    const confirmed = await waitForConfirm(flow, confirmationId, shown.question, shown.messageId, describeLines(selection.items));
    if (!confirmed) return undefined;
    const summary = shown.question.text;
    const check = await lookup(
      flow,
      selection.items.map((item) => item.code),
      shown.shownAt,
    );
    if (!check.ok) {
      await closeSummaryOf(flow, shown.messageId, summary, t('buy-summary-not-bought'));
      await lookupFailed(flow, check.error);
      return undefined;
    }
    const repriced = repriceSelection(selection, check.products);
    if (repriced.changes.length === 0 && repriced.gone.length === 0)
      return { selection, confirmationId, summary, messageId: shown.messageId };
    await closeSummaryOf(flow, shown.messageId, summary, t('buy-summary-price-changed'));
    if (repriced.selection.items.length === 0) {
      await ctx.reply(nothingToBuyText(t, repriced.selection.problems, form));
      return undefined;
    }
    selection = repriced.selection;
    changes = repriced.changes;
  }
}

/** Sends the summary of `selection` (with the price `changes` above it, if any), with the current balance. */
async function showSummary(
  flow: BuyFlow,
  selection: Selection,
  changes: PriceChangeLine[],
  confirmationId: string,
): Promise<{ question: PendingQuestion; messageId: number; shownAt: number }> {
  const { deps, userId, ctx, t } = flow;
  const prepared = await flow.conversation.external(async () => {
    // A downline pays from their wallet: that is their balance (never the upline's provider balance).
    const client = flow.downline ? undefined : await deps.services.credentials.client(userId, 'reseller');
    const balance = flow.downline
      ? await deps.services.wallets.balance(userId)
      : client
        ? await within(client.balance(), balanceDeadlineMs)
        : undefined;
    // Shown only: the sell price is fixed at the confirmation, by the rules in force then.
    const sellRules = (await deps.db.users.get(userId))?.sellRules;
    const shownAt = deps.now().getTime();
    return { shownAt, ...(balance === undefined ? {} : { balance }), ...(sellRules ? { sellRules } : {}) };
  });
  const header = changes.length > 0 ? `${renderPriceChanges(t, changes)}\n\n` : '';
  const summary = fit(
    (compact) => header + renderPurchaseSummary(t, selection, prepared.balance, compact, prepared.sellRules, flow.downline),
  );
  const summaryKeyboard = createBuySummaryKeyboard(t, confirmationId);
  const messageId = (await ctx.reply(summary, { reply_markup: summaryKeyboard })).message_id;
  return { question: { text: summary, reply_markup: summaryKeyboard }, messageId, shownAt: prepared.shownAt };
}

/** Waits for ✅ Confirm (true) or ❌ Cancel (false, the user told) under the summary; a new quick-buy message or a command leaves. */
async function waitForConfirm(flow: BuyFlow, id: string, repeat: PendingQuestion, messageId: number, what: string): Promise<boolean> {
  const { ctx, t } = flow;
  const text = repeat.text;
  for (;;) {
    const got = await receive(flow, {
      confirmationId: id,
      repeat,
      text: false,
      hint: t('buy-use-buttons'),
      quickBuyLeaves: true,
      leave: () => closeSummaryOf(flow, messageId, text, t('buy-summary-abandoned')),
      leftWhat: what,
    });
    if (got.kind !== 'button') continue;
    if (got.action === 'no') {
      await quietly(got.ctx.answerCallbackQuery());
      await closeSummaryOf(flow, messageId, text, t('buy-summary-cancelled'));
      await ctx.reply(t('buy-cancelled'));
      return false;
    }
    if (got.action === 'ok') {
      // Not "confirmed" yet: that is said once the confirmation is on disk (step 5).
      await quietly(got.ctx.answerCallbackQuery({ text: t('buy-in-progress') }));
      await closeSummaryOf(flow, messageId, text, t('buy-summary-checking'));
      return true;
    }
    await quietly(got.ctx.answerCallbackQuery());
  }
}

/** Step 3: the same purchase under a minute ago? Asks "buy again?". Resolves with what closes summary and question, or undefined on no. */
export async function askRepeat(flow: BuyFlow, confirmed: ConfirmedSummary): Promise<CloseAll | undefined> {
  const { deps, userId, chatId, ctx, t } = flow;
  const { selection, confirmationId } = confirmed;
  const { items } = selection;
  const closeSummary = (line: string) => closeSummaryOf(flow, confirmed.messageId, confirmed.summary, line);
  const repeats = await flow.conversation.external(() =>
    deps.services.purchases.recentRepeats(
      userId,
      items.map(({ code, target }) => ({ code, target })),
      confirmationId,
    ),
  );
  if (repeats.length === 0) return closeSummary;
  const question = renderRepeatQuestion(t, items, repeats);
  const againKeyboard = createBuyAgainKeyboard(t, confirmationId);
  const asked = await ctx.reply(question, { reply_markup: againKeyboard });
  const closeQuestion = (line: string) => quietly(ctx.api.editMessageText(chatId, asked.message_id, `${question}\n\n${line}`));
  for (;;) {
    const got = await receive(flow, {
      confirmationId,
      repeat: { text: question, reply_markup: againKeyboard },
      text: false,
      hint: t('buy-answer-question'),
      leave: () => closeQuestion(t('buy-summary-abandoned')),
    });
    if (got.kind !== 'button') continue;
    if (got.action === 'no') {
      await quietly(got.ctx.answerCallbackQuery());
      await closeQuestion(t('buy-summary-cancelled'));
      await closeSummary(t('buy-summary-cancelled'));
      await ctx.reply(t('buy-cancelled'));
      return undefined;
    }
    if (got.action === 'again') {
      await quietly(got.ctx.answerCallbackQuery({ text: t('buy-in-progress') }));
      await closeQuestion(t('buy-summary-checking'));
      return async (line) => {
        await closeSummary(line);
        await closeQuestion(line);
      };
    }
    // A second tap on the summary's Confirm: the question above decides.
    await quietly(got.ctx.answerCallbackQuery({ text: t('buy-answer-question') }));
  }
}

/** Step 4: the PIN, when the user set one. False when the flow ends here (locked, cancelled). */
export async function checkPin(flow: BuyFlow, confirmationId: string, closeAll: CloseAll): Promise<boolean> {
  const { deps, userId, ctx, t } = flow;
  const pin = await flow.conversation.external(async () => ({
    required: await deps.services.pin.hasPin(userId),
    lockedUntil: (await deps.services.pin.lockedUntil(userId))?.toISOString(),
  }));
  if (pin.lockedUntil !== undefined) {
    await closeAll(t('buy-summary-not-bought'));
    await ctx.reply(t('buy-pin-locked', { until: formatWibIn(t, pin.lockedUntil) }));
    return false;
  }
  return pin.required ? askPin(flow, confirmationId, closeAll) : true;
}

/** Asks for the PIN until a right one (true), a cancel or a lock (false). */
async function askPin(flow: BuyFlow, confirmationId: string, closeAll: CloseAll): Promise<boolean> {
  const { chatId, ctx, t } = flow;
  const pinKeyboard = createBuyCancelKeyboard(t, confirmationId);
  const asked = await ctx.reply(t('buy-pin-ask'), { reply_markup: pinKeyboard });
  for (;;) {
    const got = await receive(flow, {
      confirmationId,
      repeat: { text: t('buy-pin-ask'), reply_markup: pinKeyboard },
      text: true,
      hint: t('buy-pin-ask'),
      leave: () => closeAll(t('buy-summary-abandoned')),
    });
    if (got.kind === 'button' && got.action === 'no') {
      await quietly(got.ctx.answerCallbackQuery());
      await quietly(ctx.api.editMessageReplyMarkup(chatId, asked.message_id));
      await closeAll(t('buy-summary-cancelled'));
      await ctx.reply(t('buy-cancelled'));
      return false;
    }
    if (got.kind === 'button') {
      await quietly(got.ctx.answerCallbackQuery({ text: t('buy-pin-first') }));
      continue;
    }
    // The PIN must not stay in the chat, whatever was typed.
    await quietly(got.ctx.deleteMessage());
    const entered = got.text.trim();
    if (!isValidPin(entered)) {
      await ctx.reply(t('buy-pin-format'));
      continue;
    }
    const check = await verifyPin(flow.conversation, flow.deps, flow.userId, entered);
    if (check.ok) return true;
    if ('until' in check) {
      await closeAll(t('buy-summary-not-bought'));
      await ctx.reply(t('buy-pin-locked', { until: formatWibIn(t, check.until) }));
      return false;
    }
    await ctx.reply(t('buy-pin-wrong', { left: check.left }));
  }
}
