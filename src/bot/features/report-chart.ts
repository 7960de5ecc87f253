import { InputFile } from 'grammy';
import type { BotContext } from '../context.ts';
import { reportChartData } from '../callback-data/report.ts';
import { readTap } from '../guards.ts';
import { localeOf } from '../i18n.ts';
import { dayRange, parseDay } from '../../services/export-periods.ts';
import { dailySeries, hasChart } from '../../services/daily-series.ts';
import { renderDailyChart } from '../../render/chart.ts';
import { formatRupiah } from '../../text/format.ts';
import { FastComposer } from '../composer.ts';
import { showChatAction } from '../middlewares/crowd.ts';

/**
 * The 📈 button under a report (/laporan, and the daily summary): the chart of the sender's own
 * daily turnover and margin over the report's WIB days, as a PNG photo. Rendered when asked, so a
 * report costs no rendering and a queued summary (the outbox sends no uploads) gets its chart too.
 */
export const reportChartFeature = new FastComposer<BotContext>();

/** The WIB days of a chart button, when they make a chart. */
function chartDays(data: { from: string; to: string }): { from: string; to: string } | undefined {
  const from = parseDay(data.from);
  const to = parseDay(data.to);
  return from && to && from <= to && hasChart({ from, to }) ? { from, to } : undefined;
}

reportChartFeature.callbackQuery(reportChartData.filter(), async (ctx) => {
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
