import { InputFile } from 'grammy';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { reportChartData, reportPeriodData, summaryData } from '../callback-data/report.ts';
import { readTap } from '../guards.ts';
import { editInPlace, quietly } from '../edits.ts';
import { localeOf } from '../i18n.ts';
import { createReportKeyboard, createSummaryKeyboard, hourLabel, periodKeyboard } from '../keyboards/report.ts';
import { renderReportMessage } from '../renderers/report-message.ts';
import { dayRange, parseDay, periodOf, periodRange, typedRange, type DayRange } from '../../services/export-periods.ts';
import { loadPeriodReport } from '../../services/period-report.ts';
import { setSummaryHour } from '../../services/daily-summary.ts';
import { dailySeries, hasChart } from '../../services/daily-series.ts';
import { renderDailyChart } from '../../render/chart.ts';
import { formatRupiah } from '../../text/format.ts';
import { FastComposer } from '../composer.ts';
import { showChatAction } from '../middlewares/crowd.ts';

/**
 * /report (/laporan): the figures of the sender's own transactions of a period, as a message.
 * Without arguments it offers the periods of /export as buttons; `/laporan FROM TO` reports a
 * typed range of WIB days. Its 📈 button (also under the daily summary) sends the chart of the
 * days, rendered only when asked (the outbox sends no uploads). /summary (/ringkasan), also the
 * menu's 🗓 button: the opt-in daily summary of yesterday, sent at a WIB hour the user picks.
 * Private chats only.
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

/** The menu text: what the summary is and whether it is on. */
function summaryMenu(ctx: BotContext, hour: number | undefined): string {
  const status = hour === undefined ? ctx.t('summary-status-off') : ctx.t('summary-status-on', { hour: hourLabel(hour) });
  return `${ctx.t('summary-menu')}\n\n${status}`;
}

/** What a summary button asks for: the menu, off, or a WIB hour. */
function summaryChoice({ hour }: { hour: string }): 'menu' | 'off' | number | undefined {
  if (hour === 'menu' || hour === 'off') return hour;
  const number = Number(hour);
  return /^\d{1,2}$/.test(hour) && number <= 23 ? number : undefined;
}

privateChat.command(commandNames('summary'), async (ctx) => {
  const hour = (await ctx.deps.db.users.get(ctx.from.id))?.dailySummary?.hour;
  await ctx.reply(summaryMenu(ctx, hour), { reply_markup: createSummaryKeyboard(ctx.t, hour) });
});

reportFeature.callbackQuery(summaryData.filter(), async (ctx) => {
  const choice = await readTap(ctx, summaryData, summaryChoice, { privateOnly: true });
  if (choice === undefined) return;
  if (choice === 'menu') {
    await quietly(ctx.answerCallbackQuery());
    const hour = (await ctx.deps.db.users.get(ctx.from.id))?.dailySummary?.hour;
    await ctx.reply(summaryMenu(ctx, hour), { reply_markup: createSummaryKeyboard(ctx.t, hour) });
    return;
  }
  const hour = choice === 'off' ? undefined : choice;
  await setSummaryHour(ctx.deps.db, ctx.from.id, hour, ctx.deps.now());
  await quietly(
    ctx.answerCallbackQuery({ text: hour === undefined ? ctx.t('summary-off') : ctx.t('summary-set', { hour: hourLabel(hour) }) }),
  );
  await editInPlace(ctx, summaryMenu(ctx, hour), createSummaryKeyboard(ctx.t, hour));
});

/** The WIB days of a chart button, when they make a chart. */
function chartDays(data: { from: string; to: string }): { from: string; to: string } | undefined {
  const from = parseDay(data.from);
  const to = parseDay(data.to);
  return from && to && from <= to && hasChart({ from, to }) ? { from, to } : undefined;
}

reportFeature.callbackQuery(reportChartData.filter(), async (ctx) => {
  const days = await readTap(ctx, reportChartData, chartDays, { privateOnly: true });
  if (days === undefined) return;
  await ctx.answerCallbackQuery();
  await showChatAction(ctx, 'upload_photo');
  const range = dayRange(days.from, days.to);
  const txs = await ctx.deps.db.transactions.listByUserBetween(ctx.from.id, range.start, range.end);
  const points = dailySeries(txs, range);
  const png = await renderDailyChart(
    points,
    { title: ctx.t('chart-title', days), turnover: ctx.t('chart-turnover'), margin: ctx.t('chart-margin') },
    await localeOf(ctx),
  );
  const sum = (pick: (point: (typeof points)[number]) => number) => formatRupiah(points.reduce((total, point) => total + pick(point), 0));
  const caption = ctx.t('chart-caption', { ...days, turnover: sum((point) => point.turnover), margin: sum((point) => point.margin) });
  await ctx.replyWithPhoto(new InputFile(png, `grafik-${days.from}-${days.to}.png`), { caption });
});
