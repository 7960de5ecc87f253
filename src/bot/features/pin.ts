import type { BotContext } from '../context.ts';
import { conversationIds } from '../conversations/ids.ts';
import { pinData } from '../callback-data/pin.ts';
import { quietly } from '../edits.ts';
import { FastComposer } from '../composer.ts';

/** /pin: set, change or remove the purchase PIN (the pin conversation). Private chats only. */
export const pinFeature = new FastComposer<BotContext>();
const privateChat = pinFeature.chatType('private');

/** What /pin does: the PIN conversation, instead of any other flow. Also behind the settings screen's button. */
export async function startPin(ctx: BotContext): Promise<void> {
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(conversationIds.pin);
}

privateChat.command('pin', startPin);

// A button of a /pin conversation that already ended (timeout, /cancel): say so and drop it.
pinFeature.callbackQuery(pinData.filter(), async (ctx) => {
  await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback') });
  await quietly(ctx.editMessageReplyMarkup());
});
