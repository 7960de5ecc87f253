/**
 * Runs the store contract tests on both engines. The lowdb engine gets a fresh data directory per
 * test; the PostgreSQL engine a database of its own per run (random name, created before the
 * suite and dropped after it) on the server at 127.0.0.1:5432 (`KIOSBOT_TEST_POSTGRES_URL`
 * names another), emptied between tests. Where no server answers, the PostgreSQL suite is skipped
 * with a warning; with CI=true or KIOSBOT_REQUIRE_POSTGRES=1 that is a failure instead.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import type { StoreEngine, StoreEngineKind } from '../../../src/store/contract.ts';
import { createLowdbEngine } from '../../../src/store/lowdb-engine.ts';
import { openPgEngine } from '../../../src/store/pg/engine.ts';
import { openStore } from '../../../src/store/store.ts';
import { createTempDirs, testVault } from '../helpers.ts';

const adminUrl = process.env.KIOSBOT_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const required = process.env.CI === 'true' || process.env.KIOSBOT_REQUIRE_POSTGRES === '1';

/** Whether a PostgreSQL server answers (asked once per worker). */
async function probePostgres(): Promise<{ available: true } | { available: false; reason: string }> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { available: true };
  } catch (error) {
    const reason = `no PostgreSQL server answered at ${adminUrl.replace(/\/\/[^@]*@/, '//')} (${String(error)})`;
    if (required) throw new Error(`The PostgreSQL store tests are required here (CI or KIOSBOT_REQUIRE_POSTGRES=1), but ${reason}.`);
    console.warn(`SKIPPING the PostgreSQL store contract tests: ${reason}. Start one (see README "Tests") to run them.`);
    return { available: false, reason };
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgres = await probePostgres();

/**
 * A pool whose idle connections may be ended by the server without an uncaught error: dropping
 * the database at the end (WITH (FORCE)) ends connections a pool is still closing.
 */
export function quietPool(connectionString: string, max = 2): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', () => undefined);
  return pool;
}

/** What a test gets: engines on the suite's data, and raw SQL on it (PostgreSQL only). */
export interface EngineSuite {
  kind: StoreEngineKind;
  /** The engine over the test's data (fresh for each test); a second call opens a peer on the same data (PostgreSQL only). */
  open(now: () => Date): Promise<StoreEngine>;
  /** The suite's database URL (PostgreSQL only). */
  databaseUrl(): string;
  /** Runs SQL on the suite's database (PostgreSQL only). */
  sql<T>(text: string, values?: unknown[]): Promise<T[]>;
}

/** Registers the hooks of one engine's suite in the current describe. */
function engineSuite(kind: StoreEngineKind): EngineSuite {
  const opened: StoreEngine[] = [];
  const dirs = createTempDirs();
  let dataDir: string | undefined;
  let database: { name: string; url: string; admin: pg.Client; pool: pg.Pool } | undefined;

  beforeAll(async () => {
    if (kind !== 'postgres') return;
    const name = `kiosbot_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    database = { name, url: url.toString(), admin, pool: quietPool(url.toString()) };
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((engine) => engine.close()));
    dataDir = undefined;
    dirs.cleanup();
    if (database) {
      const { rows } = await database.pool.query<{ tablename: string }>(
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'kiosbot_migrations'`,
      );
      if (rows.length > 0) await database.pool.query(`TRUNCATE ${rows.map((row) => row.tablename).join(', ')} CASCADE`);
    }
  });

  afterAll(async () => {
    if (!database) return;
    const { name, admin, pool } = database;
    database = undefined;
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  return {
    kind,
    async open(now) {
      let engine: StoreEngine;
      if (kind === 'lowdb') {
        if (dataDir !== undefined) throw new Error('The lowdb engine has one owner per data directory: no peer engine.');
        dataDir = dirs.make();
        engine = createLowdbEngine(await openStore({ dataDir, vault: testVault(), now }), now);
      } else {
        if (!database) throw new Error('unreachable: the test database was not created');
        engine = await openPgEngine({ connectionString: database.url, now, max: 4, onIdleError: () => undefined });
      }
      opened.push(engine);
      return engine;
    },
    databaseUrl() {
      if (!database) throw new Error('Only the PostgreSQL engine has a database URL.');
      return database.url;
    },
    async sql<T>(text: string, values?: unknown[]): Promise<T[]> {
      if (!database) throw new Error('Raw SQL needs the PostgreSQL engine.');
      const result = await database.pool.query(text, values ?? []);
      return result.rows as T[];
    },
  };
}

/** `body` once per engine, as `describe` blocks named `<title> (<engine>)`. */
export function describeEngines(
  title: string,
  body: (suite: EngineSuite) => void,
  kinds: readonly StoreEngineKind[] = ['lowdb', 'postgres'],
): void {
  describe.each(kinds.map((kind) => ({ kind })))(`${title} ($kind)`, ({ kind }) => {
    if (kind === 'postgres' && !postgres.available) {
      it.skip(`skipped: ${postgres.reason}`, () => undefined);
      return;
    }
    body(engineSuite(kind));
  });
}
