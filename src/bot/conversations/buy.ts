import type { BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import type { BuyConversationArgs } from './ids.ts';
import { formatWibIn } from '../../text/format.ts';
import { createBuyAgainKeyboard, createBuyCancelKeyboard, createBuySummaryKeyboard } from '../keyboards/buy.ts';
import { createReceiptKeyboard, createResultsKeyboard } from '../keyboards/receipt.ts';
import { readBuyData, type BuyAction } from '../callback-data/buy.ts';
import { providerFailureOf, type ProviderErrorJson } from '../../services/providers.ts';
import { privateChatOf, waitForAnswer } from './ask.ts';
import { editOrReply, quietly } from '../edits.ts';
import { createBuyQuestions, repriceSelection, requestedLines, type PriceChangeLine, type PriceLookup } from './buy-questions.ts';
import { summaryPriceMaxAgeMs } from '../../services/catalogue.ts';
import { pickPurchase } from './buy-picker.ts';
import { confirmationIdOf, roundConfirmationId } from './buy-ids.ts';
import {
  explainProviderError,
  fit,
  nothingToBuyText,
  renderPurchaseResults,
  renderPriceChanges,
  renderPurchaseSummary,
  renderRepeatQuestion,
  resultKind,
  toPurchaseResult,
  type PurchaseResult,
} from '../renderers/purchase.ts';
import { isValidPin } from '../../services/pin.ts';
import { defaultClaimLeaseMs } from '../../store/claim-holder.ts';
import { maxQuickBuyLines, parseQuickBuy } from '../../services/targets.ts';

/** Provider calls in flight at once while a bulk purchase is sent. */
const submitConcurrency = 4;
/** The balance shown in the summary is skipped when the provider takes longer than this. */
const balanceDeadlineMs = 4_000;

type Received = { kind: 'text'; ctx: ConversationContext; text: string } | { kind: 'button'; ctx: ConversationContext; action: BuyAction };

/** Runs `task` over `items` with at most `limit` at once, keeping the order of the results. */
async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

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

/** A summary's lines in a few words ("TSEL10 → 081234567890", the first three of more, then "+N"). */
function describeLines(items: ReadonlyArray<{ code: string; target: string }>): string {
  const shown = items.slice(0, 3).map((item) => `${item.code} → ${item.target}`);
  return items.length > 3 ? `${shown.join(', ')} +${items.length - 3}` : shown.join(', ');
}

/**
 * Creates the buy conversation (`conversationIds.buy`), the one way anything is bought.
 *
 * Entered with `BuyConversationArgs`: no lines (`/beli`: the picker, `buy-picker.ts`: category,
 * brand, product by taps or a typed code, then the target), one code (the picker's target step), or one or more CODE.TARGET lines (quick-buy: straight
 * to the summary; lines with an unknown or unavailable code or a bad target are listed as skipped
 * and the others can still be bought — the batch is not refused as a whole).
 *
 * It waits for, in turn: the picker's taps and answers when the product or target is missing; a tap on ✅ Confirm /
 * ❌ Cancel under the summary (product, code, target, price, total and current balance) — at the tap
 * the prices are checked against a list fetched after the summary was shown, and a changed price
 * shows the summary again with the change and waits for a new tap; a
 * "Yes, buy again" tap when the same code and target were bought less than a minute ago (or twice
 * in one message); the PIN, when the user set one (its message is deleted right away). Any
 * command, another feature's button or a new CODE.TARGET message ends it (the command then runs).
 *
 * What it persists, through the conversation state (encrypted): the replies above and the results
 * of its `external` steps — the price-list lookup, and the confirmation id (derived from the
 * update that started the conversation, see `confirmationIdOf`), fixed together with the balance
 * BEFORE the summary is shown so that every replay and restart sees the same id. After the tap the
 * summary only says it is being checked; `purchases.confirm` (idempotent per confirmation id: ref
 * ids minted and stored as `Created` before any provider call) runs in one `external`, and only
 * once it resolved (on disk) does the summary say "confirmed"; then `purchases.submit` sends the
 * lines in another. A double tap, a re-sent callback, a replayed update or a restart never buys
 * twice; a replay that finds the confirmation already recorded says so above the result.
 *
 * It returns nothing; it ends after showing the result (Sukses with the SN, Gagal, Rejected with
 * the provider's reason, or Pending: "I will message you"), or after a cancel, a refusal or a lock.
 */
export function createBuyConversation(deps: BotDeps) {
  const publicIp = deps.settings.publicIp;

  return async function buyConversation(
    conversation: BotConversation,
    ctx: ConversationContext,
    args?: BuyConversationArgs,
  ): Promise<void> {
    const t = ctx.t;
    const chat = await privateChatOf(ctx);
    if (!chat) return;
    const { userId, chatId } = chat;

    /** Answers a buy button that belongs to another (older) summary. */
    const answerStaleButton = async (button: ConversationContext, id: string | undefined) => {
      const done =
        id === undefined ? false : await conversation.external(async () => (await deps.db.transactions.confirmation(id)) !== undefined);
      await quietly(button.answerCallbackQuery({ text: t(done ? 'buy-already-done' : 'buy-expired') }));
      await quietly(button.editMessageReplyMarkup());
    };

    /**
     * Waits for text (when `text`) or a tap on one of this summary's buttons (`confirmationId`). A
     * command, another feature's button or (when `quickBuyLeaves`) a new CODE.TARGET message ends
     * the conversation after `leave` and is passed on; an older summary's button is answered as
     * such, other content gets `hint`, and the wait goes on.
     */
    const receive = (options: {
      confirmationId?: string;
      repeat: PendingQuestion | undefined;
      text: boolean;
      hint: string;
      quickBuyLeaves?: boolean;
      leave?: () => Promise<void>;
      leftWhat?: string;
    }): Promise<Received> =>
      waitForAnswer(conversation, {
        ownsButton: (data) => readBuyData(data) !== undefined,
        repeat: options.repeat,
        alsoLeaves: options.quickBuyLeaves
          ? (next) => next.message?.text !== undefined && parseQuickBuy(next.message.text) !== undefined
          : undefined,
        accept: (next): Received | undefined => {
          const data = readBuyData(next.callbackQuery?.data);
          if (data) return data.id === options.confirmationId ? { kind: 'button', ctx: next, action: data.action } : undefined;
          const text = next.message?.text;
          return text !== undefined && options.text ? { kind: 'text', ctx: next, text } : undefined;
        },
        otherwise: (next) =>
          next.callbackQuery ? answerStaleButton(next, readBuyData(next.callbackQuery.data)?.id) : next.reply(options.hint),
        leave: options.leave,
        ...(options.leftWhat === undefined ? {} : { leftWhat: options.leftWhat }),
      });

    /**
     * Looks codes up in the user's price list: one no older than `summaryPriceMaxAgeMs` for a
     * summary, or one fetched at or after `since` (the instant a summary was shown) for its check.
     */
    const lookup = (codes: string[], since?: number) =>
      conversation.external(async (): Promise<PriceLookup> => {
        // Disconnected in the middle of the flow.
        if (!(await deps.services.credentials.has(userId, 'reseller'))) return { ok: false };
        try {
          const list = await deps.services.catalogue.priceList(
            userId,
            since === undefined ? { maxAgeMs: summaryPriceMaxAgeMs } : { since },
          );
          const products = codes.map((code) => {
            const found = list.find((p) => p.code.toUpperCase() === code.toUpperCase());
            return found ? { code: found.code, product_name: found.product_name, price: found.price, status: found.status } : null;
          });
          return { ok: true, products };
        } catch (error) {
          const failure = providerFailureOf(error);
          if (!failure) throw error;
          deps.logger.warn('price list unavailable for a purchase', { userId, error });
          return { ok: false, error: failure };
        }
      });

    const lookupFailed = async (error: ProviderErrorJson | undefined) => {
      if (error) await ctx.reply(explainProviderError(t, error, publicIp));
      else await ctx.reply(t('error-not-connected', { service: t('service-reseller') }));
    };
    const questions = createBuyQuestions({ lookup: (codes) => lookup(codes), lookupFailed });

    /** Edits a summary: its text, then a closing line (editing the text drops the keyboard). */
    const closeSummaryOf = (messageId: number, text: string, line: string) =>
      quietly(ctx.api.editMessageText(chatId, messageId, `${text}\n\n${line}`));

    /**
     * Waits for ✅ Confirm (true) or ❌ Cancel (false, the user told) under the summary
     * `messageId`; a new quick-buy message or a command ends the wait (false).
     */
    const waitForConfirm = async (id: string, repeat: PendingQuestion, messageId: number, text: string, what: string): Promise<boolean> => {
      for (;;) {
        const got = await receive({
          confirmationId: id,
          repeat,
          text: false,
          hint: t('buy-use-buttons'),
          quickBuyLeaves: true,
          leave: () => closeSummaryOf(messageId, text, t('buy-summary-abandoned')),
          leftWhat: what,
        });
        if (got.kind !== 'button') continue;
        if (got.action === 'no') {
          await quietly(got.ctx.answerCallbackQuery());
          await closeSummaryOf(messageId, text, t('buy-summary-cancelled'));
          await ctx.reply(t('buy-cancelled'));
          return false;
        }
        if (got.action === 'ok') {
          // Not "confirmed" yet: that is said once the confirmation is on disk (step 5).
          await quietly(got.ctx.answerCallbackQuery({ text: t('buy-in-progress') }));
          await closeSummaryOf(messageId, text, t('buy-summary-checking'));
          return true;
        }
        await quietly(got.ctx.answerCallbackQuery());
      }
    };

    // --- 0. May this user buy at all? -----------------------------------------------------
    const gate = await conversation.external(async () => ({
      connected: await deps.services.credentials.has(userId, 'reseller'),
      lockedUntil: (await deps.services.pin.lockedUntil(userId))?.toISOString(),
    }));
    if (!gate.connected) {
      await ctx.reply(t('error-not-connected', { service: t('service-reseller') }));
      return;
    }
    if (gate.lockedUntil !== undefined) {
      await ctx.reply(t('buy-pin-locked', { until: formatWibIn(t, gate.lockedUntil) }));
      return;
    }

    // --- 1. What to buy ---------------------------------------------------------------------
    const lines = requestedLines(args);
    const skipped = Array.isArray(args?.skipped) ? args.skipped : [];
    if (lines.length + skipped.length > maxQuickBuyLines) {
      await ctx.reply(t('buy-too-many-lines', { max: maxQuickBuyLines, count: lines.length + skipped.length }));
      return;
    }
    const [firstLine] = lines;
    const guided = lines.length === 0 || (lines.length === 1 && firstLine?.target === undefined && skipped.length === 0);
    let selection = guided
      ? await pickPurchase({ conversation, ctx, deps, userId, chatId, lookupFailed, resolveLines: questions.resolveLines }, firstLine?.code)
      : await questions.resolveLines(lines, skipped);
    if (!selection) return;
    if (selection.items.length === 0) {
      await ctx.reply(nothingToBuyText(t, selection.problems, args?.form === 'spaced' ? 'spaced' : 'dotted'));
      return;
    }
    // --- 2. Summary: the confirmation id is minted (and stored) before it is shown -------------
    // At the Confirm tap the prices are checked against a list fetched after the summary was shown:
    // a changed one shows the summary again (with a new confirmation id, so a second tap on the old
    // one cannot buy at a price the user did not see) and asks again.
    const baseConfirmationId = confirmationIdOf(ctx);
    let confirmationId = baseConfirmationId;
    let summary = '';
    let summaryMessageId = 0;
    let changes: PriceChangeLine[] = [];
    for (let round = 0; ; round++) {
      confirmationId = round === 0 ? baseConfirmationId : roundConfirmationId(baseConfirmationId, round);
      const prepared = await conversation.external(async () => {
        const client = await deps.services.credentials.client(userId, 'reseller');
        const balance = client ? await within(client.balance(), balanceDeadlineMs) : undefined;
        // Shown only: the sell price is fixed at the confirmation, by the rules in force then.
        const sellRules = (await deps.db.users.get(userId))?.sellRules;
        const shownAt = deps.now().getTime();
        return { shownAt, ...(balance === undefined ? {} : { balance }), ...(sellRules ? { sellRules } : {}) };
      });
      const shown = selection;
      const header = changes.length > 0 ? `${renderPriceChanges(t, changes)}\n\n` : '';
      summary = fit((compact) => header + renderPurchaseSummary(t, shown, prepared.balance, compact, prepared.sellRules));
      const summaryKeyboard = createBuySummaryKeyboard(t, confirmationId);
      summaryMessageId = (await ctx.reply(summary, { reply_markup: summaryKeyboard })).message_id;
      const confirmed = await waitForConfirm(
        confirmationId,
        { text: summary, reply_markup: summaryKeyboard },
        summaryMessageId,
        summary,
        describeLines(shown.items),
      );
      if (!confirmed) return;
      const check = await lookup(
        shown.items.map((item) => item.code),
        prepared.shownAt,
      );
      if (!check.ok) {
        await closeSummaryOf(summaryMessageId, summary, t('buy-summary-not-bought'));
        await lookupFailed(check.error);
        return;
      }
      const repriced = repriceSelection(shown, check.products);
      if (repriced.changes.length === 0 && repriced.gone.length === 0) break;
      await closeSummaryOf(summaryMessageId, summary, t('buy-summary-price-changed'));
      if (repriced.selection.items.length === 0) {
        await ctx.reply(nothingToBuyText(t, repriced.selection.problems, args?.form === 'spaced' ? 'spaced' : 'dotted'));
        return;
      }
      selection = repriced.selection;
      changes = repriced.changes;
    }
    const { items } = selection;
    const finalSummary = summary;
    const finalMessageId = summaryMessageId;
    /** Replaces the summary's buttons by a closing line (editing the text drops the keyboard). */
    const closeSummary = (line: string) => closeSummaryOf(finalMessageId, finalSummary, line);

    /** Closes the summary and the repeat question (if any) with the same line. */
    const closeBoth = async (line: string) => {
      await closeSummary(line);
      await closeQuestion?.(line);
    };
    /** Closes the repeat question, when one was asked. */
    let closeQuestion: ((line: string) => Promise<void>) | undefined;

    // --- 3. The same purchase less than a minute ago? ------------------------------------------
    const repeats = await conversation.external(() =>
      deps.services.purchases.recentRepeats(
        userId,
        items.map(({ code, target }) => ({ code, target })),
        confirmationId,
      ),
    );
    if (repeats.length > 0) {
      const question = renderRepeatQuestion(t, items, repeats);
      const againKeyboard = createBuyAgainKeyboard(t, confirmationId);
      const asked = await ctx.reply(question, { reply_markup: againKeyboard });
      const closeThisQuestion = (line: string) => quietly(ctx.api.editMessageText(chatId, asked.message_id, `${question}\n\n${line}`));
      closeQuestion = closeThisQuestion;
      for (;;) {
        const got = await receive({
          confirmationId,
          repeat: { text: question, reply_markup: againKeyboard },
          text: false,
          hint: t('buy-answer-question'),
          leave: () => closeThisQuestion(t('buy-summary-abandoned')),
        });
        if (got.kind !== 'button') continue;
        if (got.action === 'no') {
          await quietly(got.ctx.answerCallbackQuery());
          await closeThisQuestion(t('buy-summary-cancelled'));
          await closeSummary(t('buy-summary-cancelled'));
          await ctx.reply(t('buy-cancelled'));
          return;
        }
        if (got.action === 'again') {
          await quietly(got.ctx.answerCallbackQuery({ text: t('buy-in-progress') }));
          await closeThisQuestion(t('buy-summary-checking'));
          break;
        }
        // A second tap on the summary's Confirm: the question above decides.
        await quietly(got.ctx.answerCallbackQuery({ text: t('buy-answer-question') }));
      }
    }

    // --- 4. PIN ----------------------------------------------------------------------------
    const pin = await conversation.external(async () => ({
      required: await deps.services.pin.hasPin(userId),
      lockedUntil: (await deps.services.pin.lockedUntil(userId))?.toISOString(),
    }));
    if (pin.lockedUntil !== undefined) {
      await closeBoth(t('buy-summary-not-bought'));
      await ctx.reply(t('buy-pin-locked', { until: formatWibIn(t, pin.lockedUntil) }));
      return;
    }
    if (pin.required) {
      const pinKeyboard = createBuyCancelKeyboard(t, confirmationId);
      const asked = await ctx.reply(t('buy-pin-ask'), { reply_markup: pinKeyboard });
      for (;;) {
        const got = await receive({
          confirmationId,
          repeat: { text: t('buy-pin-ask'), reply_markup: pinKeyboard },
          text: true,
          hint: t('buy-pin-ask'),
          leave: () => closeBoth(t('buy-summary-abandoned')),
        });
        if (got.kind === 'button' && got.action === 'no') {
          await quietly(got.ctx.answerCallbackQuery());
          await quietly(ctx.api.editMessageReplyMarkup(chatId, asked.message_id));
          await closeBoth(t('buy-summary-cancelled'));
          await ctx.reply(t('buy-cancelled'));
          return;
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
        const check = await conversation.external(async (): Promise<{ ok: true } | { ok: false; left?: number; until?: string }> => {
          const result = await deps.services.pin.verify(userId, entered);
          if (result.ok) return { ok: true };
          return result.locked ? { ok: false, until: result.until.toISOString() } : { ok: false, left: result.attemptsLeft };
        });
        if (check.ok) break;
        if (check.until !== undefined) {
          await closeBoth(t('buy-summary-not-bought'));
          await ctx.reply(t('buy-pin-locked', { until: formatWibIn(t, check.until) }));
          return;
        }
        await ctx.reply(t('buy-pin-wrong', { left: check.left ?? 0 }));
      }
    }

    // --- 5. Buy: ref ids stored first ("confirmed" only once that is on disk), then sent --------
    const recorded = await conversation.external(async (): Promise<{ ok: false } | { ok: true; again: boolean; refIds: string[] }> => {
      // Already recorded before this run: a crash interrupted this update after the write, and it is replayed.
      const again = (await deps.db.transactions.confirmation(confirmationId)) !== undefined;
      try {
        const transactions = await deps.services.purchases.confirm({
          confirmationId,
          userId,
          chatId,
          lines: items.map((item) => ({ code: item.code, productName: item.productName, target: item.target, price: item.price })),
          holdMs: deps.settings.claimLeaseMs ?? defaultClaimLeaseMs,
        });
        return { ok: true, again, refIds: transactions.map((tx) => tx.refId) };
      } catch (error) {
        deps.logger.error('purchase could not be recorded; nothing was sent', { userId, error });
        return { ok: false };
      }
    });
    if (!recorded.ok) {
      await closeBoth(t('buy-summary-not-bought'));
      await ctx.reply(t('buy-not-recorded'));
      return;
    }
    await closeBoth(t('buy-summary-confirmed'));
    const processing = await ctx.reply(t(recorded.again ? 'buy-processing-again' : 'buy-processing'));
    const outcome = await conversation.external(async (): Promise<{ results: PurchaseResult[] }> => {
      const results = await mapLimit(recorded.refIds, submitConcurrency, async (refId) => {
        try {
          // Sending again is safe: the provider answers a repeated ref id with its status; a settled one is not sent.
          return toPurchaseResult(await deps.services.purchases.submit(refId));
        } catch (error) {
          // Stored before sending: the watcher sends it (same ref id) once the hold is over.
          deps.logger.error('purchase not sent for now; it stays open', { refId, error });
          const tx = (await deps.db.transactions.get(refId)) ?? (await deps.db.transactions.find(refId));
          if (!tx) throw error;
          return toPurchaseResult({ ...tx, status: 'Pending' });
        }
      });
      return { results };
    });
    const text = fit((compact) => renderPurchaseResults(t, outcome.results, publicIp, compact));
    // A single purchase that is already final is its receipt: it gets the receipt's buttons (Beli lagi,
    // Salin SN); a multi-line one gets copy and customer-receipt buttons per Sukses line.
    const [only] = outcome.results;
    const buttons = outcome.results.length === 1 && only ? createReceiptKeyboard(t, only) : createResultsKeyboard(t, outcome.results);
    const resultMessageId = await editOrReply(ctx, processing.message_id, text, buttons ? { reply_markup: buttons } : {});

    // Pending lines: the message showing them is edited when they settle (a single purchase's into
    // its receipt, a multi-line purchase's line by line), so its id is stored with each of them.
    const open = outcome.results.filter((result) => resultKind(result.status) === 'pending');
    if (open.length > 0) {
      const shown = { chatId, messageId: resultMessageId };
      await conversation.external(() =>
        deps.services.purchases.showResultIn(
          open.map((result) => result.refId),
          shown,
          outcome.results.length === 1 ? 'single' : 'lines',
        ),
      );
    }
  };
}
