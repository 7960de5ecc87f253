import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';
import type { OrderArgs } from './ids.ts';

/** STUB: replaced by the game order conversation. */
export function createOrderConversation(_deps: BotDeps) {
  return async (_conversation: BotConversation, _ctx: ConversationContext, _args?: OrderArgs): Promise<void> => {};
}
