import type { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BotContext, BotDeps } from '../context.ts';
import { commandNames } from '../commands.ts';
import { editInPlace } from '../edits.ts';
import { readTap } from '../guards.ts';
import { formatRupiah, formatWibIn } from '../../text/format.ts';
import { formatReceipt, statusIcon, statusWord } from '../../text/receipt.ts';
import { historyDetailData, historyPageData } from '../callback-data/history.ts';
import { createHistoryKeyboard, createHistoryReceiptKeyboard } from '../keyboards/history.ts';
import { sellFigures } from '../renderers/sell.ts';
import { raw, type Raw } from '../../text/html.ts';
import type { TransactionRecord } from '../../store/records/transactions.ts';
import { FastComposer } from '../composer.ts';

/** Transactions per history page. */
export const historyPageSize = 5;
/** Pages beyond this are not offered (each page reads as many history months as it needs). */
const maxPage = 1000;

/**
 * /history (/riwayat): the sender's transactions, newest first, five per page; paging edits the
 * same message. Each transaction opens its receipt in place (SN as `<code>` and a copy button),
 * with a button back to its page. Only the sender's own transactions are ever read.
 */
export const historyFeature = new FastComposer<BotContext>();
const privateChat = historyFeature.chatType('private');

privateChat.command(commandNames('history'), async (ctx) => {
  const { text, keyboard } = await renderHistoryPage(ctx.t, ctx.deps, ctx.from.id, 0);
  await ctx.reply(text, { reply_markup: keyboard });
});

historyFeature.callbackQuery(historyPageData.filter(), async (ctx) => {
  const page = await readTap(ctx, historyPageData, ({ page }) => pageOf(page));
  if (page === undefined) return;
  await ctx.answerCallbackQuery();
  const { text, keyboard } = await renderHistoryPage(ctx.t, ctx.deps, ctx.from.id, page);
  await editInPlace(ctx, text, keyboard);
});

historyFeature.callbackQuery(historyDetailData.filter(), async (ctx) => {
  const data = await readTap(ctx, historyDetailData, ({ page, ref }) =>
    pageOf(page) === undefined || ref === '' || ref.length > 100 ? undefined : { page, ref },
  );
  if (!data) return;
  const tx = await ctx.deps.db.transactions.findForUser(ctx.from.id, data.ref);
  if (!tx) {
    await ctx.answerCallbackQuery({ text: ctx.t('history-not-found'), show_alert: true });
    return;
  }
  await ctx.answerCallbackQuery();
  await editInPlace(ctx, formatReceipt(ctx.t, tx), createHistoryReceiptKeyboard(ctx.t, tx, data.page));
});

function pageOf(page: number): number | undefined {
  return Number.isSafeInteger(page) && page >= 0 && page <= maxPage ? page : undefined;
}

/**
 * A page of the user's history as text and buttons. A page past the end (the history is read
 * afresh on every tap) falls back to the first page.
 */
async function renderHistoryPage(
  t: TranslateFunction,
  deps: BotDeps,
  userId: number,
  page: number,
): Promise<{ text: string; keyboard?: InlineKeyboard }> {
  let current = page;
  let rows = await deps.db.transactions.listByUser(userId, { offset: current * historyPageSize, limit: historyPageSize + 1 });
  if (rows.length === 0 && current > 0) {
    current = 0;
    rows = await deps.db.transactions.listByUser(userId, { offset: 0, limit: historyPageSize + 1 });
  }
  if (rows.length === 0) return { text: t('history-empty') };
  const shown = rows.slice(0, historyPageSize);
  const firstNumber = current * historyPageSize + 1;
  const entries = shown.map((tx, index) =>
    t('history-line', {
      n: firstNumber + index,
      icon: statusIcon(tx),
      product: tx.productName,
      target: tx.target,
      price: storedPrice(t, tx),
      status: statusWord(t, tx),
      time: formatWibIn(t, tx.createdAt),
    }),
  );
  const text = [t('history-title', { page: current + 1 }), '', entries.join('\n\n'), '', t('history-footer')].join('\n');
  const keyboard = createHistoryKeyboard(t, shown, {
    page: current,
    firstNumber,
    hasNext: rows.length > historyPageSize && current < maxPage,
  });
  return { text, keyboard };
}

/** The cost, or `cost → sell (margin)` when the purchase was confirmed with a sell price above or below it. */
function storedPrice(t: TranslateFunction, tx: TransactionRecord): string | Raw {
  if (tx.sellPrice === undefined || tx.sellPrice === tx.price) return formatRupiah(tx.price);
  return raw(sellFigures(t, { cost: tx.price, sell: tx.sellPrice, margin: tx.margin ?? tx.sellPrice - tx.price }));
}
