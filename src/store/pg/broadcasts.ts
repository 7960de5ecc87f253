/**
 * Broadcast jobs on PostgreSQL: one row per job (its whole audience and progress as JSON), changed
 * under a row lock; the partial unique index `broadcasts_one_running` keeps one running job fleet-wide.
 */
import { buildOutboxItem } from '../records/outbox.ts';
import {
  broadcastJobSchema,
  broadcastRunning,
  endJob,
  endWithReport,
  keepFinished,
  newBroadcastJob,
  progressOf,
  recordDelivery,
  isDone,
  type BroadcastJob,
} from '../records/broadcasts.ts';
import type { StoreEngine } from '../contract.ts';
import { first, inTransaction, insertOutbox, isUniqueViolation, type PgConnections, type Queryable } from './db.ts';

/** The broadcast jobs repository of the contract. */
export function createPgBroadcasts(pool: PgConnections, now: () => Date): StoreEngine['broadcasts'] {
  /** The job the query finds, validated. */
  const found = async (db: Queryable, text: string, values: unknown[] = []) => {
    const stored = await first<unknown>(db, 'job', text, values);
    return stored === undefined ? undefined : broadcastJobSchema.parse(stored);
  };
  const job = (db: Queryable, id: string, lock = false) =>
    found(db, `SELECT job FROM broadcasts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  const running = () => found(pool, `SELECT job FROM broadcasts WHERE status = 'running'`);
  const write = (db: Queryable, value: BroadcastJob) =>
    db.query('UPDATE broadcasts SET status = $2, job = $3 WHERE id = $1', [value.id, value.status, value]);
  /** Locks the job, lets `change` edit it (and write more in the same transaction), writes it back; the job as changed. */
  const changeJob = (id: string, change: (value: BroadcastJob, client: Queryable) => void | Promise<void>) =>
    inTransaction(pool, async (client) => {
      const value = await job(client, id, true);
      if (!value) return undefined;
      await change(value, client);
      await write(client, value);
      return value;
    });

  return {
    async create(input) {
      const value = newBroadcastJob(input, now());
      try {
        // The partial unique index on running jobs refuses a second one, whichever instance starts it.
        await pool.query('INSERT INTO broadcasts (id, status, created_at, job) VALUES ($1, $2, $3, $4)', [
          value.id,
          value.status,
          value.createdAt,
          value,
        ]);
      } catch (error) {
        if (isUniqueViolation(error, 'broadcasts_one_running')) throw broadcastRunning();
        throw error;
      }
      return value;
    },
    get: (id) => job(pool, id),
    running,
    async runningProgress() {
      const value = await running();
      return value && progressOf(value);
    },
    async unreported() {
      const value = await found(
        pool,
        `SELECT job FROM broadcasts WHERE status <> 'running' AND job->>'reportDue' = 'true' ORDER BY created_at LIMIT 1`,
      );
      return value && progressOf(value);
    },
    async isDone(id, index) {
      const value = await job(pool, id);
      return value !== undefined && isDone(value, index);
    },
    async progress(id) {
      const value = await job(pool, id);
      return value ? progressOf(value) : undefined;
    },
    async record(id, index, outcome) {
      await changeJob(id, (value) => recordDelivery(value, index, outcome));
    },
    async setProgressMessage(id, messageId) {
      await changeJob(id, (value) => {
        value.progressMessageId = messageId;
      });
    },
    async finish(id, status, report) {
      const value = await changeJob(id, async (found, client) => {
        const at = now();
        if (!report) return endJob(found, status, at);
        // The report's outbox rows commit with the job's end, or neither does.
        if (endWithReport(found, status, at)) for (const item of report) await insertOutbox(client, buildOutboxItem(item, at));
      });
      await pool.query(
        `DELETE FROM broadcasts WHERE status <> 'running' AND id NOT IN
           (SELECT id FROM broadcasts WHERE status <> 'running' ORDER BY created_at DESC LIMIT $1)`,
        [keepFinished],
      );
      return value;
    },
  };
}
