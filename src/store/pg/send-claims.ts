/**
 * One sender per ref at a time across instances (the PostgreSQL engine's `sendClaims`): a session
 * advisory lock per ref id, all of an instance's held on ONE connection of its own, behind the
 * in-process claims (so only the first sender of a ref in this instance asks the server). A sender
 * that finds the ref locked by another instance asks again every `pollMs` (it cannot block on the
 * shared connection), then runs with `waited: true` and takes that sender's answer from the store.
 *
 * Why one connection, not one per claim from the chat-lock pool: a purchase is sent from inside a
 * chat's work, which already holds a chat-lock connection; claims drawn from that pool could leave
 * every chat waiting for one more (a deadlock), and a slow provider would hold a connection per call.
 *
 * A lost connection takes every claim on it: each task running under one is told through its
 * `held` signal (aborted with StoreError('lock-lost')), so it stops acting as the sender. A request
 * already sent to the provider cannot be unsent; the next claim opens a new connection.
 */
import type pg from 'pg';
import type { SendClaim, SendClaimStore } from '../contract.ts';
import { StoreError } from '../errors.ts';
import { createInProcessSendClaims } from '../send-claims.ts';
import { isConnectionLoss, type PgConnections } from './db.ts';

/** The lock's key: a 64-bit hash of the ref id in kiosbot's own name space (chat locks use 'kiosbot:chat:'). */
const lockKey = `hashtextextended('kiosbot:ref:' || $1::text, 0)`;

export interface PgSendClaimOptions {
  /** How often a sender waiting for another instance's claim asks again (default 100 ms). */
  pollMs?: number;
  /** Told when the connection holding send claims is lost while their tasks run (the claims are gone). */
  onClaimsLost?: (refIds: string[], error: StoreError) => void;
}

export interface PgSendClaims extends SendClaimStore {
  /** Stops the waits (they reject) and closes the claims' connection once no task holds a claim. */
  close(): Promise<void>;
  /** How many claims were lost with their connection while their task ran, since the engine opened. */
  lostCount(): number;
}

/** The connection the claims are held on, and what is held on it now. */
interface Session {
  client: pg.PoolClient;
  /** Aborted when the connection is lost: every claim on it went with it. */
  lost: AbortController;
  holding: Set<string>;
}

/** Send claims over `connections`, a pool of (at least) one connection used for nothing else. */
export function createPgSendClaims(connections: PgConnections, options: PgSendClaimOptions = {}): PgSendClaims {
  const pollMs = options.pollMs ?? 100;
  const local = createInProcessSendClaims();
  let session: Promise<Session> | undefined;
  let closing = false;
  let lostCount = 0;
  let running = 0;
  let idle: (() => void) | undefined;

  const drop = (current: Session, error: unknown) => {
    if (current.lost.signal.aborted) return;
    const refIds = [...current.holding];
    const lost = new StoreError(
      'lock-lost',
      `The database connection holding the send claims of ${refIds.length} ref(s) was lost, and the claims with it: another ` +
        'instance may send them now. The senders holding them were told to stop acting as the sender.',
      { cause: error },
    );
    current.lost.abort(lost);
    lostCount += refIds.length;
    if (refIds.length > 0) options.onClaimsLost?.(refIds, lost);
    void session?.then((s) => {
      if (s === current) session = undefined;
    });
    current.client.release(error instanceof Error ? error : true);
  };

  const open = (): Promise<Session> =>
    (session ??= connections.connect().then(
      (client) => {
        const current: Session = { client, lost: new AbortController(), holding: new Set() };
        client.on('error', (error) => drop(current, error));
        return current;
      },
      (error: unknown) => {
        session = undefined;
        throw error;
      },
    ));

  /** Takes the ref's lock on the server, asking again while another instance holds it. */
  const acquire = async (refId: string): Promise<{ current: Session; waited: boolean }> => {
    let waited = false;
    let firstLoss: number | undefined;
    for (let attempt = 0; ;) {
      if (closing) throw new StoreError('unavailable', `The store is closing: the send claim of ${refId} was not taken; nothing was sent.`);
      const current = await open();
      try {
        const { rows } = await current.client.query<{ got: boolean }>(`SELECT pg_try_advisory_lock(${lockKey}) AS got`, [refId]);
        if (rows[0]?.got === true) {
          current.holding.add(refId);
          return { current, waited };
        }
        waited = true;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      } catch (error) {
        if (!isConnectionLoss(error)) throw error;
        drop(current, error);
        connections.lost(error);
        firstLoss ??= Date.now();
        // Nothing was held on the lost connection for this ref yet: ask again on a new one.
        if (!(await connections.backOff(attempt++, firstLoss))) throw error;
      }
    }
  };

  const holdOnServer = async <T>(refId: string, waitedHere: boolean, task: (claim: SendClaim) => Promise<T>): Promise<T> => {
    running += 1;
    try {
      const { current, waited } = await acquire(refId);
      try {
        return await task({ waited: waitedHere || waited, held: current.lost.signal });
      } finally {
        current.holding.delete(refId);
        if (!current.lost.signal.aborted)
          await current.client.query(`SELECT pg_advisory_unlock(${lockKey})`, [refId]).catch((error: unknown) => drop(current, error));
      }
    } finally {
      running -= 1;
      if (running === 0) idle?.();
    }
  };

  return {
    withClaim: <T>(refId: string, task: (claim: SendClaim) => Promise<T>) =>
      local.withClaim(refId, ({ waited }) => holdOnServer(refId, waited, task)),
    lostCount: () => lostCount,
    async close() {
      closing = true;
      if (running > 0) await new Promise<void>((resolve) => (idle = resolve));
      const current = await session?.catch(() => undefined);
      session = undefined;
      if (current && !current.lost.signal.aborted) current.client.release();
    },
  };
}
