/**
 * Which store engine the bot-level tests run on: KIOSBOT_TEST_STORE=postgres runs them on
 * PostgreSQL (the `fast-pg` project of vitest.config.ts sets it), anything else on lowdb, the
 * default. On PostgreSQL each test worker creates a database and reuses it, emptied after each
 * world (a CREATE DATABASE and its migrations per test would cost more than the test), and one
 * more for each world that runs beside another (`describe.concurrent`); the
 * project's global teardown (test/helpers/test-store-setup.ts) drops the run's databases.
 */
import { it } from 'vitest';
import { createTestDatabase, runDatabasePrefix, type TestDatabase } from './pg-database.ts';

export type TestStore = 'lowdb' | 'postgres';

/** The engine of this run (read when asked: the fast projects share their workers' module graphs). */
export const testStore = (): TestStore => (process.env.KIOSBOT_TEST_STORE === 'postgres' ? 'postgres' : 'lowdb');
export const onPostgres = (): boolean => testStore() === 'postgres';

/** This worker's databases no world uses now (emptied). */
const free: TestDatabase[] = [];

/**
 * A database of this worker's for one world: a free one (emptied by the world before) or, while
 * every one is taken (tests of a `describe.concurrent` run side by side), a new one.
 */
export async function takeWorkerDatabase(): Promise<TestDatabase> {
  return free.pop() ?? createTestDatabase(undefined, { prefix: runDatabasePrefix(), synchronousCommit: false });
}

/** Empties `database` and gives it back for the worker's next world. */
export async function releaseWorkerDatabase(database: TestDatabase): Promise<void> {
  await database.empty();
  free.push(database);
}

/**
 * An `it` that runs on lowdb only, for what only a data directory has (its files, a full disk, a
 * flush): on PostgreSQL it is skipped with `reason` printed, so the exclusion is visible in the run.
 */
export function itOnLowdb(reason: string): typeof it | typeof it.skip {
  if (!onPostgres()) return it;
  console.warn(`lowdb only (skipped on PostgreSQL): ${reason}`);
  return it.skip;
}
