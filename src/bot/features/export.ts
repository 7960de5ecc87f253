import { InputFile } from 'grammy';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { editInPlace } from '../edits.ts';
import { exportPeriodData, exportSeparatorData } from '../callback-data/export.ts';
import { readTap } from '../guards.ts';
import { createExportKeyboard, separatorOf } from '../keyboards/export.ts';
import { periodOf, periodRange, typedRange, type DayRange, type ExportPeriod } from '../../services/export-periods.ts';
import { csvDocument, transactionCsvRow, type CsvSeparator } from '../../text/csv.ts';
import { statusWord } from '../../text/receipt.ts';
import { FastComposer } from '../composer.ts';
import { sendWalletStatementExport } from './export-statement.ts';

const columns = ['time', 'ref', 'trx', 'code', 'product', 'target', 'price', 'sell', 'margin', 'status', 'sn'] as const;

/**
 * /export (/ekspor): the sender's own transactions of a period as a CSV document. Without
 * arguments it offers the periods as buttons (and a switch to `;` for Indonesian Excel);
 * `/ekspor FROM TO [;]` exports a typed range of WIB days. A downline also gets their wallet
 * statement of those days as a second document (export-statement.ts). Private chats only.
 */
export const exportFeature = new FastComposer<BotContext>();
const privateChat = exportFeature.chatType('private');

privateChat.command(commandNames('export'), async (ctx) => {
  const args = ctx.match.trim().split(/\s+/).filter(Boolean);
  if (args.length === 0) {
    await ctx.reply(ctx.t('export-menu'), { reply_markup: createExportKeyboard(ctx.t, ',') });
    return;
  }
  const separator: CsvSeparator | undefined = args.length === 2 ? ',' : args.length === 3 && args[2] === ';' ? ';' : undefined;
  const range = separator === undefined ? ({ error: 'format' } as const) : typedRange(args[0] ?? '', args[1] ?? '');
  if ('error' in range) {
    await ctx.reply(ctx.t(range.error === 'order' ? 'export-bad-order' : 'export-bad-date'));
    return;
  }
  await sendExport(ctx, ctx.from.id, range, separator ?? ',');
  await sendWalletStatementExport(ctx, ctx.from.id, range, separator ?? ',');
});

exportFeature.callbackQuery(exportSeparatorData.filter(), async (ctx) => {
  const separator = await readTap(ctx, exportSeparatorData, ({ sep }) => separatorOf(sep));
  if (separator === undefined) return;
  await ctx.answerCallbackQuery();
  await editInPlace(ctx, ctx.t('export-menu'), createExportKeyboard(ctx.t, separator));
});

exportFeature.callbackQuery(exportPeriodData.filter(), async (ctx) => {
  const choice = await readTap(ctx, exportPeriodData, exportChoice, { privateOnly: true });
  if (choice === undefined) return;
  await ctx.answerCallbackQuery();
  const range = periodRange(choice.period, ctx.deps.now());
  await sendExport(ctx, ctx.from.id, range, choice.separator);
  await sendWalletStatementExport(ctx, ctx.from.id, range, choice.separator);
});

/** The period and separator of a period button, when both are known. */
function exportChoice(data: { period: string; sep: string }): { separator: CsvSeparator; period: ExportPeriod } | undefined {
  const separator = separatorOf(data.sep);
  const period = periodOf(data.period);
  return separator && period ? { separator, period } : undefined;
}

/** Sends the CSV of the user's transactions in `range`, or says there are none. */
async function sendExport(ctx: BotContext, userId: number, range: DayRange, separator: CsvSeparator): Promise<void> {
  const txs = await ctx.deps.db.transactions.listByUserBetween(userId, range.start, range.end);
  const days = { from: range.from, to: range.to };
  if (txs.length === 0) {
    await ctx.reply(ctx.t('export-empty', days));
    return;
  }
  const header = columns.map((column) => ctx.t(`export-column-${column}`));
  const rows = txs.map((tx) => transactionCsvRow(tx, (record) => statusWord(ctx.t, record)));
  const file = new InputFile(csvDocument(header, rows, separator), `kiosbot-${range.from}-${range.to}.csv`);
  await ctx.replyWithDocument(file, { caption: ctx.t('export-caption', { count: txs.length, ...days }) });
}
