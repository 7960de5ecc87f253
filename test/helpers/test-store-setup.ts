/**
 * Global setup of the `fast-pg` project: names this run (so that its workers' databases are told
 * apart from another run's on the same server) and, once the run is over, drops the databases its
 * workers created (test/helpers/test-store.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { adminUrl, postgresAvailable, runDatabasePrefix } from './pg-database.ts';

export async function setup(): Promise<() => Promise<void>> {
  // Fails here, once, when PostgreSQL is required (CI) and absent; without it the worlds fail to connect.
  await postgresAvailable();
  process.env.KIOSBOT_TEST_PG_RUN = randomBytes(4).toString('hex');
  const prefix = runDatabasePrefix();
  return async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
}
