import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';
import type { BuyConversationArgs } from './ids.ts';
import { createReceiptKeyboard, createResultsKeyboard } from '../keyboards/receipt.ts';
import { privateChatOf } from './ask.ts';
import { editOrReply } from '../edits.ts';
import { fit, renderPurchaseResults, resultKind, toPurchaseResult, type PurchaseResult } from '../renderers/purchase.ts';
import type { BuyFlow } from './buy-flow.ts';
import { PurchaseRefusedError, type PurchaseRefusal } from '../../services/purchases.ts';
import { formatRupiah } from '../../text/format.ts';
import { createDepositKeyboard } from '../keyboards/wallet.ts';
import { renderSpendRefusal } from '../renderers/downlines.ts';
import { askRepeat, checkPin, chooseSelection, confirmSummary, mayBuy, type CloseAll, type ConfirmedSummary } from './buy-steps.ts';

/** Provider calls in flight at once while a bulk purchase is sent. */
const submitConcurrency = 4;

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

/**
 * Creates the buy conversation, the one way anything is bought: no lines or one code go to the
 * picker, CODE.TARGET lines (quick-buy) straight to the summary (unusable lines listed as skipped).
 * Then ✅ Confirm under the summary, "buy again?" for the same purchase under a minute ago, and the
 * PIN when set (deleted at once). A command, another feature's button or a new CODE.TARGET message
 * ends it. The confirmation id is fixed BEFORE the summary is shown; after the tap
 * `purchases.confirm` (idempotent per id, ref ids stored before any provider call) runs in one
 * `external`, and only once that is on disk does the summary say "confirmed"; `purchases.submit`
 * sends in another. Double taps, replays and restarts never buy twice.
 */
export function createBuyConversation(deps: BotDeps) {
  return async function buyConversation(
    conversation: BotConversation,
    ctx: ConversationContext,
    args?: BuyConversationArgs,
  ): Promise<void> {
    const chat = await privateChatOf(ctx);
    if (!chat) return;
    const flow: BuyFlow = { deps, conversation, ctx, t: ctx.t, ...chat };
    if (!(await mayBuy(flow))) return;
    const form = args?.form === 'spaced' ? 'spaced' : 'dotted';
    const selection = await chooseSelection(flow, args, form);
    if (!selection) return;
    const confirmed = await confirmSummary(flow, selection, form);
    if (!confirmed) return;
    const closeAll = await askRepeat(flow, confirmed);
    if (!closeAll) return;
    if (!(await checkPin(flow, confirmed.confirmationId, closeAll))) return;
    await buy(flow, confirmed, closeAll);
  };
}

/** Step 5. Buy: ref ids stored first ("confirmed" only once that is on disk), then sent, then the result shown. */
async function buy(flow: BuyFlow, confirmed: ConfirmedSummary, closeAll: CloseAll): Promise<void> {
  const { ctx, t } = flow;
  const recorded = await recordPurchase(flow, confirmed);
  if (!recorded.ok) {
    await closeAll(t('buy-summary-not-bought'));
    await replyRefused(flow, recorded.refusal);
    return;
  }
  await closeAll(t('buy-summary-confirmed'));
  const processing = await ctx.reply(t(recorded.again ? 'buy-processing-again' : 'buy-processing'));
  const outcome = await sendPurchase(flow, recorded.refIds);
  await showResults(flow, processing.message_id, outcome.results);
}

/** Tells the user why nothing was bought: a refusal of the purchase service, or (none) a failed write. */
async function replyRefused(flow: BuyFlow, refusal: PurchaseRefusal | undefined): Promise<void> {
  const { ctx, t } = flow;
  if (!refusal) await ctx.reply(t('buy-not-recorded'));
  else if (refusal.reason === 'wallet-short') {
    await ctx.reply(t('buy-wallet-short', { balance: formatRupiah(refusal.balance), short: formatRupiah(refusal.shortBy) }), {
      reply_markup: createDepositKeyboard(t),
    });
  } else if (refusal.reason === 'over-limit') {
    await ctx.reply(renderSpendRefusal(t, { fits: false, spent: 0, limit: refusal.limit, left: refusal.left }));
  } else await ctx.reply(t(`buy-downline-${refusal.reason}`));
}

/** Records the confirmation (idempotent per confirmation id) in one `external` step. */
function recordPurchase(flow: BuyFlow, confirmed: ConfirmedSummary) {
  const { deps, userId, chatId } = flow;
  const { confirmationId, selection } = confirmed;
  type Recorded = { ok: false; refusal?: PurchaseRefusal } | { ok: true; again: boolean; refIds: string[] };
  return flow.conversation.external(async (): Promise<Recorded> => {
    // Already recorded before this run: a crash interrupted this update after the write, and it is replayed.
    const again = (await deps.db.transactions.confirmation(confirmationId)) !== undefined;
    try {
      const transactions = await deps.services.purchases.confirm({
        confirmationId,
        userId,
        chatId,
        lines: selection.items.map((item) => ({ code: item.code, productName: item.productName, target: item.target, price: item.price })),
        holdMs: deps.settings.claims.leaseMs,
      });
      return { ok: true, again, refIds: transactions.map((tx) => tx.refId) };
    } catch (error) {
      if (error instanceof PurchaseRefusedError) return { ok: false, refusal: error.refusal };
      deps.logger.error('purchase could not be recorded; nothing was sent', { userId, error });
      return { ok: false };
    }
  });
}

/** Sends the recorded lines to the provider in one `external` step; a line not sent stays open (Pending). */
function sendPurchase(flow: BuyFlow, refIds: string[]) {
  const { deps } = flow;
  return flow.conversation.external(async (): Promise<{ results: PurchaseResult[] }> => {
    const results = await mapLimit(refIds, submitConcurrency, async (refId) => {
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
}

/** Shows the results in place of the "processing" message, and has pending lines edit it when they settle. */
async function showResults(flow: BuyFlow, processingId: number, results: PurchaseResult[]): Promise<void> {
  const { deps, ctx, t, chatId } = flow;
  const text = fit((compact) => renderPurchaseResults(t, results, deps.settings.publicIp, compact));
  // A single purchase that is already final is its receipt: it gets the receipt's buttons (Beli lagi,
  // Salin SN); a multi-line one gets copy and customer-receipt buttons per Sukses line.
  const [only] = results;
  const buttons = results.length === 1 && only ? createReceiptKeyboard(t, only) : createResultsKeyboard(t, results);
  const resultMessageId = await editOrReply(ctx, processingId, text, buttons ? { reply_markup: buttons } : {});

  // Pending lines: the message showing them is edited when they settle (a single purchase's into
  // its receipt, a multi-line purchase's line by line), so its id is stored with each of them.
  const open = results.filter((result) => resultKind(result.status) === 'pending');
  if (open.length > 0) {
    const shown = { chatId, messageId: resultMessageId };
    await flow.conversation.external(() =>
      deps.services.purchases.showResultIn(
        open.map((result) => result.refId),
        shown,
        results.length === 1 ? 'single' : 'lines',
      ),
    );
  }
}
