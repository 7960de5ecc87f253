/**
 * Runs the store contract tests on both engines. The lowdb engine gets a fresh data directory per
 * test; the PostgreSQL engine a database of its own per run (random name, created before the
 * suite and dropped after it) on the server at 127.0.0.1:5432 (`KIOSBOT_TEST_POSTGRES_URL`
 * names another), emptied between tests. Where no server answers, the PostgreSQL suite is skipped
 * with a warning; with CI=true or KIOSBOT_REQUIRE_POSTGRES=1 that is a failure instead.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import type { StoreEngine, StoreEngineKind } from '../../../src/store/contract.ts';
import { createLowdbEngine } from '../../../src/store/lowdb-engine.ts';
import { openPgEngine } from '../../../src/store/pg/engine.ts';
import { openStore } from '../../../src/store/store.ts';
import { createTempDirs, testVault } from '../helpers.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';

const postgres = await postgresAvailable();

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
  /** Closes `engine` and opens the test's data again (a restart: lowdb's same data directory, PostgreSQL's same database). */
  reopen(engine: StoreEngine, now: () => Date): Promise<StoreEngine>;
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
  let database: TestDatabase | undefined;

  beforeAll(async () => {
    if (kind === 'postgres') database = await createTestDatabase();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((engine) => engine.close()));
    dataDir = undefined;
    dirs.cleanup();
    await database?.empty();
  });

  afterAll(async () => {
    await database?.drop();
    database = undefined;
  });

  const openOn = async (now: () => Date, dir: string) => {
    const engine = createLowdbEngine(await openStore({ dataDir: dir, vault: testVault(), now }), now);
    opened.push(engine);
    return engine;
  };

  return {
    kind,
    async reopen(engine, now) {
      const index = opened.indexOf(engine);
      if (index >= 0) opened.splice(index, 1);
      await engine.close();
      if (kind === 'lowdb') {
        if (dataDir === undefined) throw new Error('unreachable: no data directory to open again');
        return openOn(now, dataDir);
      }
      return this.open(now);
    },
    async open(now) {
      if (kind === 'lowdb') {
        if (dataDir !== undefined) throw new Error('The lowdb engine has one owner per data directory: no peer engine.');
        dataDir = dirs.make();
        return openOn(now, dataDir);
      }
      if (!database) throw new Error('unreachable: the test database was not created');
      const engine = await openPgEngine({ connectionString: database.url, now, max: 4, onIdleError: () => undefined });
      opened.push(engine);
      return engine;
    },
    databaseUrl() {
      if (!database) throw new Error('Only the PostgreSQL engine has a database URL.');
      return database.url;
    },
    async sql<T>(text: string, values?: unknown[]): Promise<T[]> {
      if (!database) throw new Error('Raw SQL needs the PostgreSQL engine.');
      return database.sql<T>(text, values);
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
    if (kind === 'postgres' && postgres !== true) {
      it.skip(`skipped: ${postgres}`, () => undefined);
      return;
    }
    body(engineSuite(kind));
  });
}
