/**
 * Per-chat locks inside one process (the lowdb engine's `chatLocks`): each chat's work runs after
 * the work queued for it before, other chats' work meanwhile. A failed run does not stop the next.
 */
import type { ChatLockStore } from './contract.ts';

export function createLocalChatLocks(): ChatLockStore {
  /** The end of the last run queued per chat; removed when nothing more is queued behind it. */
  const tails = new Map<number, Promise<void>>();
  return {
    run(chatId, work) {
      const result = (tails.get(chatId) ?? Promise.resolve()).then(work);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(chatId, tail);
      void tail.then(() => {
        if (tails.get(chatId) === tail) tails.delete(chatId);
      });
      return result;
    },
  };
}
