import { serviceNames, type ServiceName } from '../../domain.ts';
import { balancesKeptPerUser } from '../records/balances.ts';
import { validated } from '../records/validation.ts';
import type { BalanceStore, ConversationStore, CredentialStore, GameOrderStore, PriceWatchStore } from '../contract.ts';
import { buildOutboxItem } from '../records/outbox.ts';
import { fromStoredSnapshot, toStoredSnapshot } from '../records/price-watch.ts';
import { credentialSchema, type CredentialRecord } from '../records/credentials.ts';
import { gameOrderSchema, type GameOrderRecord } from '../records/game-orders.ts';
import { column, first, inTransaction, insertOutbox, page, type PgConnections } from './db.ts';

/** Sealed credentials, one row per user and service. */
export function createPgCredentials(pool: PgConnections): CredentialStore {
  return {
    async saveSealed(userId, input) {
      const record = validated(credentialSchema, input, 'credential');
      await pool.query(
        `INSERT INTO credentials (user_id, service, record) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, service) DO UPDATE SET record = EXCLUDED.record`,
        [userId, record.service, record],
      );
    },
    sealed: (userId, service) =>
      first<CredentialRecord>(pool, 'record', 'SELECT record FROM credentials WHERE user_id = $1 AND service = $2', [userId, service]),
    async remove(userId, service) {
      const { rowCount } = await pool.query('DELETE FROM credentials WHERE user_id = $1 AND service = $2', [userId, service]);
      return (rowCount ?? 0) > 0;
    },
    listServices: (userId) =>
      // In the order connected, as the data directory keeps them: the bot lists them so (/disconnect).
      column<ServiceName>(pool, 'service', "SELECT service FROM credentials WHERE user_id = $1 ORDER BY record->>'connectedAt', service", [
        userId,
      ]),
    async countByService() {
      const { rows } = await pool.query<{ service: ServiceName; n: string }>(
        'SELECT service, count(*) AS n FROM credentials GROUP BY service',
      );
      const counts = Object.fromEntries(serviceNames.map((service) => [service, 0])) as Record<ServiceName, number>;
      for (const row of rows) if (row.service in counts) counts[row.service] = Number(row.n);
      return counts;
    },
  };
}

/** Sealed conversation states by key. */
export function createPgConversations(pool: PgConnections): ConversationStore {
  const remove = async (key: string) => {
    await pool.query('DELETE FROM conversations WHERE key = $1', [key]);
  };
  return {
    readSealed: (key) => first<string>(pool, 'sealed', 'SELECT sealed FROM conversations WHERE key = $1', [key]),
    async writeSealed(key, sealed) {
      if (sealed === undefined) return remove(key);
      await pool.query('INSERT INTO conversations (key, sealed) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET sealed = EXCLUDED.sealed', [
        key,
        sealed,
      ]);
    },
    delete: remove,
  };
}

/** Game shop orders; an order and its reminders are written in one transaction. */
export function createPgGameOrders(pool: PgConnections, now: () => Date): GameOrderStore {
  return {
    save: (order, options = {}) =>
      inTransaction(pool, async (client) => {
        const at = now();
        const items = (options.notify ?? []).map((item) => buildOutboxItem(item, at));
        const record = validated(gameOrderSchema, items.length > 0 ? { ...order, reminderQueued: true } : order, 'game order');
        await client.query(
          `INSERT INTO game_orders (order_id, user_id, created_at, record) VALUES ($1, $2, $3, $4)
           ON CONFLICT (order_id) DO UPDATE SET user_id = EXCLUDED.user_id, created_at = EXCLUDED.created_at, record = EXCLUDED.record`,
          [record.orderId, record.userId, record.createdAt, record],
        );
        for (const item of items) await insertOutbox(client, item);
        return record;
      }),
    get: (orderId) => first<GameOrderRecord>(pool, 'record', 'SELECT record FROM game_orders WHERE order_id = $1', [orderId]),
    listByUser: (userId, options) =>
      column<GameOrderRecord>(
        pool,
        'record',
        'SELECT record FROM game_orders WHERE user_id = $1 ORDER BY created_at DESC, order_id DESC LIMIT $2 OFFSET $3',
        [userId, ...page(options)],
      ),
  };
}

/** Balance movements: a value is stored when it changed, the last `balancesKeptPerUser` per user kept. */
export function createPgBalances(pool: PgConnections, now: () => Date): BalanceStore {
  return {
    record: (userId, account, balance) =>
      inTransaction(pool, async (client) => {
        // Two reads racing (two instances) take turns per user, so an unchanged value is stored once.
        await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('kiosbot:balances:' || $1::text, 0))`, [userId]);
        const last = await first<string>(
          client,
          'balance',
          'SELECT balance FROM balances WHERE user_id = $1 AND account = $2 ORDER BY id DESC LIMIT 1',
          [userId, account],
        );
        if (last !== undefined && Number(last) === balance) return false;
        await client.query('INSERT INTO balances (user_id, account, at, balance) VALUES ($1, $2, to_timestamp($3), $4)', [
          userId,
          account,
          Math.floor(now().getTime() / 1000),
          balance,
        ]);
        await client.query(
          'DELETE FROM balances WHERE user_id = $1 AND id NOT IN (SELECT id FROM balances WHERE user_id = $1 ORDER BY id DESC LIMIT $2)',
          [userId, balancesKeptPerUser],
        );
        return true;
      }),
    async list(userId, range) {
      const { rows } = await pool.query<{ at: Date; balance: string; account: string }>(
        `SELECT at, balance, account FROM balances WHERE user_id = $1
         AND ($2::timestamptz IS NULL OR at >= $2) AND ($3::timestamptz IS NULL OR at < $3) ORDER BY id`,
        [userId, range?.from.toISOString() ?? null, range?.to.toISOString() ?? null],
      );
      return rows.map((row) => ({ at: row.at.toISOString(), balance: Number(row.balance), account: row.account }));
    },
  };
}

/** The last price snapshot of each watched account. */
export function createPgPriceWatch(pool: PgConnections): PriceWatchStore {
  return {
    async get(accountKey) {
      const stored = await first<unknown>(pool, 'snapshot', 'SELECT snapshot FROM price_watch WHERE account_key = $1', [accountKey]);
      return stored === undefined ? undefined : fromStoredSnapshot(stored);
    },
    async save(accountKey, snapshot) {
      await pool.query(
        `INSERT INTO price_watch (account_key, snapshot) VALUES ($1, $2)
         ON CONFLICT (account_key) DO UPDATE SET snapshot = EXCLUDED.snapshot`,
        [accountKey, JSON.stringify(toStoredSnapshot(snapshot))],
      );
    },
    async retain(accountKeys) {
      await pool.query('DELETE FROM price_watch WHERE NOT (account_key = ANY($1::text[]))', [[...accountKeys]]);
    },
  };
}
