import pg from 'pg';
import { leasedTables } from './heartbeat-thread.ts';
import type { GroupStore, OutboxStore, StoreEngine, UserStore } from '../contract.ts';
import type { StoreError } from '../errors.ts';
import { buildOutboxItem, checkRetarget, outboxDueTime, patchedOutboxItem, type OutboxEntry, type OutboxItem } from '../records/outbox.ts';
import { newGroupRecord, type GroupRecord } from '../records/groups.ts';
import { matchesUserFilter, newUserRecord, patchedUser, refreshPatch, type UserFilter, type UserRecord } from '../records/users.ts';
import { column, connectPg, first, inTransaction, insertOutbox, isConnectionLoss, type PgConnections, type Queryable } from './db.ts';
import { connectionBudget, defaultConnectionBudget } from './budget.ts';
import { createPgChatLocks, lockSessionOptions } from './chat-locks.ts';
import { createPgInbox } from './inbox.ts';
import { createPgBroadcasts } from './broadcasts.ts';
import { createPgSendSlots } from './send-slots.ts';
import { createPgSendClaims } from './send-claims.ts';
import { checkStoreImport, migratePg } from './migrate.ts';
import { checkPgKey } from './key-check.ts';
import type { Vault } from '../vault.ts';
import { createPgBalances, createPgConversations, createPgCredentials, createPgGameOrders, createPgPriceWatch } from './repositories.ts';
import { createPgTransactions } from './transactions.ts';
import { createPgLedger } from './ledger.ts';

export interface PgEngineOptions {
  /** A `postgres://` URL; or give `pool`. */
  connectionString?: string;
  /** A pool the caller owns (not ended by `close`). */
  pool?: pg.Pool;
  now?: () => Date;
  /** Connections of the engine's own pool (default: `connectionBudget(20).queries`). */
  max?: number;
  /** Connections that hold per-chat locks: how many chats one instance handles at once (default `connectionBudget(20).chatLocks`). */
  chatLockConnections?: number;
  /** Shown in `pg_stat_activity.application_name` (first 63 bytes), so an operator can count an instance's connections. */
  applicationName?: string;
  /** How long an operation keeps trying while the database cannot be reached (default 15 s). */
  retryForMs?: number;
  /** Told when an operation met a lost connection, or could not open one. */
  onConnectionLost?: (error: unknown) => void;
  /** Told when the connection holding send claims is lost while their provider calls run (send-claims.ts). */
  onSendClaimsLost?: (refIds: string[], error: StoreError) => void;
  /** How often a sender waiting for another instance's send claim asks again (default 100 ms). */
  sendClaimPollMs?: number;
  /** Told when the connection holding a chat's lock is lost while its work runs (chat-locks.ts). */
  onLockLost?: (chatId: number, error: StoreError) => void;
  /** Told when the server closes an idle connection (without a listener node-postgres would throw it out of the process). */
  onIdleError?: (error: Error) => void;
  /** The key check value must open with it (key-check.ts), else StoreKeyError; without one nothing is checked (contract tests). */
  vault?: Vault;
}

/**
 * Opens the store contract on PostgreSQL: applies the pending migrations (migrate.ts), refuses a
 * database whose copy from lowdb did not finish, then serves every repository from the database,
 * so several instances may share it. Uniqueness is left to constraints and claims to
 * `FOR UPDATE SKIP LOCKED`, never to a read followed by a write.
 */
export async function openPgEngine(options: PgEngineOptions): Promise<StoreEngine> {
  const owned = options.pool === undefined;
  const budget = connectionBudget(defaultConnectionBudget);
  const session = {
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName.slice(0, 63) }),
    // A server that vanished without closing the connection (a fail-over, a cut network) is noticed.
    keepAlive: true,
  };
  const raw = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: options.max ?? budget.queries, ...session });
  const now = options.now ?? (() => new Date());
  const onIdleError = (error: Error) => options.onIdleError?.(error);
  if (owned) raw.on('error', onIdleError);
  const connections = { retryForMs: options.retryForMs, onLoss: options.onConnectionLost };
  const pool = connectPg(raw, connections);
  try {
    await prepare(raw, pool, options.vault, now);
  } catch (error) {
    if (owned) await raw.end();
    throw error;
  }
  // Same server and credentials as the engine's pool (a caller's pool too), connections of their own.
  const lockPool = new pg.Pool({
    ...raw.options,
    ...session,
    max: options.chatLockConnections ?? budget.chatLocks,
    options: lockSessionOptions,
  });
  const chatLocks = createPgChatLocks(connectPg(lockPool, connections), { onLockLost: options.onLockLost });
  // One connection of its own holds every send claim of the instance (send-claims.ts says why).
  const claimPool = new pg.Pool({ ...raw.options, ...session, max: 1 });
  const sendClaims = createPgSendClaims(connectPg(claimPool, connections), {
    pollMs: options.sendClaimPollMs,
    onClaimsLost: options.onSendClaimsLost,
  });
  lockPool.on('error', onIdleError);
  claimPool.on('error', onIdleError);
  let closing: Promise<void> | undefined;
  return {
    kind: 'postgres',
    chatLocks,
    health: () => {
      const state = pool.state();
      return { reachable: state.reachable, connectionLosses: state.losses, locksLost: chatLocks.lostCount() + sendClaims.lostCount() };
    },
    sendSlots: createPgSendSlots(pool),
    sendClaims,
    async renewLeases({ owner, ms }) {
      const until = new Date(now().getTime() + ms).toISOString();
      // One statement per table for every claim of the instance (its heartbeat), not one timer per claim.
      for (const table of leasedTables) await pool.query(`UPDATE ${table} SET lease_until = $2 WHERE lease_owner = $1`, [owner, until]);
    },
    users: createPgUsers(pool, now),
    credentials: createPgCredentials(pool),
    transactions: createPgTransactions(pool, now),
    ledger: createPgLedger(pool, now),
    outbox: createPgOutbox(pool, now),
    conversations: createPgConversations(pool),
    groups: createPgGroups(pool, now),
    gameOrders: createPgGameOrders(pool, now),
    inbox: createPgInbox(pool, now),
    balances: createPgBalances(pool, now),
    broadcasts: createPgBroadcasts(pool, now),
    priceWatch: createPgPriceWatch(pool),
    close() {
      // Safe to call twice (the pools end once).
      closing ??= (async () => {
        // Waits for a lock end within a second; then the lock connections can go.
        chatLocks.close();
        await sendClaims.close();
        await Promise.all([lockPool.end(), claimPool.end()]);
        if (owned) await raw.end();
      })();
      return closing;
    },
  };
}

/** Locks and reads a user row inside a transaction. */
const lockUser = (client: Queryable, id: number) =>
  first<UserRecord>(client, 'record', 'SELECT record FROM users WHERE id = $1 FOR UPDATE', [id]);

const writeUser = (client: Queryable, user: UserRecord) =>
  client.query('UPDATE users SET active = $2, record = $3 WHERE id = $1', [user.id, user.active, user]);

/** The rows of the users with a price watch: the predicate of their partial index (migration 009), word for word. */
const priceWatcherRows = "record -> 'priceWatch' IS NOT NULL";
/** A downline's upline id as migration 010 indexes it. */
const byUpline = "(record->'membership'->>'uplineId')::bigint";

function createPgUsers(pool: PgConnections, now: () => Date): UserStore {
  const update: UserStore['update'] = (id, patch, options = {}) =>
    inTransaction(pool, async (client) => {
      const existing = await lockUser(client, id);
      if (!existing) return undefined;
      const next = patchedUser(existing, patch);
      const notify = options.notify ?? [];
      if (notify.length === 0 && JSON.stringify(next) === JSON.stringify(existing)) return existing;
      await writeUser(client, next);
      const at = now();
      for (const item of notify) await insertOutbox(client, buildOutboxItem(item, at));
      return next;
    });
  // The price watchers' condition is written out, not switched by a parameter: it is the predicate
  // of their partial index (migration 009) word for word, so every plan of the query can use it.
  const usersWhere = (filter: UserFilter | undefined) =>
    `($1::boolean IS NULL OR active = $1)${filter?.priceWatchers ? ` AND ${priceWatcherRows}` : ''}`;
  const whereValues = (filter: UserFilter | undefined) => [filter?.active ?? null];
  const listed = async (filter: UserFilter | undefined) =>
    filter?.uplineId === undefined
      ? column<UserRecord>(pool, 'record', `SELECT record FROM users WHERE ${usersWhere(filter)} ORDER BY id`, whereValues(filter))
      : // An upline's downlines by the index of migration 010, not a scan of every user.
        column<UserRecord>(pool, 'record', `SELECT record FROM users WHERE record ? 'membership' AND ${byUpline} = $1 ORDER BY id`, [
          filter.uplineId,
        ]);
  const transact: UserStore['transact'] = (ids, change) =>
    inTransaction(pool, async (client) => {
      // Locked in id order, so two changes of the same users wait for each other instead of deadlocking.
      const rows = await column<UserRecord>(
        client,
        'record',
        'SELECT record FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
        [[...new Set(ids)]],
      );
      const current = new Map(rows.map((user) => [user.id, user]));
      const { patches, notify = [], result } = change(current);
      for (const { id, patch } of patches) {
        const existing = current.get(id);
        if (existing) await writeUser(client, patchedUser(existing, patch));
      }
      const at = now();
      for (const item of notify) await insertOutbox(client, buildOutboxItem(item, at));
      return result;
    });

  return {
    get: (id) => first<UserRecord>(pool, 'record', 'SELECT record FROM users WHERE id = $1', [id]),
    async upsert(input) {
      const user = newUserRecord(input, now());
      const created = await first<UserRecord>(
        pool,
        'record',
        'INSERT INTO users (id, active, record) VALUES ($1, true, $2) ON CONFLICT (id) DO NOTHING RETURNING record',
        [user.id, user],
      );
      if (created) return { user: created, created: true };
      const refreshed = await update(input.id, refreshPatch(input));
      if (!refreshed) throw new Error(`unreachable: user ${input.id} exists but cannot be updated`);
      return { user: refreshed, created: false };
    },
    update,
    setActive: (id, active) => update(id, { active }),
    transact,
    list: async (filter) => (await listed(filter)).filter((user) => matchesUserFilter(user, filter)),
    async count(filter) {
      if (filter?.where !== undefined || filter?.uplineId !== undefined)
        return (await listed(filter)).filter((user) => matchesUserFilter(user, filter)).length;
      const n = await first<string>(pool, 'n', `SELECT count(*) AS n FROM users WHERE ${usersWhere(filter)}`, whereValues(filter));
      return Number(n ?? 0);
    },
  };
}

function createPgOutbox(pool: PgConnections, now: () => Date): OutboxStore {
  const items = (text: string, values: unknown[] = []) => column<OutboxItem>(pool, 'item', text, values);
  return {
    enqueue: (input) => insertOutbox(pool, buildOutboxItem(input, now())),
    get: (id) => first<OutboxItem>(pool, 'item', 'SELECT item FROM outbox WHERE id = $1', [id]),
    list: () => items('SELECT item FROM outbox ORDER BY id'),
    listDue: (at) => items('SELECT item FROM outbox WHERE due_at <= $1 ORDER BY due_at, id', [at.toISOString()]),
    async claim(id, lease) {
      const at = now();
      return first<OutboxItem>(
        pool,
        'item',
        `UPDATE outbox SET lease_owner = $2, lease_until = $3
         WHERE id = $1 AND (lease_until IS NULL OR lease_until <= $4 OR lease_owner = $2) RETURNING item`,
        [id, lease.owner, new Date(at.getTime() + lease.ms).toISOString(), at.toISOString()],
      );
    },
    async claimDue(at, { limit, lease }) {
      // SKIP LOCKED: a row another claimer is taking right now is passed over, never waited for.
      const { rows } = await pool.query<{ item: OutboxItem; due_at: Date }>(
        `WITH due AS (
           SELECT id FROM outbox WHERE due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
           ORDER BY due_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE outbox o SET lease_owner = $3, lease_until = $4 FROM due WHERE o.id = due.id
         RETURNING o.item, o.due_at`,
        [at.toISOString(), limit, lease.owner, new Date(at.getTime() + lease.ms).toISOString()],
      );
      return rows.sort((a, b) => a.due_at.getTime() - b.due_at.getTime() || (a.item.id < b.item.id ? -1 : 1)).map((row) => row.item);
    },
    update: (id, patch) =>
      inTransaction(pool, async (client) => {
        const existing = await first<OutboxItem>(client, 'item', 'SELECT item FROM outbox WHERE id = $1 FOR UPDATE', [id]);
        if (!existing) return undefined;
        const next = patchedOutboxItem(existing, patch);
        await client.query('UPDATE outbox SET due_at = $2, item = $3, lease_owner = NULL, lease_until = NULL WHERE id = $1', [
          id,
          outboxDueTime(next),
          next,
        ]);
        return next;
      }),
    async remove(id) {
      const { rowCount } = await pool.query('DELETE FROM outbox WHERE id = $1', [id]);
      return (rowCount ?? 0) > 0;
    },
    size: async () => Number(await first<string>(pool, 'n', 'SELECT count(*) AS n FROM outbox')),
    async entries() {
      const { rows } = await pool.query<OutboxEntry>(
        `SELECT item->>'id' AS id, chat_id::float8 AS "chatId", item->>'createdAt' AS "createdAt",
                (item->>'attempts')::int AS attempts, item->>'notBefore' AS "notBefore" FROM outbox`,
      );
      return rows.map(({ notBefore, ...entry }) => (notBefore === null || notBefore === undefined ? entry : { ...entry, notBefore }));
    },
    async retarget(fromChatId, toChatId) {
      checkRetarget(toChatId);
      const { rowCount } = await pool.query(
        `UPDATE outbox SET chat_id = $2, item = jsonb_set(item, '{chatId}', to_jsonb($2::bigint)) WHERE chat_id = $1`,
        [fromChatId, toChatId],
      );
      return rowCount ?? 0;
    },
  };
}

function createPgGroups(pool: PgConnections, now: () => Date): GroupStore {
  const linked = (chatId: number, record: GroupRecord) => ({ chatId, ...record });
  /**
   * Group changes touch two groups and two users in an order known only as they go: they take
   * turns fleet-wide (links are rare), so they can neither deadlock nor race the one-group-per-owner key.
   */
  const inGroupChange = <T>(work: (client: pg.PoolClient) => Promise<T>) =>
    inTransaction(pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('kiosbot:groups', 0))`);
      return work(client);
    });

  /** Drops `chatId` from the user's record if it is their linked group. */
  const unlinkUser = async (client: Queryable, userId: number, chatId: number) => {
    const user = await lockUser(client, userId);
    if (user?.linkedGroupId !== chatId) return;
    const { linkedGroupId: _gone, ...rest } = user;
    await writeUser(client, rest);
  };

  /** Puts `record` at `chatId` (see groups.ts `place`): the previous owner and the owner's previous group let go. */
  const place = async (client: Queryable, chatId: number, record: GroupRecord) => {
    const owner = await lockUser(client, record.ownerId);
    const previous = await first<string>(client, 'owner_id', 'SELECT owner_id FROM groups WHERE chat_id = $1 FOR UPDATE', [chatId]);
    if (previous !== undefined && Number(previous) !== record.ownerId) await unlinkUser(client, Number(previous), chatId);
    await client.query('DELETE FROM groups WHERE owner_id = $1 AND chat_id <> $2', [record.ownerId, chatId]);
    await client.query(
      `INSERT INTO groups (chat_id, owner_id, record) VALUES ($1, $2, $3)
       ON CONFLICT (chat_id) DO UPDATE SET owner_id = EXCLUDED.owner_id, record = EXCLUDED.record`,
      [chatId, record.ownerId, record],
    );
    if (owner && owner.linkedGroupId !== chatId) await writeUser(client, { ...owner, linkedGroupId: chatId });
  };

  return {
    async link({ chatId, ownerId, title }) {
      const record = newGroupRecord({ ownerId, title }, now());
      await inGroupChange((client) => place(client, chatId, record));
      return linked(chatId, record);
    },
    migrate: (oldId, newId) =>
      inGroupChange(async (client) => {
        if (oldId === newId) return false;
        const record = await first<GroupRecord>(client, 'record', 'DELETE FROM groups WHERE chat_id = $1 RETURNING record', [oldId]);
        if (!record) return false;
        await place(client, newId, record);
        return true;
      }),
    unlink: (chatId) =>
      inGroupChange(async (client) => {
        const record = await first<GroupRecord>(client, 'record', 'DELETE FROM groups WHERE chat_id = $1 RETURNING record', [chatId]);
        if (!record) return false;
        await unlinkUser(client, record.ownerId, chatId);
        return true;
      }),
    async get(chatId) {
      const record = await first<GroupRecord>(pool, 'record', 'SELECT record FROM groups WHERE chat_id = $1', [chatId]);
      return record ? linked(chatId, record) : undefined;
    },
    async byOwner(ownerId) {
      const { rows } = await pool.query<{ chat_id: string; record: GroupRecord }>(
        'SELECT chat_id, record FROM groups WHERE owner_id = $1 ORDER BY chat_id',
        [ownerId],
      );
      return rows.map((row) => linked(Number(row.chat_id), row.record));
    },
  };
}

/**
 * Brings the database up to date and checks it (migrations, an unfinished copy, the key check).
 * The database may be restarting while an instance starts: a lost connection is waited out for
 * the connections' `retryForMs` (each migration commits with its row, so running them again is safe).
 */
async function prepare(raw: pg.Pool, pool: PgConnections, vault: Vault | undefined, now: () => Date): Promise<void> {
  const since = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      await migratePg(raw);
      await checkStoreImport(pool);
      if (vault) await checkPgKey(pool, vault, `the PostgreSQL database ${databaseName(raw)}`, now());
      return;
    } catch (error) {
      if (!isConnectionLoss(error)) throw error;
      pool.lost(error);
      if (!(await pool.backOff(attempt, since))) throw error;
    }
  }
}

/** The database's name (no host, user or password), for messages. */
function databaseName(pool: pg.Pool): string {
  return pool.options.database ?? (pool.options.connectionString ? new URL(pool.options.connectionString).pathname.slice(1) : 'kiosbot');
}
