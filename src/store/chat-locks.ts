/**
 * Per-chat locks inside one process (the lowdb engine's `chatLocks`, and the in-process half of
 * PostgreSQL's): each chat's work runs after the work queued for it before, other chats' work
 * meanwhile. A failed run does not stop the next.
 */
import { createKeyedQueue } from '../queue.ts';
import type { ChatLockStore } from './contract.ts';

export function createLocalChatLocks(): ChatLockStore {
  const queue = createKeyedQueue<number>();
  // In one process a lock cannot be lost while its work runs: a signal of its own per run, never aborted.
  return { run: (chatId, work) => queue.run(chatId, () => work(new AbortController().signal)) };
}
