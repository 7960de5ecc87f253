import type { BotContext } from '../context.ts';
import { commandNames } from '../commands.ts';
import { conversationIds, enterFlow } from '../conversations/ids.ts';
import { FastComposer } from '../composer.ts';

/** /toko (/shop): the shop profile printed on customer receipts (the shop conversation). Private chats only. */
export const shopFeature = new FastComposer<BotContext>();

shopFeature.chatType('private').command(commandNames('shop'), async (ctx) => {
  await enterFlow(ctx, conversationIds.shop);
});
