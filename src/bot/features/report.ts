import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { reportPeriodData, summaryData } from '../callback-data/report.ts';
import { readTap } from '../guards.ts';
import { periodKeyboard } from '../keyboards/periods.ts';
import { renderReportMessage } from '../renderers/report-message.ts';
import { createReportKeyboard } from '../keyboards/report.ts';
import { periodOf, periodRange, typedRange, type DayRange } from '../../services/export-periods.ts';
import { loadPeriodReport } from '../../services/period-report.ts';
import { FastComposer } from '../composer.ts';

/**
 * /report (/laporan): the figures of the sender's own transactions of a period, as a message.
 * Without arguments it offers the periods of /export as buttons; `/laporan FROM TO` reports a
 * typed range of WIB days. Private chats only.
 */
export const reportFeature = new FastComposer<BotContext>();
const privateChat = reportFeature.chatType('private');

privateChat.command(commandNames('report'), async (ctx) => {
  const args = ctx.match.trim().split(/\s+/).filter(Boolean);
  if (args.length === 0) {
    const keyboard = periodKeyboard(ctx.t, (period) => reportPeriodData.pack({ period }))
      .row()
      .text(ctx.t('summary-open-button'), summaryData.pack({ hour: 'menu' }));
    await ctx.reply(ctx.t('report-menu'), { reply_markup: keyboard });
    return;
  }
  const range = args.length === 2 ? typedRange(args[0] ?? '', args[1] ?? '') : ({ error: 'format' } as const);
  if ('error' in range) {
    await ctx.reply(ctx.t(range.error === 'order' ? 'report-bad-order' : 'report-bad-date'));
    return;
  }
  await sendReport(ctx, ctx.from.id, range);
});

reportFeature.callbackQuery(reportPeriodData.filter(), async (ctx) => {
  const period = await readTap(ctx, reportPeriodData, ({ period }) => periodOf(period), { privateOnly: true });
  if (period === undefined) return;
  await ctx.answerCallbackQuery();
  await sendReport(ctx, ctx.from.id, periodRange(period, ctx.deps.now()));
});

/** Sends the report of the user's transactions and balances in `range`, or says there are no transactions. */
async function sendReport(ctx: BotContext, userId: number, range: DayRange): Promise<void> {
  const period = await loadPeriodReport(ctx.deps.db, userId, range);
  const keyboard = period.txs.length > 0 ? createReportKeyboard(ctx.t, period.days) : undefined;
  await ctx.reply(renderReportMessage(ctx.t, period), keyboard ? { reply_markup: keyboard } : {});
}
