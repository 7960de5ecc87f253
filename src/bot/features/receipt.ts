import { InlineKeyboard, InputFile } from 'grammy';
import type { BotContext } from '../context.ts';
import { conversationIds, enterFlow, type BuyArgs } from '../conversations/ids.ts';
import { buyAgainCancelData, buyAgainData, buyAgainTargetData, customerReceiptData } from '../callback-data/receipt.ts';
import { packIfFits, readCallback } from '../callback-data/read.ts';
import { quietly } from '../edits.ts';
import { raw } from '../../text/html.ts';
import { escapeHtml } from '../../text/format.ts';
import { buildCustomerReceipt, formatCustomerReceipt } from '../../text/customer-receipt.ts';
import { renderReceiptCard } from '../../render/receipt-card.ts';
import type { TransactionRecord } from '../../store/records/transactions.ts';
import { FastComposer } from '../composer.ts';

/**
 * The buttons under a Sukses receipt (purchase result, settlement notice, /cek, /riwayat).
 *
 * 🔁 Beli lagi asks whether to buy the same product for the same target or another one, then
 * starts the buy conversation as a price-list tap does (with the target, straight to the summary).
 * Only the user's own transactions are read; nothing is bought before the summary is confirmed.
 */
export const receiptFeature = new FastComposer<BotContext>();
const privateChat = receiptFeature.chatType('private');

/**
 * The user's own transaction named by a receipt button, or undefined after answering the tap with
 * `gone` (an alert): an unknown or forged ref, or another user's transaction.
 */
async function tappedTransaction(
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

/**
 * 🧾 Struk pelanggan: the receipt for the reseller's customer, as a text message ready to forward
 * and as a PNG card, both from one model (shop profile of /toko, sell price, never the cost);
 * without a shop profile, a hint to set one follows. Only the owner gets it, in a private chat.
 */
receiptFeature.callbackQuery(customerReceiptData.filter(), async (ctx) => {
  const tx = await tappedTransaction(ctx, () => customerReceiptData.unpack(ctx.callbackQuery.data), 'customer-receipt-gone');
  if (!tx) return;
  if (tx.status !== 'Sukses' || ctx.chat?.type !== 'private') {
    const reason = tx.status !== 'Sukses' ? 'customer-receipt-not-success' : 'error-private-only';
    await ctx.answerCallbackQuery({ text: ctx.t(reason), show_alert: true });
    return;
  }
  await ctx.answerCallbackQuery();
  const shop = ctx.account?.shop;
  const model = buildCustomerReceipt(ctx.t, tx, shop);
  await ctx.reply(formatCustomerReceipt(model));
  let card: Buffer | undefined;
  try {
    card = await renderReceiptCard(model);
  } catch (error) {
    ctx.deps.logger.error('could not draw a customer receipt card', { refId: tx.refId, error });
  }
  if (card) await ctx.replyWithPhoto(new InputFile(card, `struk-${tx.refId}.png`));
  else await ctx.reply(ctx.t('customer-receipt-image-failed'));
  if (!shop) await ctx.reply(ctx.t('customer-receipt-hint'));
});
