import { InlineKeyboard } from 'grammy';
import type { BotContext } from '../context.ts';
import { conversationIds, enterFlow, type BuyArgs } from '../conversations/ids.ts';
import { buyAgainCancelData, buyAgainData, buyAgainTargetData } from '../callback-data/receipt.ts';
import { packIfFits, readCallback } from '../callback-data/read.ts';
import { quietly } from '../edits.ts';
import { raw } from '../../text/html.ts';
import { escapeHtml } from '../../text/format.ts';
import type { TransactionRecord } from '../../store/records/transactions.ts';
import { FastComposer } from '../composer.ts';

/**
 * 🔁 Beli lagi under a Sukses receipt (the settled "in process" message, /cek, /riwayat): asks
 * whether to buy the same product for the same target (a button showing it) or another one, then
 * starts the buy conversation the way a product tap in the price list does: with the target, it
 * goes straight to the summary (Confirm / Cancel); without, the conversation asks for it. Only
 * the user's own transactions are read; nothing is bought before the summary is confirmed.
 */
export const buyAgainFeature = new FastComposer<BotContext>();
const privateChat = buyAgainFeature.chatType('private');

/**
 * The user's own transaction named by a receipt button, or undefined after answering the tap with
 * `gone` (an alert): an unknown or forged ref, or another user's transaction.
 */
export async function tappedTransaction(
  ctx: BotContext & { from: { id: number } },
  unpack: () => { ref: string },
  gone = 'receipt-again-gone',
): Promise<TransactionRecord | undefined> {
  const ref = readCallback(() => unpack().ref) ?? '';
  const tx = ref === '' || ref.length > 100 ? undefined : await ctx.deps.db.transactions.findForUser(ctx.from.id, ref);
  if (!tx) await ctx.answerCallbackQuery({ text: ctx.t(gone), show_alert: true });
  return tx;
}

privateChat.callbackQuery(buyAgainData.filter(), async (ctx) => {
  const tx = await tappedTransaction(ctx, () => buyAgainData.unpack(ctx.callbackQuery.data));
  if (!tx) return;
  await ctx.answerCallbackQuery();
  const same = packIfFits(() => buyAgainTargetData.pack({ ref: tx.refId, same: true }));
  const other = packIfFits(() => buyAgainTargetData.pack({ ref: tx.refId, same: false }));
  const keyboard = new InlineKeyboard();
  if (same) keyboard.text(ctx.t('receipt-again-same', { target: raw(tx.target) }), same).row();
  if (other) keyboard.text(ctx.t('receipt-again-other'), other);
  const cancel = packIfFits(() => buyAgainCancelData.pack({ ref: tx.refId }));
  if (cancel) keyboard.text(ctx.t('button-cancel'), cancel);
  await ctx.reply(ctx.t('receipt-again-question', { product: tx.productName, code: tx.code }), { reply_markup: keyboard });
});

// ❌ Batal: the question closes with a line saying so; nothing was started, so nothing else to undo.
privateChat.callbackQuery(buyAgainCancelData.filter(), async (ctx) => {
  await quietly(ctx.answerCallbackQuery());
  const text = ctx.callbackQuery.message?.text;
  if (text === undefined) await quietly(ctx.editMessageReplyMarkup());
  else await quietly(ctx.editMessageText(`${escapeHtml(text)}\n\n${ctx.t('receipt-again-cancelled')}`));
});

privateChat.callbackQuery(buyAgainTargetData.filter(), async (ctx) => {
  let same = false;
  const tx = await tappedTransaction(ctx, () => {
    const data = buyAgainTargetData.unpack(ctx.callbackQuery.data);
    same = data.same;
    return data;
  });
  if (!tx) return;
  await ctx.answerCallbackQuery();
  const args: BuyArgs = { lines: [same ? { code: tx.code, target: tx.target } : { code: tx.code }] };
  // Like a product tap in the price list: a flow left half-way gives way to this purchase.
  await enterFlow(ctx, conversationIds.buy, args);
});
