import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { createMainMenuKeyboard } from '../keyboards/main-menu.ts';
import { FastComposer } from '../composer.ts';

/**
 * /cancel (/batal) ends whatever conversation is running in this chat. Installed before the
 * conversations so it always reaches here, even while a conversation waits for input.
 */
export const cancelFeature = new FastComposer<BotContext>();

cancelFeature.command(commandNames('cancel'), async (ctx) => {
  const active = Object.keys(ctx.conversation.active());
  await ctx.conversation.exitAll();
  // In a private chat the main menu stays (sent again, in case the client hid it); elsewhere there is none.
  await ctx.reply(ctx.t(active.length > 0 ? 'conversation-cancelled' : 'conversation-nothing-to-cancel'), {
    reply_markup: ctx.chat?.type === 'private' ? createMainMenuKeyboard(ctx.t) : { remove_keyboard: true },
  });
});
