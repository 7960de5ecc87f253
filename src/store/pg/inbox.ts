/**
 * Stored updates on PostgreSQL: the de-duplication record of updates that may move money, and
 * their replay. An update is held (leased) by the instance that added it while it handles it; a
 * replay, on any instance, claims only updates nobody holds, so a live handler's update is never
 * handled twice and a dead one's is handled by another instance.
 */
import type { InboxStore } from '../contract.ts';
import { column, first, inTransaction, type PgConnections } from './db.ts';

export function createPgInbox(pool: PgConnections, now: () => Date): InboxStore {
  const exists = async (where: string, values: unknown[]) =>
    (await first<number>(pool, 'one', `SELECT 1 AS one FROM inbox WHERE ${where} LIMIT 1`, values)) !== undefined;
  return {
    has: (updateId) => exists('update_id = $1', [updateId]),
    async add(input, options = {}) {
      if (input.length === 0) return [];
      // In id order, so two instances adding overlapping batches wait on each other, never deadlock.
      const updates = [...input].sort((a, b) => a.id - b.id);
      const at = now();
      const { lease } = options;
      // ON CONFLICT DO NOTHING: an update two instances receive at once is stored (and handled) once.
      const ids = await column<string>(
        pool,
        'update_id',
        `INSERT INTO inbox (update_id, sealed, received_at, lease_owner, lease_until, chat_id)
       SELECT u.id, u.sealed, $3, $4, $5, u.chat_id FROM unnest($1::bigint[], $2::text[], $6::bigint[]) AS u(id, sealed, chat_id)
       ON CONFLICT (update_id) DO NOTHING RETURNING update_id`,
        [
          updates.map((u) => u.id),
          updates.map((u) => u.sealed),
          at.toISOString(),
          lease?.owner ?? null,
          lease ? new Date(at.getTime() + lease.ms).toISOString() : null,
          updates.map((u) => u.chatId ?? null),
        ],
      );
      return ids.map(Number).sort((a, b) => a - b);
    },
    async markDone(updateId, owner) {
      // Fenced by the holder's token: a holder paused past its lease, whose update another instance
      // took, marks nothing (0 rows).
      const { rowCount } = await pool.query(
        `UPDATE inbox SET done = true, lease_owner = NULL, lease_until = NULL
         WHERE update_id = $1 AND ($2::text IS NULL OR (lease_owner = $2 AND NOT done))`,
        [updateId, owner ?? null],
      );
      return (rowCount ?? 0) > 0;
    },
    holds: (updateId, owner) => exists('update_id = $1 AND NOT done AND lease_owner = $2', [updateId, owner]),
    earlierOpen: (chatId, updateId) => exists('chat_id = $1 AND update_id < $2 AND NOT done', [chatId, updateId]),
    pendingIds: async () =>
      (await column<string>(pool, 'update_id', 'SELECT update_id FROM inbox WHERE NOT done ORDER BY update_id')).map(Number),
    async pruneDone({ maxAgeMs, maxCount }) {
      const before = new Date(now().getTime() - maxAgeMs).toISOString();
      if (maxCount >= Number.MAX_SAFE_INTEGER) {
        // By age only: no ranking of every done row.
        await pool.query('DELETE FROM inbox WHERE done AND received_at < $1', [before]);
        return;
      }
      await pool.query(
        `DELETE FROM inbox WHERE done AND (received_at < $1 OR update_id < ALL (
           SELECT update_id FROM inbox WHERE done ORDER BY update_id DESC LIMIT $2))`,
        [before, maxCount],
      );
    },
    claimForReplay: ({ limit, lease, maxAttempts }) =>
      inTransaction(pool, async (client) => {
        const at = now();
        // Free rows only (no lease, or one that ran out); a row another claimer is taking is skipped, not waited for.
        const { rows } = await client.query<{ update_id: string; sealed: string; done: boolean }>(
          `WITH free AS (
           SELECT update_id FROM inbox WHERE NOT done AND (lease_until IS NULL OR lease_until <= $1)
           ORDER BY update_id LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE inbox i SET attempts = i.attempts + CASE WHEN i.attempts < $5 THEN 1 ELSE 0 END,
                done = i.attempts >= $5,
                lease_owner = CASE WHEN i.attempts < $5 THEN $3 END,
                lease_until = CASE WHEN i.attempts < $5 THEN $4::timestamptz END
         FROM free WHERE i.update_id = free.update_id
         RETURNING i.update_id, i.sealed, i.done`,
          [at.toISOString(), limit, lease.owner, new Date(at.getTime() + lease.ms).toISOString(), maxAttempts],
        );
        const sorted = rows.map((row) => ({ ...row, id: Number(row.update_id) })).sort((a, b) => a.id - b.id);
        return {
          updates: sorted.filter((row) => !row.done).map(({ id, sealed }) => ({ id, sealed })),
          givenUp: sorted.filter((row) => row.done).map((row) => row.id),
        };
      }),
  };
}
