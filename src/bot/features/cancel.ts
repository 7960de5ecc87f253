import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';

/**
 * /cancel (/batal) ends whatever conversation is running in this chat. Installed before the
 * conversations so it always reaches here, even while a conversation waits for input.
 */
export const cancelFeature = new Composer<BotContext>();

cancelFeature.command(commandNames('cancel'), async (ctx) => {
  const active = Object.keys(ctx.conversation.active());
  await ctx.conversation.exitAll();
  await ctx.reply(ctx.t(active.length > 0 ? 'conversation-cancelled' : 'conversation-nothing-to-cancel'), {
    reply_markup: { remove_keyboard: true },
  });
});
