/**
 * Broadcast jobs, in their own file (`broadcasts.json`) so the hot file stays small and a job's
 * recipient list is not rewritten with every purchase. A job is created with its whole audience in
 * ONE write; its progress (a low-water mark plus the few finished positions above it, and the
 * counts) changes with every delivery and those changes are coalesced by the file like every other
 * store write: many deliveries, one file write.
 *
 * Resuming: position `i` of `recipients` is finished when `i < next` or `i` is in `doneAbove`.
 * After a restart the unfinished positions are sent again; only those whose request reached
 * Telegram but whose outcome was not on disk yet (bounded by the outbox, see
 * `maxUnrecordedDeliveries`) can be duplicates.
 */
import path from 'node:path';
import { z } from 'zod';
import { DurableFile, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { StoreError } from './errors.ts';
import { versionedDecoder } from './versioned.ts';

export const broadcastsFileName = 'broadcasts.json';
const fileVersion = 1;

const audienceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('service'), service: z.string() }),
  z.object({ kind: z.literal('locale'), locale: z.string() }),
  z.object({ kind: z.literal('buyers'), days: z.number().int().positive() }),
]);
export type BroadcastAudience = z.infer<typeof audienceSchema>;

const jobSchema = z.object({
  id: z.string(),
  adminId: z.number().int(),
  /** The message to copy: chat and id in the admin's chat. */
  fromChatId: z.number().int(),
  messageId: z.number().int(),
  /** Inline keyboard sent with every copy (Telegram's shape), if the message had one. */
  replyMarkup: z.object({ inline_keyboard: z.array(z.array(z.record(z.string(), z.unknown()))) }).optional(),
  audience: audienceSchema,
  recipients: z.array(z.number().int()),
  /** Every position below this is finished. */
  next: z.number().int().nonnegative(),
  /** Finished positions at or above `next` (a handful: deliveries finish out of order). */
  doneAbove: z.array(z.number().int()),
  sent: z.number().int().nonnegative(),
  blocked: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  status: z.enum(['running', 'done', 'cancelled']),
  /** The admin's progress message (edited while it runs). */
  progressMessageId: z.number().int().optional(),
  createdAt: z.string(),
  finishedAt: z.string().optional(),
});
export type BroadcastJob = z.infer<typeof jobSchema>;
export type BroadcastOutcome = 'sent' | 'blocked' | 'failed';
export type BroadcastProgress = Omit<BroadcastJob, 'recipients' | 'doneAbove'> & { total: number };

const fileSchema = z.object({ version: z.literal(fileVersion), jobs: z.record(z.string(), jobSchema) });

/** Decodes `broadcasts.json` (also for backups); a newer version is refused with StoreVersionError. */
export const decodeBroadcastsFile = versionedDecoder(fileSchema, fileVersion);
type BroadcastsData = z.infer<typeof fileSchema>;

export type NewBroadcastJob = Pick<BroadcastJob, 'id' | 'adminId' | 'fromChatId' | 'messageId' | 'audience' | 'recipients'> &
  Partial<Pick<BroadcastJob, 'progressMessageId' | 'replyMarkup'>>;

export interface BroadcastsRepo {
  /** Stores a new running job with its whole audience in one write. Refuses a second running job. */
  create(job: NewBroadcastJob): Promise<BroadcastJob>;
  get(id: string): BroadcastJob | undefined;
  /** The running job, if any (one at a time). */
  running(): BroadcastJob | undefined;
  /** The running job without its recipient list (cheap: asked with every delivery). */
  runningProgress(): BroadcastProgress | undefined;
  /** Whether position `index` of the job is finished. */
  isDone(id: string, index: number): boolean;
  /** The job without its recipient list (cheap: for progress reports and status checks). */
  progress(id: string): BroadcastProgress | undefined;
  /** Records one delivery's outcome; resolves once it is on disk (coalesced with others). */
  record(id: string, index: number, outcome: BroadcastOutcome): Promise<void>;
  setProgressMessage(id: string, messageId: number): Promise<void>;
  /** Ends a job (done or cancelled); resolves the final record once on disk. */
  finish(id: string, status: 'done' | 'cancelled'): Promise<BroadcastJob | undefined>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** A new running job with nothing sent yet, validated. */
export function newBroadcastJob(input: NewBroadcastJob, now: Date): BroadcastJob {
  const fresh = { next: 0, doneAbove: [], sent: 0, blocked: 0, failed: 0, status: 'running', createdAt: now.toISOString() };
  return jobSchema.parse({ ...input, ...fresh });
}

/** Refusal of a second running job. */
export function broadcastRunning(): StoreError {
  return new StoreError('duplicate', 'A broadcast is already running.');
}

/** Whether position `index` of `job` is finished. */
export function isDone(job: BroadcastJob, index: number): boolean {
  return index < job.next || job.doneAbove.includes(index);
}

/** Counts one delivery's outcome into `job` (in place); a finished position is left alone. */
export function recordDelivery(job: BroadcastJob, index: number, outcome: BroadcastOutcome): void {
  if (isDone(job, index)) return;
  job[outcome] += 1;
  job.doneAbove.push(index);
  const above = new Set(job.doneAbove);
  while (above.delete(job.next)) job.next += 1;
  job.doneAbove = [...above].sort((a, b) => a - b);
}

/** Ends a running `job` (in place) as done or cancelled at `at`; an ended one keeps its end. */
export function endJob(job: BroadcastJob, status: 'done' | 'cancelled', at: Date): void {
  if (job.status !== 'running') return;
  job.status = status;
  job.finishedAt = at.toISOString();
}

/** The job without its recipient list. */
export function progressOf(job: BroadcastJob): BroadcastProgress {
  const { recipients, doneAbove: _doneAbove, ...rest } = job;
  return { ...rest, total: recipients.length };
}

/** Validates a stored job (the PostgreSQL engine reads it from jsonb). */
export function parseBroadcastJob(value: unknown): BroadcastJob {
  return jobSchema.parse(value);
}

/** Finished jobs kept for /stats and reports; older ones are dropped with the next finish. */
export const keepFinished = 20;

export async function openBroadcasts(options: {
  dataDir: string;
  now: () => Date;
  onWrite?: (event: WriteEvent) => void;
  writeFile?: AtomicWriter;
}): Promise<BroadcastsRepo> {
  const { now } = options;
  const file = await DurableFile.open<BroadcastsData>({
    path: path.join(options.dataDir, broadcastsFileName),
    decode: decodeBroadcastsFile,
    defaultData: () => ({ version: fileVersion, jobs: {} }),
    onWrite: options.onWrite,
    writeFile: options.writeFile,
  });
  const copy = <T>(value: T): T => structuredClone(value);
  const runningJob = () => Object.values(file.data.jobs).find((candidate) => candidate.status === 'running');

  return {
    async create(input) {
      const job = newBroadcastJob(input, now());
      return copy(
        await file.update((data) => {
          if (Object.values(data.jobs).some((other) => other.status === 'running')) throw broadcastRunning();
          data.jobs[job.id] = job;
          return job;
        }),
      );
    },
    get: (id) => {
      const job = file.data.jobs[id];
      return job ? copy(job) : undefined;
    },
    running() {
      const job = runningJob();
      return job ? copy(job) : undefined;
    },
    runningProgress() {
      const job = runningJob();
      return job ? copy(progressOf(job)) : undefined;
    },
    isDone: (id, index) => {
      const job = file.data.jobs[id];
      return job !== undefined && isDone(job, index);
    },
    progress(id) {
      const job = file.data.jobs[id];
      return job ? copy(progressOf(job)) : undefined;
    },
    async record(id, index, outcome) {
      await file.update((data) => {
        const job = data.jobs[id];
        if (job) recordDelivery(job, index, outcome);
      });
    },
    async setProgressMessage(id, messageId) {
      await file.update((data) => {
        const job = data.jobs[id];
        if (job) job.progressMessageId = messageId;
      });
    },
    async finish(id, status) {
      const result = await file.update((data) => {
        const job = data.jobs[id];
        if (!job) return undefined;
        endJob(job, status, now());
        const finished = Object.values(data.jobs)
          .filter((other) => other.status !== 'running')
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
        for (const old of finished.slice(keepFinished)) delete data.jobs[old.id];
        return job;
      });
      return result ? copy(result) : undefined;
    },
    flush: () => file.flush(),
    close: () => file.close(),
  };
}
