/**
 * A PostgreSQL database of a test's own on the server at 127.0.0.1:5432 (`KIOSBOT_TEST_POSTGRES_URL`
 * names another): created with a random name, dropped (WITH (FORCE)) by `drop()`. Where no server
 * answers, `postgresAvailable` says why and the tests skip with a visible notice; with CI=true or
 * KIOSBOT_REQUIRE_POSTGRES=1 that is a failure instead (see test/store/contract/harness.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const adminUrl = process.env.KIOSBOT_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const required = process.env.CI === 'true' || process.env.KIOSBOT_REQUIRE_POSTGRES === '1';

/** Whether a server answers: `true`, or the reason none does (thrown where PostgreSQL is required). */
export async function postgresAvailable(): Promise<true | string> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    const reason = `no PostgreSQL server answered at ${adminUrl.replace(/\/\/[^@]*@/, '//')} (${String(error)})`;
    if (required) throw new Error(`PostgreSQL is required here (CI or KIOSBOT_REQUIRE_POSTGRES=1), but ${reason}.`);
    console.warn(`SKIPPING the PostgreSQL tests of this file: ${reason}.`);
    return reason;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The prefix of this run's worker databases (the run named by `fast-pg`'s global setup, so its teardown finds them). */
export const runDatabasePrefix = (): string => `kiosbot_run_${process.env.KIOSBOT_TEST_PG_RUN ?? 'local'}_`;

export interface TestDatabase {
  /** postgres:// URL of the new, empty database. */
  url: string;
  /** Runs SQL on it. */
  sql<T>(text: string, values?: unknown[]): Promise<T[]>;
  /** Empties every kiosbot table (the schema stays), for the next test. */
  empty(): Promise<void>;
  /** Drops it, ending whatever is still connected. */
  drop(): Promise<void>;
}

/**
 * A database of its own on the server at `serverUrl` (default the tests' shared one), named
 * `prefix` and a random suffix (default prefix `kiosbot_test_`).
 */
export async function createTestDatabase(serverUrl = adminUrl, options: { prefix?: string } = {}): Promise<TestDatabase> {
  const name = `${options.prefix ?? 'kiosbot_test_'}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  // Dropping WITH (FORCE) ends connections the pool may still hold.
  pool.on('error', () => undefined);
  return {
    url: url.toString(),
    async sql<T>(text: string, values: unknown[] = []) {
      return (await pool.query(text, values)).rows as T[];
    },
    async empty() {
      const { rows } = await pool.query<{ tablename: string }>(
        `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'kiosbot_migrations'`,
      );
      if (rows.length > 0) await pool.query(`TRUNCATE ${rows.map((row) => row.tablename).join(', ')} CASCADE`);
    },
    async drop() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
