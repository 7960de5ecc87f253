import { InputFile } from 'grammy';
import type { BotContext } from '../context.ts';
import { customerReceiptData } from '../callback-data/receipt.ts';
import { tappedTransaction } from './buy-again.ts';
import { buildCustomerReceipt, formatCustomerReceipt } from '../../text/customer-receipt.ts';
import { renderReceiptCard } from '../../render/receipt-card.ts';
import { FastComposer } from '../composer.ts';

/**
 * 🧾 Struk pelanggan under a Sukses receipt (purchase result, settlement notice, /cek, /riwayat):
 * sends the receipt for the reseller's customer twice, as a text message ready to forward and as
 * a PNG card, both from one model (shop profile of /toko, sell price, never the cost), in the
 * user's language; without a shop profile, a hint to set one follows. Only the owner of the
 * transaction gets it; another user's or an unknown ref gets an alert, and so does a tap in a group.
 */
export const customerReceiptFeature = new FastComposer<BotContext>();

customerReceiptFeature.callbackQuery(customerReceiptData.filter(), async (ctx) => {
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
