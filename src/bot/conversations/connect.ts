import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';
import type { ConnectArgs } from './ids.ts';

/** STUB: replaced by the connect conversation. */
export function createConnectConversation(_deps: BotDeps) {
  return async (_conversation: BotConversation, _ctx: ConversationContext, _args?: ConnectArgs): Promise<void> => {};
}
