import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { canTrade, requireTrading } from '../guards.ts';
import { conversationIds, enterFlow } from '../conversations/ids.ts';
import type { BuyConversationArgs } from '../conversations/ids.ts';
import { nothingToBuyText } from '../renderers/purchase.ts';
import { buyData, readBuyData } from '../callback-data/buy.ts';
import { quietly } from '../edits.ts';
import { maxQuickBuyLines, parseBuyCommand, parseQuickBuy, type QuickBuyParse } from '../../services/targets.ts';
import { FastComposer } from '../composer.ts';

/**
 * The entry points of the buy conversation: `/buy` (`/beli`) with what was typed (the flow asks
 * for the rest), and quick-buy: a private message of CODE.TARGET lines (up to 20). Buttons of a
 * summary whose conversation is over are answered here and never buy. Mounted last before the
 * fallback, so only text nobody else wanted is read as quick-buy.
 */
export const buyFeature = new FastComposer<BotContext>();
const privateChat = buyFeature.chatType('private');

/** Checks the request, then enters the buy conversation with it. */
async function startBuying(ctx: BotContext, parsed: QuickBuyParse): Promise<void> {
  if (parsed.count > maxQuickBuyLines) {
    await ctx.reply(ctx.t('buy-too-many-lines', { max: maxQuickBuyLines, count: parsed.count }));
    return;
  }
  if (parsed.lines.length === 0 && parsed.problems.length > 0) {
    const problems = parsed.problems.map((p) => ({ type: 'format' as const, line: p.line, text: p.text }));
    await ctx.reply(nothingToBuyText(ctx.t, problems));
    return;
  }
  // Hints follow the form the user typed: `CODE TARGET` only when every line was written so.
  const spaced = parsed.lines.some((line) => line.target !== undefined) && parsed.lines.every((line) => line.spaced === true);
  const args: BuyConversationArgs = { lines: parsed.lines, skipped: parsed.problems, form: spaced ? 'spaced' : 'dotted' };
  await enterFlow(ctx, conversationIds.buy, args);
}

privateChat.command(commandNames('buy'), canTrade, async (ctx) => {
  await startBuying(ctx, parseBuyCommand(ctx.match));
});

privateChat.on('message:text', async (ctx, next) => {
  const parsed = parseQuickBuy(ctx.message.text);
  if (!parsed) return next();
  if (!(await requireTrading(ctx, ctx.deps))) return;
  await startBuying(ctx, parsed);
});

buyFeature.callbackQuery(buyData.filter(), async (ctx) => {
  const data = readBuyData(ctx.callbackQuery.data);
  const refIds = data ? await ctx.deps.db.transactions.confirmation(data.id) : undefined;
  let done = false;
  if (refIds && data?.action !== 'no') {
    const mine = await Promise.all(refIds.map((refId) => ctx.deps.db.transactions.findForUser(ctx.from.id, refId)));
    done = mine.some((tx) => tx !== undefined);
  }
  await quietly(ctx.answerCallbackQuery({ text: ctx.t(done ? 'buy-already-done' : 'buy-expired') }));
  // The buttons of a summary that is over should not invite another tap.
  await quietly(ctx.editMessageReplyMarkup());
});
