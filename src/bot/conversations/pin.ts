import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';


/** STUB: replaced by the pin conversation. */
export function createPinConversation(_deps: BotDeps) {
  return async (_conversation: BotConversation, _ctx: ConversationContext): Promise<void> => {};
}
