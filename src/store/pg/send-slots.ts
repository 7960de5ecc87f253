/**
 * Send slots on PostgreSQL: the fleet's reservations (../send-slots.ts has the arithmetic). Every
 * reservation takes its turn under one transaction-level advisory lock, so no two instances pick
 * the same slot and no two reservations can deadlock; each is a few short statements, far more
 * than the 30 a second Telegram allows.
 */
import type { SendSlotStore } from '../contract.ts';
import { gapOf, slotAt, slotStart } from '../send-slots.ts';
import { first, inTransaction, type PgConnections } from './db.ts';

export function createPgSendSlots(pool: PgConnections): SendSlotStore {
  return {
    reserve: (chatId, atMs, limits) =>
      inTransaction(pool, async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('kiosbot:send-slots', 0))`);
        const nextAt = Number(
          (await first<string>(client, 'next_at', 'SELECT next_at FROM chat_sends WHERE chat_id = $1', [chatId])) ?? -Infinity,
        );
        const from = slotAt(Math.max(atMs, nextAt), limits.perSecond);
        // The first free slot from there: `from` itself, or the end of the run of taken slots that
        // starts at it, plus one (found on the primary key's index; the lock makes it and the insert one step).
        const slot = Number(
          await first<string>(
            client,
            'slot',
            `INSERT INTO send_slots (per_second, slot)
             SELECT $1, CASE WHEN NOT EXISTS (SELECT 1 FROM send_slots WHERE per_second = $1 AND slot = $2) THEN $2::bigint
               ELSE (SELECT min(a.slot) + 1 FROM send_slots a WHERE a.per_second = $1 AND a.slot >= $2
                     AND NOT EXISTS (SELECT 1 FROM send_slots b WHERE b.per_second = $1 AND b.slot = a.slot + 1)) END
             RETURNING slot`,
            [limits.perSecond, from],
          ),
        );
        const at = slotStart(slot, limits.perSecond);
        await client.query(
          `INSERT INTO chat_sends (chat_id, next_at) VALUES ($1, $2) ON CONFLICT (chat_id) DO UPDATE SET next_at = EXCLUDED.next_at`,
          [chatId, at + gapOf(chatId, limits)],
        );
        // Slots a minute in the past are of no use any more, nor are chats whose next instant passed a minute ago.
        await client.query('DELETE FROM send_slots WHERE per_second = $1 AND slot < $2', [
          limits.perSecond,
          slotAt(atMs - 60_000, limits.perSecond),
        ]);
        await client.query('DELETE FROM chat_sends WHERE next_at < $1', [atMs - 60_000]);
        return at;
      }),
  };
}
