/**
 * Moving a store from lowdb to PostgreSQL (`npm run migrate-store -- --to postgres`): every record
 * of a data directory is copied into an empty database, then each table is compared with the data
 * directory by its row count and a checksum PostgreSQL computes over the stored rows.
 *
 * - The data directory is opened like the bot opens it (its lock taken, the key checked, what a
 *   crash left half done finished) and only read after that.
 * - Secrets are copied sealed, as they are stored: the database never sees a plain key.
 * - `store_import` says `copying` (committed before the first row) until the copy is verified,
 *   then `done`; an engine refuses a database whose copy is not `done` (`checkStoreImport`), so a
 *   copy cut short is never served. Running the command again starts it over.
 * - All rows go in one transaction: a copy that fails leaves the tables empty.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { balancesFileName, decodeBalancesFile } from '../store/balances.ts';
import { broadcastsFileName, decodeBroadcastsFile } from '../store/broadcasts.ts';
import { unsealJson } from '../store/durable-file.ts';
import { readInboxEntries } from '../store/inbox-log.ts';
import { decodePriceWatchFile, priceWatchFileName } from '../store/price-watch.ts';
import { decodeHotFile, type HotData } from '../store/schema.ts';
import { isFinalStatus } from '../store/records/transactions.ts';
import type { LedgerEntry } from '../store/records/ledger.ts';
import { hotFileName, openStore, type Store } from '../store/store.ts';
import { decodeUserShardFile, userShardCount, userShardFileName, type UserShardData } from '../store/user-shards.ts';
import type { Vault } from '../store/vault.ts';
import { writePgKeyCheck } from '../store/pg/key-check.ts';
import { connectPg, inTransaction, type PgConnections } from '../store/pg/db.ts';
import { outboxDueTime } from '../store/records/outbox.ts';
import { migratePg, StoreImportError } from '../store/pg/migrate.ts';
import { dueAt } from '../store/pg/transactions.ts';

/** A column: its name, its PostgreSQL type, and its value in a row. */
type Column<R> = readonly [name: string, type: string, value: (row: R) => unknown];

/**
 * One table: how a source row is inserted, and the row as one value (`canonical`) whose jsonb text
 * equals what the SQL expression `rowText` gives for the stored row: the checksum compares the two.
 */
interface Table<R> {
  name: string;
  columns: readonly Column<R>[];
  canonical: (row: R) => unknown;
  rowText: string;
}

/** Every row of one table, read from the data directory: all at once, or a batch at a time. */
interface SourceTable<R> {
  table: Table<R>;
  batches: Iterable<readonly R[]> | AsyncIterable<readonly R[]>;
}

/** Milliseconds since the epoch of an ISO time, as the checksum compares times (SQL: see `epochMs`). */
const ms = (value: string) => Date.parse(value);
/** The SQL of a timestamptz column as epoch milliseconds (a number in jsonb, whatever the session's time zone). */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint`;

function table<R>(definition: Table<R>): Table<R> {
  return definition;
}

/** A table whose `json` column holds the whole row, after `columns`: the checksum compares that column. */
function wholeRowTable<R>(name: string, columns: readonly Column<R>[], json = 'record'): Table<R> {
  return { name, columns: [...columns, [json, 'jsonb', (row) => JSON.stringify(row)]], canonical: (row) => row, rowText: `${json}::text` };
}

/** A table of records by key (`keyColumn`, then `columns` of the record, then the record as jsonb), checksummed as [key, record]. */
function keyedTable<V>(
  name: string,
  keyColumn: readonly [name: string, type: string],
  columns: readonly Column<V>[],
  json = 'record',
): Table<{ key: number | string; record: V }> {
  return {
    name,
    columns: [
      [...keyColumn, (row) => row.key],
      ...columns.map(([column, type, value]) => [column, type, (row: { record: V }) => value(row.record)] as const),
      [json, 'jsonb', (row) => JSON.stringify(row.record)],
    ],
    canonical: (row) => [row.key, row.record],
    rowText: `jsonb_build_array(${keyColumn[0]}, ${json})::text`,
  };
}

const tables = {
  users: wholeRowTable<HotData['pendingUsers'][string]>('users', [
    ['id', 'bigint', (user) => user.id],
    ['active', 'boolean', (user) => user.active],
  ]),
  credentials: keyedTable<UserShardData['credentials'][string]>(
    'credentials',
    ['user_id', 'bigint'],
    [['service', 'text', (r) => r.service]],
  ),
  conversations: table<{ key: string; sealed: string }>({
    name: 'conversations',
    columns: [
      ['key', 'text', (row) => row.key],
      ['sealed', 'text', (row) => row.sealed],
    ],
    canonical: (row) => [row.key, row.sealed],
    rowText: 'jsonb_build_array(key, sealed)::text',
  }),
  transactions: wholeRowTable<HotData['transactions'][string]>('transactions', [
    ['ref_id', 'text', (tx) => tx.refId],
    ['user_id', 'bigint', (tx) => tx.userId],
    ['final', 'boolean', (tx) => isFinalStatus(tx.status)],
    ['created_at', 'timestamptz', (tx) => tx.createdAt],
    ['due_at', 'timestamptz', dueAt],
    ['target', 'text', (tx) => tx.target],
    ['trx_id', 'text', (tx) => tx.trxId ?? null],
  ]),
  confirmations: table<{ id: string; refIds: string[]; at: string }>({
    name: 'confirmations',
    columns: [
      ['id', 'text', (row) => row.id],
      // An array column cannot go through unnest (it would be flattened): jsonb, turned back below.
      ['ref_ids', 'jsonb', (row) => JSON.stringify(row.refIds)],
      ['at', 'timestamptz', (row) => row.at],
    ],
    canonical: (row) => [row.id, row.refIds, ms(row.at)],
    rowText: `jsonb_build_array(id, to_jsonb(ref_ids), ${epochMs('at')})::text`,
  }),
  outbox: wholeRowTable<HotData['outbox'][string]>(
    'outbox',
    [
      ['id', 'text', (item) => item.id],
      ['chat_id', 'bigint', (item) => item.chatId],
      ['due_at', 'timestamptz', outboxDueTime],
      ['dedupe_key', 'text', (item) => item.dedupeKey ?? null],
    ],
    'item',
  ),
  groups: keyedTable<HotData['groups'][string]>('groups', ['chat_id', 'bigint'], [['owner_id', 'bigint', (r) => r.ownerId]]),
  gameOrders: wholeRowTable<HotData['gameOrders'][string]>('game_orders', [
    ['order_id', 'text', (order) => order.orderId],
    ['user_id', 'bigint', (order) => order.userId],
    ['created_at', 'timestamptz', (order) => order.createdAt],
  ]),
  inbox: table<{ id: number; sealed: string; receivedAt: string; done?: true; attempts?: number }>({
    name: 'inbox',
    columns: [
      ['update_id', 'bigint', (entry) => entry.id],
      ['sealed', 'text', (entry) => entry.sealed],
      ['received_at', 'timestamptz', (entry) => entry.receivedAt],
      ['done', 'boolean', (entry) => entry.done === true],
      ['attempts', 'integer', (entry) => entry.attempts ?? 0],
    ],
    canonical: (entry) => [entry.id, entry.sealed, ms(entry.receivedAt), entry.done === true, entry.attempts ?? 0],
    rowText: `jsonb_build_array(update_id, sealed, ${epochMs('received_at')}, done, attempts)::text`,
  }),
  balances: table<{ userId: number; seconds: number; balance: number; account: string }>({
    name: 'balances',
    columns: [
      ['user_id', 'bigint', (entry) => entry.userId],
      ['account', 'text', (entry) => entry.account],
      ['at', 'timestamptz', (entry) => new Date(entry.seconds * 1000).toISOString()],
      ['balance', 'bigint', (entry) => entry.balance],
    ],
    canonical: (entry) => [entry.userId, entry.account, entry.seconds, entry.balance],
    rowText: 'jsonb_build_array(user_id, account, extract(epoch FROM at)::bigint, balance)::text',
  }),
  broadcasts: wholeRowTable<ReturnType<typeof decodeBroadcastsFile>['data']['jobs'][string]>(
    'broadcasts',
    [
      ['id', 'text', (job) => job.id],
      ['status', 'text', (job) => job.status],
      ['created_at', 'timestamptz', (job) => job.createdAt],
    ],
    'job',
  ),
  priceWatch: keyedTable<unknown>('price_watch', ['account_key', 'text'], [], 'snapshot'),
  ledgerWallets: table<{ wallet: number; upline: number; balance: number; entries: number }>({
    name: 'ledger_wallets',
    columns: [
      ['wallet', 'bigint', (row) => row.wallet],
      ['upline', 'bigint', (row) => row.upline],
      ['balance', 'bigint', (row) => row.balance],
      ['entries', 'integer', (row) => row.entries],
    ],
    canonical: (row) => [row.wallet, row.upline, row.balance, row.entries],
    rowText: 'jsonb_build_array(wallet, upline, balance, entries)::text',
  }),
  ledgerEntries: wholeRowTable<LedgerEntry>(
    'ledger_entries',
    [
      ['wallet', 'bigint', (entry) => entry.wallet],
      ['seq', 'integer', (entry) => entry.seq],
      ['key', 'text', (entry) => entry.key],
      ['ref_id', 'text', (entry) => entry.refId ?? null],
      ['kind', 'text', (entry) => entry.kind],
      ['amount', 'bigint', (entry) => entry.amount],
      ['balance', 'bigint', (entry) => entry.balance],
      ['created_at', 'timestamptz', (entry) => entry.createdAt],
    ],
    'entry',
  ),
};

/** The tables a copy fills, in the order it fills them. */
export const importedTables: readonly string[] = Object.values(tables).map((t) => t.name);

/** What a copy found and verified: rows and checksum per table (the same on both sides). */
export interface ImportReport {
  source: string;
  tables: Record<string, { rows: number; checksum: string }>;
}

export interface ImportOptions {
  /** The lowdb data directory (DATA_DIR). */
  dataDir: string;
  /** Opens the store (ENCRYPTION_KEY): the copy moves sealed secrets, but checks they are this key's. */
  vault: Vault;
  /** The target database. */
  pool: pg.Pool;
  now?: () => Date;
  /** Told as each table is copied (for the command's output). */
  onTable?: (name: string, rows: number) => void;
  /**
   * Runs after the rows were inserted and before they are read back (tests: a crash or a row lost
   * between the two). Not for production use.
   */
  beforeVerify?: (client: pg.PoolClient) => Promise<void>;
}

/** Copies `dataDir` into the database and verifies it; resolves the report once `store_import` says done. */
export async function importLowdbIntoPg(options: ImportOptions): Promise<ImportReport> {
  const now = options.now ?? (() => new Date());
  const source = path.resolve(options.dataDir);
  const { pool } = options;
  // A copy is never run again on its own (it reads its source once): a lost connection fails it,
  // without crashing the command, and it is started over by running the command again.
  const connections = connectPg(pool, { retryForMs: 0 });
  await migratePg(pool);
  // One copy at a time into one database: held on a connection of its own until this one ends.
  const guard = await connections.connect();
  let store: Store | undefined;
  try {
    const { rows } = await guard.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${importLockKey}) AS ok`);
    if (!rows[0]?.ok) {
      throw new StoreImportError(
        'Another `npm run migrate-store` is copying into this database right now; nothing was changed. Let it finish (or stop it), then run this again if you still need to.',
      );
    }
    // Opened like the bot opens it, before the database is marked (a running bot or a wrong key
    // leaves the database as it was); held open (its lock) until the copy is verified.
    store = await openStore({ dataDir: source, vault: options.vault, now });
    await claimTarget(connections, source, now);
    await store.flush();
    const wallets = store.ledger.wallets().map((wallet) => store!.ledger.entries(wallet));
    const sources = await readSource(source, store.transactions.batches(), wallets, now);
    const expected = new Map<string, { rows: number; checksum: string }>();
    const report: ImportReport = { source, tables: {} };
    await inTransaction(connections, async (client) => {
      // What an unfinished copy left (broadcast_deliveries, which no lowdb file has, goes with broadcasts).
      await client.query(`TRUNCATE ${[...importedTables, 'broadcast_deliveries'].join(', ')}`);
      for (const { table: t, batches } of sources) {
        let count = 0;
        let sum = 0n;
        for await (const rows of batches) {
          await insertRows(client, t, rows);
          count += rows.length;
          for (const row of rows) sum += rowHash(jsonbText(t.canonical(row)));
        }
        expected.set(t.name, { rows: count, checksum: sum.toString() });
        options.onTable?.(t.name, count);
      }
      if (options.beforeVerify) await options.beforeVerify(client);
    });
    const mismatched: string[] = [];
    for (const { table: t } of sources) {
      const want = expected.get(t.name)!;
      const got = await storedSummary(pool, t);
      if (got.rows !== want.rows || got.checksum !== want.checksum) {
        mismatched.push(
          `${t.name} (${want.rows} rows in the data directory, ${got.rows} in the database${got.rows === want.rows ? ', contents differ' : ''})`,
        );
      }
      report.tables[t.name] = want;
    }
    if (mismatched.length > 0) {
      throw new StoreImportError(
        `The copy did not verify: ${mismatched.join('; ')}. The database stays marked as an unfinished copy, so the bot will not open it; ` +
          'the data directory was left as it was. Run the command again; if it fails the same way, keep running the bot on DATA_DIR and report it.',
      );
    }
    // The key the data directory was opened with: an instance started with another is refused.
    await writePgKeyCheck(pool, options.vault, now(), { replace: true });
    await pool.query(`UPDATE store_import SET state = 'done', finished_at = $1, report = $2 WHERE id = 1`, [
      now().toISOString(),
      JSON.stringify(report),
    ]);
    return report;
  } finally {
    await store?.close();
    // Ending the session also ends the lock, should the unlock fail.
    await guard.query(`SELECT pg_advisory_unlock(${importLockKey})`).then(
      () => guard.release(),
      () => guard.release(true),
    );
  }
}

/** The advisory lock a copy holds for its whole run (any 64-bit number no other lock uses). */
const importLockKey = `hashtextextended('kiosbot:store-import', 0)`;

/**
 * Marks the database as receiving a copy of `source` (committed at once): refuses one that holds
 * kiosbot data already, or the finished copy of a data directory; an unfinished copy is started over.
 */
async function claimTarget(connections: PgConnections, source: string, now: () => Date): Promise<void> {
  await inTransaction(connections, async (client) => {
    // One copy at a time into one database.
    await client.query('LOCK TABLE store_import IN EXCLUSIVE MODE');
    const { rows } = await client.query<{ source: string; state: string; finished_at: Date | null }>(
      'SELECT source, state, finished_at FROM store_import',
    );
    const previous = rows[0];
    if (previous?.state === 'done') {
      throw new StoreImportError(
        `This database already holds a finished copy of ${previous.source} (${previous.finished_at?.toISOString() ?? ''}); nothing was changed. ` +
          'To copy again, use an empty database (`CREATE DATABASE …`) and point DATABASE_URL at it.',
      );
    }
    if (!previous) {
      const used: string[] = [];
      for (const name of importedTables) {
        const { rowCount } = await client.query(`SELECT 1 FROM ${name} LIMIT 1`);
        if ((rowCount ?? 0) > 0) used.push(name);
      }
      if (used.length > 0) {
        throw new StoreImportError(
          `This database already holds kiosbot data (${used.join(', ')}); nothing was changed. migrate-store copies into an empty database only: ` +
            'create one (`CREATE DATABASE …`) and point DATABASE_URL at it.',
        );
      }
    }
    await client.query(
      `INSERT INTO store_import (id, source, state, started_at) VALUES (1, $1, 'copying', $2)
       ON CONFLICT (id) DO UPDATE SET source = EXCLUDED.source, state = 'copying', started_at = EXCLUDED.started_at, finished_at = NULL, report = NULL`,
      [source, now().toISOString()],
    );
  });
}

/** Reads a data file's JSON (with or without its checksum), or undefined if there is none. */
async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(unsealJson(text) ?? text);
}

/**
 * Every table's rows, from the data files (read with the store open and flushed), and the
 * transactions a batch at a time (the history is the bulk of a store).
 */
async function readSource(
  dataDir: string,
  transactions: AsyncIterable<ReadonlyArray<HotData['transactions'][string]>>,
  wallets: readonly LedgerEntry[][],
  now: () => Date,
): Promise<Array<SourceTable<never>>> {
  const file = (name: string) => path.join(dataDir, name);
  const hot = decodeHotFile(await readJson(file(hotFileName)), hotFileName, now()).data;
  const users: Array<HotData['pendingUsers'][string]> = [];
  const credentials: Array<{ key: number; record: UserShardData['credentials'][string] }> = [];
  const conversations: Array<{ key: string; sealed: string }> = [];
  for (let index = 0; index < userShardCount; index++) {
    const name = userShardFileName(index);
    const raw = await readJson(file(name));
    if (raw === undefined) continue;
    const shard = decodeUserShardFile(raw, name).data;
    users.push(...Object.values(shard.users));
    for (const [key, record] of Object.entries(shard.credentials)) credentials.push({ key: Number(key.split(':')[0]), record });
    for (const [key, sealed] of Object.entries(shard.conversations)) conversations.push({ key, sealed });
  }
  const side = async <T>(name: string, decode: (raw: unknown, file: string) => { data: T }) => {
    const raw = await readJson(file(name));
    return raw === undefined ? undefined : decode(raw, name).data;
  };
  // The log, or the inbox file of before if the store never opened this directory since.
  const inbox = await readInboxEntries(dataDir);
  const balances = await side(balancesFileName, decodeBalancesFile);
  const broadcasts = await side(broadcastsFileName, decodeBroadcastsFile);
  const priceWatch = await side(priceWatchFileName, decodePriceWatchFile);
  const all = <R>(rows: readonly R[]) => [rows];
  const sources = [
    { table: tables.users, batches: all(users) },
    { table: tables.credentials, batches: all(credentials) },
    { table: tables.conversations, batches: all(conversations) },
    { table: tables.transactions, batches: transactions },
    { table: tables.confirmations, batches: all(Object.entries(hot.confirmations).map(([id, confirmation]) => ({ id, ...confirmation }))) },
    { table: tables.outbox, batches: all(Object.values(hot.outbox)) },
    { table: tables.groups, batches: all(Object.entries(hot.groups).map(([chatId, record]) => ({ key: Number(chatId), record }))) },
    { table: tables.gameOrders, batches: all(Object.values(hot.gameOrders)) },
    { table: tables.inbox, batches: all(inbox) },
    {
      table: tables.balances,
      // Oldest first per user, as the engine lists them (by id).
      batches: all(
        Object.entries(balances?.users ?? {}).flatMap(([userId, entries]) =>
          entries.map(([seconds, balance, account]) => ({ userId: Number(userId), seconds, balance, account })),
        ),
      ),
    },
    { table: tables.broadcasts, batches: all(Object.values(broadcasts?.jobs ?? {})) },
    {
      table: tables.priceWatch,
      batches: all(Object.entries(priceWatch?.accounts ?? {}).map(([key, record]) => ({ key, record }))),
    },
    // As the store reads them (ledger.json and the entries still on their way in the hot file).
    {
      table: tables.ledgerWallets,
      batches: all(
        wallets.flatMap((entries) => {
          const last = entries.at(-1);
          // Kept with the upline of its latest entry (a wallet moves once empty: records/ledger.ts).
          return last ? [{ wallet: last.wallet, upline: last.upline, balance: last.balance, entries: entries.length }] : [];
        }),
      ),
    },
    { table: tables.ledgerEntries, batches: all(wallets.flat()) },
  ];
  return sources as unknown as Array<SourceTable<never>>;
}

/** Rows per statement: large enough to be quick, small enough for PostgreSQL's parameter and memory limits. */
const batchSize = 2000;

async function insertRows<R>(client: pg.PoolClient, t: Table<R>, rows: readonly R[]): Promise<void> {
  const names = t.columns.map(([name]) => name).join(', ');
  // ref_ids is text[] in the table: the jsonb array each row carries becomes one.
  const selected = t.columns
    .map(([name], index) => (name === 'ref_ids' ? `ARRAY(SELECT jsonb_array_elements_text(c${index}))` : `c${index}`))
    .join(', ');
  const unnest = t.columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const aliases = t.columns.map((_, index) => `c${index}`).join(', ');
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    await client.query(
      `INSERT INTO ${t.name} (${names}) SELECT ${selected} FROM unnest(${unnest}) AS r(${aliases})`,
      t.columns.map(([, , value]) => batch.map((row) => value(row))),
    );
  }
}

/**
 * The checksum of one row: the first 60 bits of the md5 of its jsonb text, as a number. A table's
 * checksum is their sum (order does not matter), computed the same way in SQL (`storedSummary`).
 */
const rowHash = (text: string) => BigInt(`0x${createHash('md5').update(text).digest('hex').slice(0, 15)}`);

/** Count and checksum of a table as stored, computed by PostgreSQL over each row's `rowText` (no row leaves the server). */
async function storedSummary<R>(pool: pg.Pool, t: Table<R>): Promise<{ rows: number; checksum: string }> {
  const { rows } = await pool.query<{ rows: number; checksum: string }>(
    `SELECT count(*)::int AS rows, coalesce(sum(('x' || substr(md5(${t.rowText}), 1, 15))::bit(60)::bigint), 0)::text AS checksum FROM ${t.name}`,
  );
  return rows[0]!;
}

/**
 * The text PostgreSQL gives a jsonb value (`value::text`): object keys ordered by length, then
 * byte by byte; ", " and ": " between items; strings escaped as JSON. Numbers are written as
 * JavaScript writes them, which for the integers and plain decimals the store keeps is the same.
 */
export function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => jsonbText(item)).join(', ')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .map((key) => ({ key, bytes: Buffer.from(key) }))
    .sort((a, b) => a.bytes.length - b.bytes.length || Buffer.compare(a.bytes, b.bytes));
  return `{${keys.map(({ key }) => `${JSON.stringify(key)}: ${jsonbText(record[key])}`).join(', ')}}`;
}
