import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { summaryData } from '../callback-data/report.ts';
import { readTap } from '../guards.ts';
import { editInPlace, quietly } from '../edits.ts';
import { createSummaryKeyboard, hourLabel } from '../keyboards/summary.ts';
import { setSummaryHour } from '../../services/daily-summary.ts';
import { FastComposer } from '../composer.ts';

/**
 * /summary (/ringkasan), also the 🗓 button of the /report menu: the opt-in daily summary. The
 * user picks a WIB hour (or turns it off); each day at that hour the summary job sends
 * yesterday's report through the outbox. Private chats only.
 */
export const summaryFeature = new FastComposer<BotContext>();
const privateChat = summaryFeature.chatType('private');

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

summaryFeature.callbackQuery(summaryData.filter(), async (ctx) => {
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
