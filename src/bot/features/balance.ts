import { InlineKeyboard } from 'grammy';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { fromProvider, requireClient } from '../guards.ts';
import { editInPlace } from '../edits.ts';
import { formatRupiah, formatWibIn } from '../../text/format.ts';
import { balanceRefreshData } from '../callback-data/balance.ts';
import { FastComposer } from '../composer.ts';
import { showChatAction } from '../middlewares/crowd.ts';

/**
 * /balance (/saldo): the reseller deposit balance in rupiah, with the time it was read (WIB) and
 * a refresh button that updates the same message. Provider problems are answered with what to do.
 */
export const balanceFeature = new FastComposer<BotContext>();
const privateChat = balanceFeature.chatType('private');

/** The balance text (HTML) and its refresh button, or undefined after answering the problem. */
async function readBalance(ctx: BotContext): Promise<{ text: string; keyboard: InlineKeyboard } | undefined> {
  const client = await requireClient(ctx, ctx.deps, 'reseller');
  if (!client || !ctx.from) return undefined;
  const amount = await fromProvider(ctx, ctx.deps, () => client.balance());
  if (amount === undefined) return undefined;
  const label = (await ctx.deps.db.credentials.info(ctx.from.id, 'reseller'))?.label ?? '-';
  const text = ctx.t('balance-shown', {
    service: ctx.t('service-reseller'),
    amount: formatRupiah(amount),
    label: label,
    time: formatWibIn(ctx.t, ctx.deps.now()),
  });
  const keyboard = new InlineKeyboard().text(ctx.t('button-refresh'), balanceRefreshData.pack({ action: 'refresh' }));
  return { text, keyboard };
}

/**
 * A balance read slower than this shows "typing…" meanwhile; a quick one costs no extra Telegram
 * call, and neither does one in a crowd (`ctx.crowded`), where the answer is all that counts.
 */
export const typingAfterMs = 300;

privateChat.command(commandNames('balance'), async (ctx) => {
  const typing = setTimeout(() => void showChatAction(ctx, 'typing'), typingAfterMs);
  let shown: Awaited<ReturnType<typeof readBalance>>;
  try {
    shown = await readBalance(ctx);
  } finally {
    clearTimeout(typing);
  }
  if (shown) await ctx.reply(shown.text, { reply_markup: shown.keyboard });
});

balanceFeature.callbackQuery(balanceRefreshData.filter(), async (ctx) => {
  const shown = await readBalance(ctx);
  // The provider may have been slow: an answer to an expired query is not worth an error.
  if (!shown) {
    await ctx.answerCallbackQuery().catch(() => undefined);
    return;
  }
  // Same balance within the same minute: the message already reads so, and the answer says it.
  const changed = await editInPlace(ctx, shown.text, shown.keyboard);
  await ctx.answerCallbackQuery({ text: ctx.t(changed ? 'balance-refreshed' : 'balance-unchanged') }).catch(() => undefined);
});
