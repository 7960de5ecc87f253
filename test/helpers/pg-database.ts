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
export async function createTestDatabase(
  serverUrl = adminUrl,
  options: { prefix?: string; synchronousCommit?: boolean } = {},
): Promise<TestDatabase> {
  const name = `${options.prefix ?? 'kiosbot_test_'}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  // A commit that does not wait for its WAL flush: what a kill -9 of the bot needs survives all the
  // same (the server stays up); only a crash of the server itself could lose the last commits.
  if (options.synchronousCommit === false) await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
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
      // DELETE, not TRUNCATE: TRUNCATE makes new files for every table, far slower on tables this
      // small; the one foreign key deletes in cascade.
      await pool.query(`DO $$ DECLARE t record; BEGIN
        FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'kiosbot_migrations' LOOP
          EXECUTE 'DELETE FROM ' || quote_ident(t.tablename);
        END LOOP;
      END $$`);
    },
    async drop() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
