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
import { versionedDecoder } from './versioned.ts';
import {
  broadcastJobSchema,
  broadcastRunning,
  endJob,
  isDone,
  keepFinished,
  newBroadcastJob,
  progressOf,
  recordDelivery,
  type BroadcastJob,
  type BroadcastOutcome,
  type BroadcastProgress,
  type NewBroadcastJob,
} from './records/broadcasts.ts';

export const broadcastsFileName = 'broadcasts.json';
const fileVersion = 1;

const fileSchema = z.object({ version: z.literal(fileVersion), jobs: z.record(z.string(), broadcastJobSchema) });

/** Decodes `broadcasts.json` (also for backups); a newer version is refused with StoreVersionError. */
export const decodeBroadcastsFile = versionedDecoder(fileSchema, fileVersion);
type BroadcastsData = z.infer<typeof fileSchema>;

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
