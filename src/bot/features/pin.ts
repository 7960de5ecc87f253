import type { BotContext } from '../context.ts';
import { conversationIds, enterFlow } from '../conversations/ids.ts';
import { FastComposer } from '../composer.ts';

/** /pin: set, change or remove the purchase PIN (the pin conversation). Private chats only. */
export const pinFeature = new FastComposer<BotContext>();
const privateChat = pinFeature.chatType('private');

/** What /pin does: the PIN conversation, instead of any other flow. Also behind the settings screen's button. */
export async function startPin(ctx: BotContext): Promise<void> {
  await enterFlow(ctx, conversationIds.pin);
}

privateChat.command('pin', startPin);
