/**
 * `npm run migrate-store -- --to postgres`: copies DATA_DIR into the empty PostgreSQL database at
 * DATABASE_URL and verifies it (src/ops/import-lowdb.ts). Prints counts and where it copied to,
 * never a password or a key.
 */
import pg from 'pg';
import { createMigrateConfig } from '../config.ts';
import { StoreError } from '../store/errors.ts';
import { importLowdbIntoPg } from './import-lowdb.ts';
import { createVault } from '../store/vault.ts';
import { startCommand } from './cli.ts';

const usage = 'Usage: npm run migrate-store -- --to postgres   (DATA_DIR, ENCRYPTION_KEY and DATABASE_URL from the environment or .env)';

const args = process.argv.slice(2);
const to = args.find((arg) => arg.startsWith('--to='))?.slice('--to='.length) ?? args[args.indexOf('--to') + 1];
if (!args.some((arg) => arg === '--to' || arg.startsWith('--to=')) || to !== 'postgres') {
  console.error(to === undefined || to.startsWith('--') ? usage : `migrate-store copies into postgres only, not "${to}".\n${usage}`);
  process.exit(2);
}

const config = startCommand(createMigrateConfig);

/** The database's address without its password. */
function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 4, connectionTimeoutMillis: 10_000 });
// An idle connection the server ends is dropped by the pool; the copy's own queries report errors.
pool.on('error', () => undefined);
const vault = createVault({ key: config.encryptionKey, previousKeys: config.previousKeys });
console.log(`Copying ${config.dataDir} into PostgreSQL at ${where(config.databaseUrl)} (the data directory is only read)…`);
try {
  const report = await importLowdbIntoPg({
    dataDir: config.dataDir,
    vault,
    pool,
    onTable: (name, rows) => console.log(`  ${name}: ${rows} rows`),
  });
  const tables = Object.keys(report.tables).length;
  console.log(
    `Verified: the row count and checksum of each of the ${tables} tables match the data directory, which was left as it was. ` +
      'Start the bot with this DATABASE_URL (webhook mode) to run on PostgreSQL; without it, it keeps running on DATA_DIR (README "Scaling out").',
  );
} catch (error) {
  console.error(`The store was not copied: ${explain(error)}`);
  process.exitCode = 1;
} finally {
  await pool.end();
}

/** What went wrong, in words an operator can act on; no password (pg's messages hold none). */
function explain(error: unknown): string {
  if (error instanceof StoreError) return error.message;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const at = where(config.databaseUrl);
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH')
    return `no PostgreSQL server answered at ${at} (${String(code)}). Check DATABASE_URL and that the server runs.`;
  if (code === '28P01' || code === '28000') return `PostgreSQL at ${at} refused the user or password in DATABASE_URL (${String(message)}).`;
  if (code === '3D000') return `${String(message)} at ${at}: create it first (CREATE DATABASE …), then run this again.`;
  if (typeof code === 'string' && typeof message === 'string')
    return `PostgreSQL at ${at} said: ${message} (${code}). Nothing was marked as copied.`;
  throw error;
}
