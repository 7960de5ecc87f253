import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';
import { conversationIds } from '../conversations/ids.ts';
import { pinData } from '../callback-data/pin.ts';
import { quietly } from '../edits.ts';

/** /pin: set, change or remove the purchase PIN (the pin conversation). Private chats only. */
export const pinFeature = new Composer<BotContext>();
const privateChat = pinFeature.chatType('private');

privateChat.command('pin', async (ctx) => {
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(conversationIds.pin);
});

// A button of a /pin conversation that already ended (timeout, /cancel): say so and drop it.
pinFeature.callbackQuery(pinData.filter(), async (ctx) => {
  await ctx.answerCallbackQuery({ text: ctx.t('unhandled-callback') });
  await quietly(ctx.editMessageReplyMarkup());
});
