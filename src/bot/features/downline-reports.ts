import { InputFile, type CallbackQueryContext } from 'grammy';
import type { BotContext } from '../context.ts';
import { FastComposer } from '../composer.ts';
import { commandNames } from '../commands.ts';
import { editInPlace } from '../edits.ts';
import { readTap } from '../guards.ts';
import { reportDownlineData } from '../callback-data/report.ts';
import { exportDownlineData } from '../callback-data/export.ts';
import { periodKeyboard } from '../keyboards/report.ts';
import { separatorCode, separatorOf } from '../keyboards/export.ts';
import { renderDownlineReport } from '../renderers/downline-report.ts';
import { loadDownlinePeriod, reportedDownlines, type ReportedDownline } from '../../services/downline-figures.ts';
import { parseDay, periodOf, periodRange, typedRange, type DayRange } from '../../services/export-periods.ts';
import type { UserRecord } from '../../store/records/users.ts';
import { displayName } from '../../notify/downline-notices.ts';
import { csvDocument, downlinePurchaseCsvRow, type CsvSeparator } from '../../text/csv.ts';
import { statusWord } from '../../text/receipt.ts';

/**
 * The upline's /report and /export of their downlines' purchases (on with DOWNLINES=true, mounted
 * before /laporan and /ekspor): `/laporan dl` for all downlines and `/laporan dl <id|@user>` for
 * one, each with the period buttons or a typed range after it; `/ekspor dl …` the same as CSV.
 * Sales at the downlines' prices, the upline's cost and margin (Sukses only). Anything else goes on
 * to the plain /laporan and /ekspor (a downline's own report shows their own figures only).
 * Private chats only.
 */
export const downlineReportsFeature = new FastComposer<BotContext>();
const privateChat = downlineReportsFeature.chatType('private');

const downlineWords = new Set(['dl', 'downline']);

/** Who a report is of: all the upline's downlines, or one. */
type Who = { all: true } | { all: false; user: UserRecord };

const whoData = (who: Who): string => (who.all ? 'all' : String(who.user.id));

/**
 * Reads `dl [who] [FROM TO] [;]` after the command: undefined when it is not a downline report
 * (the plain command answers), else who it is of and the rest, or it has answered why not.
 */
async function readDownlineArgs(ctx: BotContext, text: string): Promise<{ who: Who; rest: string[] } | 'answered' | undefined> {
  const [first = '', ...args] = text.trim().split(/\s+/).filter(Boolean);
  const userId = ctx.from?.id;
  if (!downlineWords.has(first.toLowerCase()) || userId === undefined) return undefined;
  if (!(await ctx.deps.services.downlines.mode(userId))) {
    await ctx.reply(ctx.t('downline-not-open'));
    return 'answered';
  }
  const named = args[0];
  if (named === undefined || parseDay(named) !== undefined || named === ';') return { who: { all: true }, rest: args };
  const user = await ctx.deps.services.wallets.findDownline(userId, named);
  if (!user) {
    await ctx.reply(ctx.t('wallet-adjust-not-yours', { who: named.slice(0, 40) }));
    return 'answered';
  }
  return { who: { all: false, user }, rest: args.slice(1) };
}

/** The downlines a report of `who` covers (for all: the removed ones remembered too). */
async function downlinesOf(ctx: BotContext, uplineId: number, who: Who): Promise<ReportedDownline[]> {
  return who.all ? reportedDownlines(ctx.deps.db, uplineId) : [{ user: who.user, former: false }];
}

/** `who` as a button names it, when that user is still the upline's downline (or `all`). */
async function whoOf(ctx: BotContext, uplineId: number, data: string): Promise<Who | undefined> {
  if (data === 'all') return { all: true };
  const entry = /^\d{1,15}$/.test(data) ? await ctx.deps.services.downlines.entry(uplineId, Number(data)) : undefined;
  return entry ? { all: false, user: entry.user } : undefined;
}

privateChat.command(commandNames('report'), async (ctx, next) => {
  const read = await readDownlineArgs(ctx, ctx.match);
  if (read === undefined) return next();
  if (read === 'answered') return;
  const { who, rest } = read;
  if (rest.length === 0) {
    const keyboard = periodKeyboard(ctx.t, (period) => reportDownlineData.pack({ who: whoData(who), period }));
    await ctx.reply(who.all ? ctx.t('report-dl-menu-all') : ctx.t('report-dl-menu-one', { name: displayName(who.user) }), {
      reply_markup: keyboard,
    });
    return;
  }
  const range = rest.length === 2 ? typedRange(rest[0] ?? '', rest[1] ?? '') : ({ error: 'format' } as const);
  if ('error' in range) {
    await ctx.reply(ctx.t(range.error === 'order' ? 'report-bad-order' : 'report-dl-bad-date'));
    return;
  }
  await sendDownlineReport(ctx, who, range);
});

downlineReportsFeature.callbackQuery(reportDownlineData.filter(), async (ctx) => {
  const tap = await readTap(
    ctx,
    reportDownlineData,
    (f) => {
      const period = periodOf(f.period);
      return period ? { who: f.who, period } : undefined;
    },
    { privateOnly: true },
  );
  if (!tap) return;
  const who = await tappedWho(ctx, tap.who);
  if (!who) return;
  await sendDownlineReport(ctx, who, periodRange(tap.period, ctx.deps.now()));
});

/** Whom a tapped report or export button names, the tap answered; undefined (told "not yours") when no longer the tapper's downline(s). */
async function tappedWho(ctx: CallbackQueryContext<BotContext>, field: string): Promise<Who | undefined> {
  const who = (await ctx.deps.services.downlines.mode(ctx.from.id)) ? await whoOf(ctx, ctx.from.id, field) : undefined;
  await ctx.answerCallbackQuery(who ? undefined : { text: ctx.t('downline-not-yours') });
  return who;
}

/** Sends the report of `who`'s purchases through the sender in `range`. */
async function sendDownlineReport(ctx: BotContext, who: Who, range: DayRange): Promise<void> {
  const uplineId = ctx.from?.id;
  if (uplineId === undefined) return;
  const period = await loadDownlinePeriod(ctx.deps.db, uplineId, await downlinesOf(ctx, uplineId, who), range);
  await ctx.reply(renderDownlineReport(ctx.t, period, who.all ? undefined : who.user));
}

/** The /ekspor dl menu: the periods (each sends its file) and the Excel Indonesia (;) switch. */
function exportMenu(ctx: BotContext, who: Who, separator: CsvSeparator) {
  const sep = separatorCode(separator);
  const keyboard = periodKeyboard(ctx.t, (period) => exportDownlineData.pack({ who: whoData(who), period, sep })).row();
  const semicolons = separator === ';';
  const label = semicolons ? `✅ ${ctx.t('export-button-semicolon')}` : ctx.t('export-button-semicolon');
  keyboard.text(label, exportDownlineData.pack({ who: whoData(who), period: '-', sep: separatorCode(semicolons ? ',' : ';') }));
  const text = who.all ? ctx.t('export-dl-menu-all') : ctx.t('export-dl-menu-one', { name: displayName(who.user) });
  return { text, keyboard };
}

privateChat.command(commandNames('export'), async (ctx, next) => {
  const read = await readDownlineArgs(ctx, ctx.match);
  if (read === undefined) return next();
  if (read === 'answered') return;
  const { who, rest } = read;
  if (rest.length === 0) {
    const menu = exportMenu(ctx, who, ',');
    await ctx.reply(menu.text, { reply_markup: menu.keyboard });
    return;
  }
  const separator: CsvSeparator | undefined = rest.length === 2 ? ',' : rest.length === 3 && rest[2] === ';' ? ';' : undefined;
  const range = separator === undefined ? ({ error: 'format' } as const) : typedRange(rest[0] ?? '', rest[1] ?? '');
  if ('error' in range) {
    await ctx.reply(ctx.t(range.error === 'order' ? 'export-bad-order' : 'export-dl-bad-date'));
    return;
  }
  await sendDownlineExport(ctx, who, range, separator ?? ',');
});

downlineReportsFeature.callbackQuery(exportDownlineData.filter(), async (ctx) => {
  const tap = await readTap(
    ctx,
    exportDownlineData,
    (f) => {
      const separator = separatorOf(f.sep);
      const period = f.period === '-' ? ('-' as const) : periodOf(f.period);
      return separator && period ? { who: f.who, period, separator } : undefined;
    },
    { privateOnly: true },
  );
  if (!tap) return;
  const who = await tappedWho(ctx, tap.who);
  if (!who) return;
  if (tap.period === '-') {
    const menu = exportMenu(ctx, who, tap.separator);
    await editInPlace(ctx, menu.text, menu.keyboard);
    return;
  }
  await sendDownlineExport(ctx, who, periodRange(tap.period, ctx.deps.now()), tap.separator);
});

const columns = [
  'time',
  'downline',
  'downline-id',
  'ref',
  'trx',
  'code',
  'product',
  'target',
  'dl-price',
  'dl-cost',
  'dl-margin',
  'status',
  'sn',
];

/** Sends the CSV of `who`'s purchases through the sender in `range` (oldest first), or says there are none. */
async function sendDownlineExport(ctx: BotContext, who: Who, range: DayRange, separator: CsvSeparator): Promise<void> {
  const uplineId = ctx.from?.id;
  if (uplineId === undefined) return;
  const period = await loadDownlinePeriod(ctx.deps.db, uplineId, await downlinesOf(ctx, uplineId, who), range);
  const days = period.days;
  const rows = period.rows
    .flatMap((row) => row.txs.map((tx) => ({ tx, name: displayName(row.user) })))
    .sort((a, b) => a.tx.createdAt.localeCompare(b.tx.createdAt) || a.tx.refId.localeCompare(b.tx.refId));
  if (rows.length === 0) {
    await ctx.reply(ctx.t('export-dl-empty', days));
    return;
  }
  const header = columns.map((column) => ctx.t(`export-column-${column}`));
  const lines = rows.map(({ tx, name }) => downlinePurchaseCsvRow(tx, name, (record) => statusWord(ctx.t, record)));
  const name = who.all ? 'downline' : `downline-${who.user.id}`;
  const file = new InputFile(csvDocument(header, lines, separator), `kiosbot-${name}-${range.from}-${range.to}.csv`);
  await ctx.replyWithDocument(file, { caption: ctx.t('export-dl-caption', { count: rows.length, ...days }) });
}
