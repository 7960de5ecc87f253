import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';
import type { BuyArgs } from './ids.ts';

/** STUB: replaced by the buy conversation. */
export function createBuyConversation(_deps: BotDeps) {
  return async (_conversation: BotConversation, _ctx: ConversationContext, _args?: BuyArgs): Promise<void> => {};
}
