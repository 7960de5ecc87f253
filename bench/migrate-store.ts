/**
 * `npm run migrate-store` at scale (issue 14): how long a copy of a lowdb data directory into an
 * empty PostgreSQL database takes, verification included, and the copying process's peak RSS, at
 * bench/scale-data.ts's sizes. Each size gets a database of its own (created and dropped here) on
 * the server at 127.0.0.1:5432 (`KIOSBOT_BENCH_POSTGRES_URL` names another). Prints one JSON line
 * per size. No baseline beside it: there is no other way to move a store; the figure to watch is
 * rows per second and whether the RSS stays bounded as the history grows.
 *
 * Run: npx tsx bench/migrate-store.ts [--sizes 1k,10k | --full]   (default 1k,10k; --full adds 50k / 1M)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { importLowdbIntoPg } from '../src/ops/import-lowdb.ts';
import { benchVault, scaleData, selectSizes } from './scale-data.ts';

const adminUrl = process.env.KIOSBOT_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function emit(figure: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'migrate-store', ...figure }));
}

/** A connected admin client, or undefined (said in the output) when no server answers. */
async function connectAdmin(): Promise<pg.Client | undefined> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    return admin;
  } catch (error) {
    emit({ figure: 'skipped', reason: `no PostgreSQL server answered at ${new URL(adminUrl).host} (${String(error)})` });
    return undefined;
  }
}

for (const size of selectSizes(process.argv.slice(2), ['1k', '10k'])) {
  const admin = await connectAdmin();
  if (!admin) break;
  const data = await scaleData(size);
  const name = `kiosbot_bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  // The DROP … WITH (FORCE) below ends any connection the pool is still closing: not a crash.
  pool.on('error', () => undefined);
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  try {
    const started = performance.now();
    const report = await importLowdbIntoPg({ dataDir: data.dataDir, vault: benchVault, pool });
    const seconds = (performance.now() - started) / 1000;
    const rows = Object.values(report.tables).reduce((sum, table) => sum + table.rows, 0);
    emit({
      figure: 'copy',
      users: size.users,
      transactions: size.transactions,
      rows,
      seconds: Math.round(seconds * 10) / 10,
      rowsPerSecond: Math.round(rows / seconds),
      peakRssMb: Math.round(peakRss / 2 ** 20),
    });
  } finally {
    clearInterval(sampler);
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
