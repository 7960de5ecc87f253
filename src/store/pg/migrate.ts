import type pg from 'pg';
import { StoreError } from '../errors.ts';
import type { Queryable } from './db.ts';
import { sql as initial } from './migrations/001-initial.ts';
import { sql as storeImport } from './migrations/002-store-import.ts';
import { sql as inboxLease } from './migrations/003-inbox-lease.ts';
import { sql as sendSlots } from './migrations/004-send-slots.ts';
import { sql as storeMeta } from './migrations/005-store-meta.ts';
import { sql as leaseOwners } from './migrations/006-lease-owners.ts';
import { sql as inboxChat } from './migrations/007-inbox-chat.ts';
import { sql as ledger } from './migrations/008-ledger.ts';
import { sql as usersByUpline } from './migrations/009-users-by-upline.ts';

/** A numbered schema change; applied once, in order, each in its own transaction. */
export interface PgMigration {
  id: number;
  name: string;
  sql: string;
}

/** Every migration, in order. Append new ones (`002-…ts`); never edit an applied one. */
export const pgMigrations: readonly PgMigration[] = [
  { id: 1, name: '001-initial', sql: initial },
  { id: 2, name: '002-store-import', sql: storeImport },
  { id: 3, name: '003-inbox-lease', sql: inboxLease },
  { id: 4, name: '004-send-slots', sql: sendSlots },
  { id: 5, name: '005-store-meta', sql: storeMeta },
  { id: 6, name: '006-lease-owners', sql: leaseOwners },
  { id: 7, name: '007-inbox-chat', sql: inboxChat },
  { id: 8, name: '008-ledger', sql: ledger },
  { id: 9, name: '009-users-by-upline', sql: usersByUpline },
];

/** The advisory lock key migrations run under (any 64-bit number no other tool uses): "kios". */
const migrationLockKey = 0x6b696f73;

/**
 * Brings the database up to the newest migration, under `pg_advisory_lock` (instances starting
 * together apply each once), each recorded in `kiosbot_migrations` in its own transaction. Refuses
 * a database a newer kiosbot migrated further. Resolves with the ids applied now.
 */
export async function migratePg(pool: pg.Pool, migrations: readonly PgMigration[] = pgMigrations): Promise<number[]> {
  const client = await pool.connect();
  // A connection the server ends meanwhile fails the query in flight (the caller may try again:
  // each migration commits with its row); without a listener it would throw out of the process.
  let lost = false;
  const onError = () => void (lost = true);
  client.on('error', onError);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS kiosbot_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ id: number }>('SELECT id FROM kiosbot_migrations ORDER BY id');
      const applied = new Set(rows.map((row) => row.id));
      const newest = Math.max(0, ...migrations.map((migration) => migration.id));
      const unknown = rows.find((row) => row.id > newest);
      if (unknown) {
        throw new StoreError(
          'version',
          `The database has schema migration ${unknown.id}, but this kiosbot knows migrations up to ${newest}: ` +
            'a newer kiosbot migrated it. Run that version (or newer). Nothing was changed.',
        );
      }
      const done: number[] = [];
      for (const migration of migrations) {
        if (applied.has(migration.id)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO kiosbot_migrations (id, name) VALUES ($1, $2)', [migration.id, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
        done.push(migration.id);
      }
      return done;
    } finally {
      // Should the unlock fail, the connection is dropped: ending its session ends the lock.
      await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]).catch(() => void (lost = true));
    }
  } finally {
    client.off('error', onError);
    client.release(lost);
  }
}

/** A copy that cannot start or did not verify; the message says what to do. Nothing secret in it. */
export class StoreImportError extends StoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('incomplete', message, options);
    this.name = 'StoreImportError';
  }
}

/**
 * Refuses a database whose copy from lowdb has not finished (`store_import` not `done`): what it
 * holds is part of a data directory, and serving it would lose the rest.
 */
export async function checkStoreImport(db: Queryable): Promise<void> {
  const { rows } = await db.query<{ source: string; started_at: Date }>(
    `SELECT source, started_at FROM store_import WHERE state = 'copying'`,
  );
  const copying = rows[0];
  if (!copying) return;
  throw new StoreImportError(
    `This database holds a copy of ${copying.source} that did not finish (started ${copying.started_at.toISOString()}), ` +
      'so kiosbot will not open it. Run `npm run migrate-store -- --to postgres` again with the same DATA_DIR: it starts the copy over ' +
      '(the data directory was left as it was). Or point DATABASE_URL at another database.',
  );
}
