import type pg from 'pg';
import type { OutboxItem } from '../schema.ts';

/** A pool or one of its clients (inside a transaction). */
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * Runs `work` in one transaction on one client: committed when it resolves, rolled back when it
 * throws (the error is passed on).
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** True for PostgreSQL's unique_violation (optionally of one constraint or index). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const { code, constraint: violated } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && (constraint === undefined || violated === constraint);
}

/** The rows' first column `column`, typed by the caller (records are validated where they are built). */
export async function column<T>(db: Queryable, column: string, text: string, values: unknown[] = []): Promise<T[]> {
  const { rows } = await db.query<Record<string, T>>(text, values);
  return rows.map((row) => row[column] as T);
}

/** The first row's `column`, or undefined without a row. */
export async function first<T>(db: Queryable, name: string, text: string, values: unknown[] = []): Promise<T | undefined> {
  const [value] = await column<T>(db, name, text, values);
  return value;
}

/** When an outbox item is due (its `due_at` column): its notBefore, else its creation. */
export const outboxDueAt = (item: OutboxItem) => item.notBefore ?? item.createdAt;

/**
 * Queues `item` (built by buildOutboxItem) unless a pending item has its dedupeKey; resolves the
 * queued one. The unique index on dedupe_key decides a race.
 */
export async function insertOutbox(db: Queryable, item: OutboxItem): Promise<OutboxItem> {
  const inserted = await first<OutboxItem>(
    db,
    'item',
    `INSERT INTO outbox (id, chat_id, due_at, dedupe_key, item) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING item`,
    [item.id, item.chatId, outboxDueAt(item), item.dedupeKey ?? null, item],
  );
  if (inserted) return inserted;
  const pending = await first<OutboxItem>(db, 'item', 'SELECT item FROM outbox WHERE dedupe_key = $1', [item.dedupeKey]);
  // Sent and removed between the two statements: queue it after all.
  return pending ?? insertOutbox(db, item);
}
