import { InputFile } from 'grammy';
import type { BotContext } from '../context.ts';
import type { DayRange } from '../../services/export-periods.ts';
import { walletStatementBetween } from '../../services/wallet-statement.ts';
import { csvDocument, type CsvSeparator } from '../../text/csv.ts';
import { ledgerCsvRow, walletCsvColumns } from '../../text/wallet-csv.ts';
import { formatRupiah } from '../../text/format.ts';

/**
 * /ekspor's second document for a user with a wallet (a downline): the wallet statement of the
 * same days as its own CSV, `kiosbot-mutasi-<from>-<to>.csv`, one row per ledger entry with the
 * balance after it, the opening and closing balance in the caption. Sends nothing when the wallet
 * had no entry in the period (and for everyone without a wallet).
 */
export async function sendWalletStatementExport(ctx: BotContext, userId: number, range: DayRange, separator: CsvSeparator): Promise<void> {
  const statement = await walletStatementBetween(ctx.deps.db.ledger, userId, range);
  if (!statement) return;
  const header = walletCsvColumns.map((column) => ctx.t(`wallet-export-column-${column}`));
  const rows = statement.entries.map((entry) => ledgerCsvRow(entry, (e) => ctx.t(`wallet-kind-${e.kind}`)));
  const file = new InputFile(csvDocument(header, rows, separator), `kiosbot-mutasi-${range.from}-${range.to}.csv`);
  await ctx.replyWithDocument(file, {
    caption: ctx.t('wallet-export-caption', {
      count: statement.entries.length,
      from: range.from,
      to: range.to,
      opening: formatRupiah(statement.opening),
      credited: formatRupiah(statement.credited),
      debited: formatRupiah(statement.debited),
      closing: formatRupiah(statement.closing),
    }),
  });
}
