import type { VersionedState, ConversationData, ConversationStorage } from '@grammyjs/conversations';
import type { Db } from '../store/db.ts';
import type { BotContext } from './context.ts';

/**
 * Version of the conversations' code. Bump it whenever a conversation's steps change, so states
 * stored by an older version are discarded instead of replayed against new code.
 * test/bot/conversation-versions.test.ts fails when a flow's steps change without a bump.
 */
export const conversationsVersion = 4;

/**
 * Conversation state lives in the store, encrypted by the vault: a user mid-flow survives a
 * restart, and a secret typed during a step (an API key, a PIN) is never stored in plain text.
 * One state per chat and user.
 */
export function createConversationStorage(db: Db): ConversationStorage<BotContext, ConversationData> {
  return {
    type: 'key',
    version: conversationsVersion,
    getStorageKey: (ctx) => (ctx.chat && ctx.from ? `${ctx.chat.id}:${ctx.from.id}` : undefined),
    // The conversations plugin's storage adapter is the one writer of conversation state (no
    // service stands between the plugin and its own records).
    adapter: {
      read: async (key) => (await db.conversations.read(key)) as VersionedState<ConversationData> | undefined,
      // eslint-disable-next-line no-restricted-syntax
      write: (key, state) => db.conversations.write(key, state),
      // eslint-disable-next-line no-restricted-syntax
      delete: (key) => db.conversations.delete(key),
    },
  };
}
