import type { TransactionStore } from '../contract.ts';
import { buildOutboxItem, type NewOutboxItem } from '../records/outbox.ts';
import {
  confirmationTtlMs,
  confirmationUsed,
  duplicateTransaction,
  accountOf,
  isFinalStatus,
  newTransactionRecord,
  settledTransaction,
  updatedTransaction,
  type TransactionRecord,
} from '../records/transactions.ts';
import type { NewLedgerEntry } from '../records/ledger.ts';
import { appendLedger } from './ledger.ts';
import { column, first, inTransaction, insertOutbox, isUniqueViolation, page, type PgConnections, type Queryable } from './db.ts';

const newestFirst = 'ORDER BY created_at DESC, ref_id DESC';
/** When a check of `tx` is due (its `due_at` column): its nextCheckAt, else its creation. */
export const dueAt = (tx: TransactionRecord) => tx.nextCheckAt ?? tx.createdAt;

/** Candidates locked beyond `limit` when the caller filters some out (paused or busy accounts). */
const claimSlack = 200;

/** Writes `tx` over its row (ending any claim on it). */
async function writeRow(db: Queryable, tx: TransactionRecord): Promise<void> {
  await db.query(
    `UPDATE transactions SET final = $2, due_at = $3, target = $4, trx_id = $5, lease_owner = NULL, lease_until = NULL, record = $6
     WHERE ref_id = $1`,
    [tx.refId, isFinalStatus(tx.status), dueAt(tx), tx.target, tx.trxId ?? null, tx],
  );
}

/** A confirmation's transactions, its confirmation id and their wallet entries, in one SQL transaction. */
function pgCreateMany(pool: PgConnections, now: () => Date): TransactionStore['createMany'] {
  return (inputs, options = {}) =>
    inTransaction(pool, async (client) => {
      const at = now();
      const created = inputs.map((input) => newTransactionRecord(input, at));
      const { confirmationId } = options;
      if (confirmationId !== undefined) {
        await client.query('DELETE FROM confirmations WHERE at < $1', [new Date(at.getTime() - confirmationTtlMs).toISOString()]);
        try {
          // The primary key decides: of racing callers (any instance) one inserts, the others fail here.
          await client.query('INSERT INTO confirmations (id, ref_ids, at) VALUES ($1, $2, $3)', [
            confirmationId,
            created.map((tx) => tx.refId),
            at.toISOString(),
          ]);
        } catch (error) {
          if (isUniqueViolation(error)) throw confirmationUsed(confirmationId);
          throw error;
        }
      }
      for (const tx of created) {
        try {
          await client.query(
            `INSERT INTO transactions (ref_id, user_id, final, created_at, due_at, target, trx_id, record)
             VALUES ($1, $2, false, $3, $4, $5, $6, $7)`,
            [tx.refId, tx.userId, tx.createdAt, dueAt(tx), tx.target, tx.trxId ?? null, tx],
          );
        } catch (error) {
          if (isUniqueViolation(error, 'transactions_pkey')) throw duplicateTransaction(tx.refId);
          throw error;
        }
      }
      // After the inserts: a duplicate refId or confirmation has thrown already, and rolls back the entries with it.
      await appendLedger(client, options.ledger ?? [], at);
      return created;
    });
}

/**
 * Transactions on PostgreSQL: open and settled in one table. Every change that goes with notices
 * (update, settle) locks the open row (`FOR UPDATE ... AND NOT final`), so of two racing
 * settlements the second finds it final and changes nothing.
 */
export function createPgTransactions(pool: PgConnections, now: () => Date): TransactionStore {
  const records = (text: string, values: unknown[]) => column<TransactionRecord>(pool, 'record', text, values);
  const one = (text: string, values: unknown[]) => first<TransactionRecord>(pool, 'record', text, values);

  /** Locks the open row, applies `next` to it, queues `notify` and appends `ledger`, in one transaction. */
  const change = (
    refId: string,
    notify: readonly NewOutboxItem[],
    next: (existing: TransactionRecord, at: Date) => TransactionRecord,
    ledger: readonly NewLedgerEntry[] = [],
  ): Promise<TransactionRecord | undefined> =>
    inTransaction(pool, async (client) => {
      const existing = await first<TransactionRecord>(
        client,
        'record',
        'SELECT record FROM transactions WHERE ref_id = $1 AND NOT final FOR UPDATE',
        [refId],
      );
      if (!existing) return undefined;
      const at = now();
      const record = next(existing, at);
      await appendLedger(client, ledger, at);
      await writeRow(client, record);
      for (const item of notify) await insertOutbox(client, buildOutboxItem(item, at));
      return record;
    });

  const createMany = pgCreateMany(pool, now);

  return {
    async create(input, options) {
      const [record] = await createMany([input], options);
      if (!record) throw new Error('unreachable: createMany returned nothing');
      return record;
    },
    createMany,
    confirmation: (confirmationId) => first<string[]>(pool, 'ref_ids', 'SELECT ref_ids FROM confirmations WHERE id = $1', [confirmationId]),
    get: (refId) => one('SELECT record FROM transactions WHERE ref_id = $1 AND NOT final', [refId]),
    find: (refId) => one('SELECT record FROM transactions WHERE ref_id = $1', [refId]),
    findForUser: (userId, refId) => one('SELECT record FROM transactions WHERE ref_id = $1 AND user_id = $2', [refId, userId]),
    findByTrxId: (userId, trxId) =>
      one(`SELECT record FROM transactions WHERE user_id = $1 AND upper(trx_id) = upper($2) ${newestFirst} LIMIT 1`, [userId, trxId]),
    listOpen: () => records('SELECT record FROM transactions WHERE NOT final ORDER BY created_at, ref_id', []),
    listByUser: (userId, options) =>
      records(`SELECT record FROM transactions WHERE user_id = $1 ${newestFirst} LIMIT $2 OFFSET $3`, [userId, ...page(options)]),
    listByTarget: (userId, target, options) =>
      records(`SELECT record FROM transactions WHERE user_id = $1 AND target = $2 ${newestFirst} LIMIT $3 OFFSET $4`, [
        userId,
        target,
        ...page(options),
      ]),
    listByUserBetween: (userId, from, to) =>
      records('SELECT record FROM transactions WHERE user_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at, ref_id', [
        userId,
        from.toISOString(),
        to.toISOString(),
      ]),
    listCreatedSince: (since) => records(`SELECT record FROM transactions WHERE created_at >= $1 ${newestFirst}`, [since.toISOString()]),
    async buyersSince(since) {
      const ids = await column<string>(
        pool,
        'user_id',
        `SELECT DISTINCT user_id FROM transactions WHERE created_at >= $1 AND record->>'status' <> 'Gagal'`,
        [since.toISOString()],
      );
      return new Set(ids.map(Number));
    },
    update: (refId, patch, options = {}) => change(refId, options.notify ?? [], (existing, at) => updatedTransaction(existing, patch, at)),
    settle(refId, patch, options = {}) {
      const notify = options.notify ?? [];
      return change(refId, notify, (existing, at) => settledTransaction(existing, patch, at, notify.length > 0), options.ledger);
    },
    due: (nowMs, options = {}) =>
      records('SELECT record FROM transactions WHERE NOT final AND due_at <= $1 ORDER BY due_at, ref_id LIMIT $2', [
        new Date(nowMs).toISOString(),
        options.limit ?? null,
      ]),
    async claimDue(nowMs, { limit, lease, skip, room }) {
      const at = new Date(nowMs).toISOString();
      return inTransaction(pool, async (client) => {
        // SKIP LOCKED: a row another claimer is taking right now is passed over, never waited for.
        // The caller's filters run here, so a page of candidates is locked and the chosen kept;
        // the rest are released at COMMIT, untouched.
        const { rows } = await client.query<{ record: TransactionRecord }>(
          `SELECT record FROM transactions
           WHERE NOT final AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
           ORDER BY due_at, ref_id LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [at, skip || room ? limit + claimSlack : limit],
        );
        const share = new Map<number, number>();
        const chosen: TransactionRecord[] = [];
        for (const { record } of rows) {
          if (chosen.length >= limit) break;
          if (skip?.(record.refId)) continue;
          const account = accountOf(record);
          const left = share.get(account) ?? room?.(account) ?? Infinity;
          if (left <= 0) continue;
          share.set(account, left - 1);
          chosen.push(record);
        }
        if (chosen.length > 0)
          await client.query('UPDATE transactions SET lease_owner = $1, lease_until = $2 WHERE ref_id = ANY($3)', [
            lease.owner,
            new Date(nowMs + lease.ms).toISOString(),
            chosen.map((tx) => tx.refId),
          ]);
        return chosen;
      });
    },
    async releaseClaim(refId, owner) {
      await pool.query('UPDATE transactions SET lease_owner = NULL, lease_until = NULL WHERE ref_id = $1 AND lease_owner = $2', [
        refId,
        owner,
      ]);
    },
    async nextDueAt() {
      const at = await first<Date | null>(pool, 'at', 'SELECT min(due_at) AS at FROM transactions WHERE NOT final');
      return at ? at.getTime() : undefined;
    },
  };
}
