import type { RepoContext } from './context.ts';

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
}

/** The vault AAD for one conversation state. */
export function conversationAad(key: string): string {
  return `conversation:${key}`;
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

  return {
    read(key) {
      const sealed = shards.forConversation(key).data.conversations[key];
      if (sealed === undefined) return undefined;
      try {
        return JSON.parse(vault.decrypt(sealed, conversationAad(key))) as unknown;
      } catch {
        return undefined;
      }
    },
    async write(key, value) {
      const json = JSON.stringify(value);
      if (json === undefined) return remove(key);
      const sealed = vault.encrypt(json, conversationAad(key));
      await shards.forConversation(key).update((data) => {
        data.conversations[key] = sealed;
      });
    },
    delete: remove,
  };
}
