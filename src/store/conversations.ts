import type { RepoContext } from './context.ts';
import { openConversation, sealConversation } from './records/conversations.ts';

/**
 * Conversation state by storage key, sealed with the vault (AAD `conversation:<key>`): what a
 * user typed mid-flow, an API key included, is never on disk in plain text. The bot wraps this in
 * a grammY storage adapter.
 */
export interface ConversationsRepo {
  /**
   * The stored value, or undefined if there is none. A value that cannot be opened (its key was
   * retired, or it was altered) also reads as undefined: the user simply starts over.
   */
  read(key: string): unknown;
  /** Seals and stores `value` (JSON); `undefined` deletes. Resolves once on disk. */
  write(key: string, value: unknown): Promise<void>;
  /** Forgets the state; resolves once on disk. */
  delete(key: string): Promise<void>;
  /** The stored vault token as it is, or undefined. */
  readSealed(key: string): string | undefined;
  /** Stores a token `sealConversation` made; `undefined` deletes. Resolves once on disk. */
  writeSealed(key: string, sealed: string | undefined): Promise<void>;
}

export function createConversationsRepo({ shards, vault }: RepoContext): ConversationsRepo {
  const remove = async (key: string) => {
    // Deleting a state that is not there writes nothing (the bot deletes after every update).
    const shard = shards.forConversation(key);
    if (!Object.hasOwn(shard.data.conversations, key)) return;
    await shard.update((data) => {
      delete data.conversations[key];
    });
  };

  const readSealed = (key: string) => shards.forConversation(key).data.conversations[key];
  const writeSealed = async (key: string, sealed: string | undefined) => {
    if (sealed === undefined) return remove(key);
    await shards.forConversation(key).update((data) => {
      data.conversations[key] = sealed;
    });
  };

  return {
    read: (key) => openConversation(vault, key, readSealed(key)),
    write: (key, value) => writeSealed(key, sealConversation(vault, key, value)),
    delete: remove,
    readSealed,
    writeSealed,
  };
}
