/**
 * Per-chat locks across instances (the PostgreSQL engine's `chatLocks`): a session advisory lock
 * per chat, held on a connection of a pool of its own while the work runs, behind a queue per chat
 * in the process (so one instance runs a chat's work in the order it was asked). The work's queries use
 * the engine's pool, so chats holding locks can never starve the work of connections (a full lock
 * pool only makes further chats wait their turn). A holder that dies loses its connection, and the
 * server releases the lock with it: another instance takes over.
 */
import type pg from 'pg';
import { createLocalChatLocks } from '../chat-locks.ts';
import type { ChatLockStore } from '../contract.ts';

/** The lock's key: a 64-bit hash of the chat id in kiosbot's own name space. */
const lockKey = `hashtextextended('kiosbot:chat:' || $1::text, 0)`;

/** How long one wait for a lock lasts before it is asked again (so a closing engine stops waiting). */
export const lockWaitMs = 1000;

/** Connection settings of the lock pool: a lock not granted within `lockWaitMs` fails (55P03) and is asked again. */
export const lockSessionOptions = `-c lock_timeout=${lockWaitMs}`;

const isLockTimeout = (error: unknown) => (error as { code?: unknown } | undefined)?.code === '55P03';

/**
 * The chat locks over `locks`, a pool whose sessions have `lockSessionOptions`. `close()` stops
 * every wait within `lockWaitMs` (it rejects), so the pool can end although another instance
 * holds a lock this one waits for.
 */
export function createPgChatLocks(locks: pg.Pool): ChatLockStore & { close(): void } {
  let closing = false;
  // In this process the chat's work queues first (the order it was asked in); only the head of each
  // chat's queue takes the lock on the server, which makes the instances take turns.
  const local = createLocalChatLocks();
  const holdOnServer = async <T>(chatId: number, work: () => Promise<T>): Promise<T> => {
    const client = await locks.connect();
    // A connection that failed a lock query, or that the server ended while it held the lock, is
    // not reused (the server released its locks with it).
    let healthy = true;
    const ended = () => void (healthy = false);
    client.on('error', ended);
    try {
      // Waited for in turns of lockWaitMs (the session's lock_timeout): a closing engine stops waiting.
      for (;;) {
        try {
          await client.query(`SELECT pg_advisory_lock(${lockKey})`, [chatId]);
          break;
        } catch (error) {
          if (isLockTimeout(error) && !closing) continue;
          healthy = false;
          throw error;
        }
      }
      try {
        return await work();
      } finally {
        if (healthy) await client.query(`SELECT pg_advisory_unlock(${lockKey})`, [chatId]).catch(ended);
      }
    } finally {
      client.off('error', ended);
      client.release(!healthy);
    }
  };
  return {
    run: (chatId, work) => local.run(chatId, () => holdOnServer(chatId, work)),
    close() {
      closing = true;
    },
  };
}
