import type pg from 'pg';
import { StoreError } from '../errors.ts';
import { outboxDueTime, type OutboxItem } from '../records/outbox.ts';

/** Anything that runs a query: the engine's connections, a pool or one of its clients (inside a transaction). */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's own default row type
  query<R extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * The engine's connections (`connectPg`): queries and transactions that outlive a lost connection
 * (a server restart, a fail-over, an operator's pg_terminate_backend) where that is safe.
 */
export interface PgConnections extends Queryable {
  /** A client of the pool; waits while none can be opened. */
  connect(): Promise<pg.PoolClient>;
  /** Waits before the next attempt after a connection loss; false once `retryForMs` ran out since `since`. */
  backOff(attempt: number, since: number): Promise<boolean>;
  /** Tells the connections that an operation reached the database (it answers again). */
  answered(): void;
  /** Tells them that a connection was lost or could not be opened. */
  lost(error: unknown): void;
  /** Whether the last attempt to reach the database failed, and how many connections were lost so far. */
  state(): { reachable: boolean; losses: number };
}

export interface PgConnectionOptions {
  /** How long an operation keeps trying while the database cannot be reached (default 15 s). */
  retryForMs?: number;
  /** Told once per lost connection or failed attempt (for the logs). */
  onLoss?: (error: unknown) => void;
  /** Waits (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
}

/** SQLSTATE codes of a connection the server ended or refused: admin/crash shutdown, starting up, too many clients, class 08. */
const lostConnectionCodes = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);
/** Node's errors of a socket that was reset, refused or timed out. */
const socketErrorCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** True for an error that says the connection went away or could not be made (not an error of the statement). */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && (lostConnectionCodes.has(code) || code.startsWith('08') || socketErrorCodes.has(code))) return true;
  // A database refusing connections for a while (ALTER DATABASE ... ALLOW_CONNECTIONS false) says so in 55000.
  if (code === '55000' && /not currently accepting connections/.test(error.message)) return true;
  return /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect/i.test(
    error.message,
  );
}

/** A statement that only reads (so running it twice does no harm): a plain SELECT that locks and writes nothing. */
const isRead = (text: string) => /^\s*SELECT\b/i.test(text) && !/\b(INSERT|UPDATE|DELETE|pg_advisory\w*|nextval|setval)\b/i.test(text);

/** The database could not be reached for `retryForMs`: the operation did not happen. */
const unreachable = (cause: unknown) =>
  new StoreError(
    'unavailable',
    'The PostgreSQL database cannot be reached (it may be restarting or failing over); the operation was not carried out. ' +
      'It is tried again when it is next asked for; if this lasts, check the database server and DATABASE_URL.',
    { cause },
  );

/** The connection went away after a write was sent: whether it was carried out is not known. */
const outcomeUnknown = (cause: unknown) =>
  new StoreError(
    'outcome-unknown',
    'The connection to the PostgreSQL database was lost while a change was being written, and whether it was stored is not ' +
      'known; it was not written again. Check the data it concerns once the database answers again.',
    { cause },
  );

/**
 * The engine's connections over `pool`. A query that meets a lost connection is tried again, for up
 * to `retryForMs`, when that is safe: a connection that could not be opened (nothing was sent), or
 * a statement that only reads. A write whose connection went away after it was sent fails with
 * StoreError('outcome-unknown'), never repeated; transactions (`inTransaction`) find out how theirs ended.
 */
export function connectPg(pool: pg.Pool, options: PgConnectionOptions = {}): PgConnections {
  const retryForMs = options.retryForMs ?? 15_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let reachable = true;
  let losses = 0;
  const lost = (error: unknown) => {
    reachable = false;
    losses += 1;
    options.onLoss?.(error);
  };
  const answered = () => void (reachable = true);
  const backOff = async (attempt: number, since: number) => {
    if (Date.now() - since >= retryForMs) return false;
    await sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 5)));
    return true;
  };
  // Every client gets a listener for its connection's errors the moment the pool makes it: pg-pool
  // takes its own listener off a client it hands out, and a connection ended in the same read as
  // the answer that completed it would otherwise throw out of the process before the caller could
  // add one. The operation that meets the loss counts it.
  pool.on('connect', (client) => client.on('error', () => void (reachable = false)));
  /** A client of the pool; opening it is tried again while it fails (nothing was sent yet). */
  const connect = async (): Promise<pg.PoolClient> => {
    const since = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await pool.connect();
      } catch (error) {
        if (!isConnectionLoss(error)) throw error;
        lost(error);
        if (!(await backOff(attempt, since))) throw unreachable(error);
      }
    }
  };
  return {
    connect,
    backOff,
    answered,
    lost,
    state: () => ({ reachable, losses }),
    async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]) {
      const since = Date.now();
      for (let attempt = 0; ; attempt++) {
        const client = await connect();
        try {
          const result = await client.query<R>(text, values);
          client.release();
          answered();
          return result;
        } catch (error) {
          const lostNow = isConnectionLoss(error);
          // A client whose connection went away is dropped, not handed out again.
          client.release(lostNow ? (error as Error) : undefined);
          if (!lostNow) throw error;
          lost(error);
          if (!isRead(text)) throw outcomeUnknown(error);
          if (!(await backOff(attempt, since))) throw unreachable(error);
        }
      }
    },
  };
}

/** How a transaction whose COMMIT got no answer ended, asked on another connection until it is known (or time runs out). */
async function commitOutcome(db: PgConnections, xid: string, since: number): Promise<'committed' | 'aborted' | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { rows } = await db.query<{ status: string | null }>('SELECT pg_xact_status($1::xid8) AS status', [xid]);
      const status = rows[0]?.status;
      if (status === 'committed' || status === 'aborted') return status;
      // 'in progress': the ended backend is still finishing it.
    } catch (error) {
      if (!isConnectionLoss(error) && !(error instanceof StoreError && error.code === 'unavailable')) throw error;
    }
    if (!(await db.backOff(attempt, since))) return undefined;
  }
}

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. When the
 * connection is lost, it is run again on another one (for up to `retryForMs`) if it did not commit:
 * lost before COMMIT was sent, or after, once `pg_xact_status` of its id says aborted. One that did
 * commit resolves with its result; one whose end cannot be found out fails with
 * StoreError('outcome-unknown'). So `work` may run more than once: queries on `client` only, no side effects.
 */
export async function inTransaction<T>(db: PgConnections, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const since = Date.now();
  for (let attempt = 0; ; attempt++) {
    const client = await db.connect();
    let xid: string | undefined;
    let commitSent = false;
    let result: T | undefined;
    try {
      // The transaction's id, taken at its start, says later how it ended if COMMIT gets no answer.
      const started = (await client.query('BEGIN; SELECT pg_current_xact_id()::text AS xid')) as unknown as pg.QueryResult[];
      xid = (started[1]?.rows[0] as { xid?: string } | undefined)?.xid;
      result = await work(client);
      commitSent = true;
      await client.query('COMMIT');
      client.release();
      db.answered();
      return result;
    } catch (error) {
      if (!isConnectionLoss(error)) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release();
        throw error;
      }
      client.release(error as Error);
      db.lost(error);
      if (commitSent) {
        const outcome = xid === undefined ? undefined : await commitOutcome(db, xid, since);
        if (outcome === 'committed') return result as T;
        if (outcome === undefined) throw outcomeUnknown(error);
      }
      if (!(await db.backOff(attempt, since))) throw unreachable(error);
    }
  }
}

/** True for PostgreSQL's unique_violation (optionally of one constraint or index). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const { code, constraint: violated } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && (constraint === undefined || violated === constraint);
}

/** The rows' first column `column`, typed by the caller (records are validated where they are built). */
export async function column<T>(db: Queryable, column: string, text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await db.query<Record<string, T>>(text, values);
  return rows.map((row) => row[column] as T);
}

/** LIMIT and OFFSET of a listing's page (default 10 from the first). */
export const page = (options: { limit?: number; offset?: number } = {}) => [
  Math.max(0, options.limit ?? 10),
  Math.max(0, options.offset ?? 0),
];

/** The first row's `column`, or undefined without a row. */
export async function first<T>(db: Queryable, name: string, text: string, values: unknown[] = []): Promise<T | undefined> {
  const [value] = await column<T>(db, name, text, values);
  return value;
}

/**
 * Queues `item` (built by buildOutboxItem) unless a pending item has its dedupeKey; resolves the
 * queued one. The unique index on dedupe_key decides a race.
 */
export async function insertOutbox(db: Queryable, item: OutboxItem): Promise<OutboxItem> {
  const inserted = await first<OutboxItem>(
    db,
    'item',
    `INSERT INTO outbox (id, chat_id, due_at, dedupe_key, item) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING item`,
    [item.id, item.chatId, outboxDueTime(item), item.dedupeKey ?? null, item],
  );
  if (inserted) return inserted;
  const pending = await first<OutboxItem>(db, 'item', 'SELECT item FROM outbox WHERE dedupe_key = $1', [item.dedupeKey]);
  // Sent and removed between the two statements: queue it after all.
  return pending ?? insertOutbox(db, item);
}
