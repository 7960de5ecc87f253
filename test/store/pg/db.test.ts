/**
 * A transaction whose connection is lost at COMMIT (src/store/pg/db.ts `inTransaction`): its
 * outcome is asked of the server by its transaction id, so one that committed is never run again
 * (no double write) and one that did not is run again (no lost write).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPg, inTransaction, type PgConnections } from '../../../src/store/pg/db.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';

const available = await postgresAvailable();

/** The engine's connections over `raw`, whose first COMMIT meets `fault` instead of the plain query. */
function withCommitFault(raw: pg.Pool, fault: (client: pg.PoolClient, commit: () => Promise<unknown>) => Promise<unknown>): PgConnections {
  const connections = connectPg(raw, { retryForMs: 5000, sleep: () => Promise.resolve() });
  let faulted = false;
  return {
    ...connections,
    async connect() {
      const client = await connections.connect();
      const query = client.query.bind(client) as (text: string) => Promise<unknown>;
      client.query = ((text: string, ...rest: unknown[]) => {
        if (text === 'COMMIT' && !faulted) {
          faulted = true;
          return fault(client, () => query('COMMIT'));
        }
        return (query as (...args: unknown[]) => Promise<unknown>)(text, ...rest);
      }) as typeof client.query;
      return client;
    },
  };
}

describe.skipIf(available !== true)('inTransaction when the connection is lost at COMMIT', () => {
  let database: TestDatabase;
  let raw: pg.Pool;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.sql('CREATE TABLE writes (id text)');
    raw = new pg.Pool({ connectionString: database.url, max: 3 });
    raw.on('error', () => undefined);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await raw.end();
    await database.drop();
  });

  it('committed, but the answer was lost: resolves with the result, the work ran once, the row is there once', async () => {
    const db = withCommitFault(raw, async (client, commit) => {
      await commit();
      // The answer never arrives: the connection goes right after the server committed.
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      throw new Error('Connection terminated unexpectedly');
    });
    let runs = 0;
    const result = await inTransaction(db, async (client) => {
      runs += 1;
      await client.query(`INSERT INTO writes (id) VALUES ('committed')`);
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(1);
    expect(await database.sql(`SELECT id FROM writes WHERE id = 'committed'`)).toEqual([{ id: 'committed' }]);
  });

  it('the connection ended as COMMIT was sent, before the server committed: run again, the row is there once', async () => {
    const db = withCommitFault(raw, async (client, commit) => {
      await admin.query('SELECT pg_terminate_backend($1)', [(client as unknown as { processID: number }).processID]);
      return commit();
    });
    let runs = 0;
    const result = await inTransaction(db, async (client) => {
      runs += 1;
      await client.query(`INSERT INTO writes (id) VALUES ('aborted')`);
      return runs;
    });
    expect(result).toBe(2);
    expect(await database.sql(`SELECT id FROM writes WHERE id = 'aborted'`)).toEqual([{ id: 'aborted' }]);
  });
});
