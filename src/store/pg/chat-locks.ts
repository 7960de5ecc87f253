/**
 * Per-chat locks across instances (the PostgreSQL engine's `chatLocks`): a session advisory lock
 * per chat, held on a connection of a pool of its own while the work runs, behind a queue per chat
 * in the process (one instance runs a chat's work in the order it was asked). The work's queries
 * use the engine's pool, so chats holding locks never starve the work of connections.
 *
 * The lock lives exactly as long as its connection: a holder that dies releases it. A connection
 * lost while the work runs takes the lock with it although this process lives on: the work is told
 * through its `held` signal (aborted with StoreError('lock-lost')) and `onLockLost` reports it.
 */
import type pg from 'pg';
import { createLocalChatLocks } from '../chat-locks.ts';
import type { ChatLockStore } from '../contract.ts';
import { StoreError } from '../errors.ts';
import { isConnectionLoss, type PgConnections } from './db.ts';

/** The lock's key: a 64-bit hash of the chat id in kiosbot's own name space. */
const lockKey = `hashtextextended('kiosbot:chat:' || $1::text, 0)`;

/** How long one wait for a lock lasts before it is asked again (so a closing engine stops waiting). */
const lockWaitMs = 1000;

/** Connection settings of the lock pool: a lock not granted within `lockWaitMs` fails (55P03) and is asked again. */
export const lockSessionOptions = `-c lock_timeout=${lockWaitMs}`;

const isLockTimeout = (error: unknown) => (error as { code?: unknown } | undefined)?.code === '55P03';

export interface PgChatLockOptions {
  /** Told when the connection holding a chat's lock is lost while its work runs (the lock is gone). */
  onLockLost?: (chatId: number, error: StoreError) => void;
}

export interface PgChatLocks extends ChatLockStore {
  /** Stops every wait within `lockWaitMs` (it rejects), so the pool can end although another instance holds a lock this one waits for. */
  close(): void;
  /** How many locks were lost with their connection while their work ran, since the engine opened. */
  lostCount(): number;
}

/** The chat locks over `locks`, connections whose sessions have `lockSessionOptions`. */
export function createPgChatLocks(locks: PgConnections, options: PgChatLockOptions = {}): PgChatLocks {
  let closing = false;
  let lostCount = 0;
  // In this process the chat's work queues first (the order it was asked in); only the head of each
  // chat's queue takes the lock on the server, which makes the instances take turns.
  const local = createLocalChatLocks();

  /** A connection holding the chat's lock. One lost before the lock was granted is replaced: nothing was held yet. */
  const acquire = async (chatId: number): Promise<pg.PoolClient> => {
    let firstLoss: number | undefined;
    for (let attempt = 0; ; attempt++) {
      const client = await locks.connect();
      try {
        // Waited for in turns of lockWaitMs (the session's lock_timeout): a closing engine stops waiting.
        for (;;) {
          try {
            await client.query(`SELECT pg_advisory_lock(${lockKey})`, [chatId]);
            return client;
          } catch (error) {
            if (!isLockTimeout(error) || closing) throw error;
          }
        }
      } catch (error) {
        client.release(true);
        if (!isConnectionLoss(error) || closing) throw error;
        locks.lost(error);
        firstLoss ??= Date.now();
        if (!(await locks.backOff(attempt, firstLoss))) throw error;
      }
    }
  };

  const holdOnServer = async <T>(chatId: number, work: (held: AbortSignal) => Promise<T>): Promise<T> => {
    const client = await acquire(chatId);
    const held = new AbortController();
    // A connection that the server ended while it held the lock is not reused (its locks went with it).
    let healthy = true;
    const ended = (error: Error) => {
      healthy = false;
      if (held.signal.aborted) return;
      lostCount += 1;
      const lost = new StoreError(
        'lock-lost',
        `The database connection holding the lock of chat ${chatId} was lost, and the lock with it: another instance may ` +
          'run work of this chat now. The work running under it was told to stop acting as the holder.',
        { cause: error },
      );
      held.abort(lost);
      options.onLockLost?.(chatId, lost);
    };
    client.on('error', ended);
    try {
      return await work(held.signal);
    } finally {
      if (healthy) await client.query(`SELECT pg_advisory_unlock(${lockKey})`, [chatId]).catch(() => void (healthy = false));
      client.off('error', ended);
      client.release(!healthy);
    }
  };
  return {
    run: (chatId, work) => local.run(chatId, () => holdOnServer(chatId, work)),
    close() {
      closing = true;
    },
    lostCount: () => lostCount,
  };
}
