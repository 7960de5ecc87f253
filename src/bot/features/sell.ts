import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { conversationIds, enterFlow, type SellArgs } from '../conversations/ids.ts';
import { sellMenuData } from '../callback-data/sell.ts';
import { readTap } from '../guards.ts';
import { createSellMenuKeyboard } from '../keyboards/sell.ts';
import { ambiguousText, renderSellRules, tooLargeText } from '../renderers/sell.ts';
import { emptySellRules, readMarkup, withDefaultRule } from '../../services/pricing.ts';
import { FastComposer } from '../composer.ts';

const clearWords = new Set(['hapus', 'remove', 'off', 'reset', 'mati']);
const modes: ReadonlyArray<SellArgs['mode']> = ['default', 'brand', 'product'];

/**
 * /sellprice (/jual): the reseller's sell-price rules. Without arguments it shows them with
 * buttons that start the sell conversation (default markup and rounding, brand overrides, product
 * overrides). `/jual 5%` (or `1500`, `Rp 1.500`) sets the default markup at once, keeping the
 * rounding step; a bare small number (`/jual 10`) is refused with both spellings (`10%`, `Rp 10`); `/jual hapus` removes every rule. Private chats only. Rules only affect purchases
 * confirmed afterwards: a stored transaction keeps its sell price.
 */
export const sellFeature = new FastComposer<BotContext>();
const privateChat = sellFeature.chatType('private');

privateChat.command(commandNames('sellprice'), async (ctx) => {
  const argument = ctx.match.trim();
  const current = ctx.account?.sellRules;
  if (argument === '') {
    await ctx.reply(renderSellRules(ctx.t, current), { reply_markup: createSellMenuKeyboard(ctx.t) });
    return;
  }
  if (clearWords.has(argument.toLowerCase())) {
    await ctx.deps.services.accounts.changeSellRules(ctx.from.id, () => undefined);
    await ctx.reply(ctx.t('sell-cleared'), { reply_markup: createSellMenuKeyboard(ctx.t) });
    return;
  }
  const read = readMarkup(argument);
  if (!read) {
    await ctx.reply(ctx.t('sell-bad-oneshot', { text: argument.slice(0, 40) }));
    return;
  }
  if ('tooLarge' in read) {
    await ctx.reply(tooLargeText(ctx.t, argument));
    return;
  }
  if ('ambiguous' in read) {
    await ctx.reply(ambiguousText(ctx.t, argument, read.ambiguous, { oneShot: true }));
    return;
  }
  const markup = read.markup;
  const rules = await ctx.deps.services.accounts.changeSellRules(ctx.from.id, (stored) =>
    withDefaultRule(stored, markup, (stored ?? emptySellRules()).step),
  );
  await ctx.reply([ctx.t('sell-saved'), '', renderSellRules(ctx.t, rules)].join('\n'), { reply_markup: createSellMenuKeyboard(ctx.t) });
});

// A button of the /jual screen: the sell conversation for that rule, instead of any other flow.
sellFeature.callbackQuery(sellMenuData.filter(), async (ctx) => {
  const mode = await readTap(ctx, sellMenuData, ({ action }) => modes.find((m) => m === action), { privateOnly: true });
  if (mode === undefined) return;
  await ctx.answerCallbackQuery();
  await enterFlow(ctx, conversationIds.sell, { mode });
});
