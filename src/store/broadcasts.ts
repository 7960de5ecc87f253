/**
 * Broadcast jobs, in their own file (`broadcasts.json`) so the hot file stays small: a job is
 * created with its whole audience in one write; its progress (a low-water mark `next` plus the
 * finished positions above it, `doneAbove`) is coalesced like every store write. After a restart
 * the unfinished positions are sent again; only those whose outcome was not on disk yet (bounded
 * by `maxUnrecordedDeliveries`) can be duplicates.
 *
 * A job's end with its final report is committed in the hot file (`broadcastEnds`, in the write
 * that queues the report) and then copied here; a crash in between is copied at the next open.
 */
import path from 'node:path';
import { z } from 'zod';
import { DurableFile, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { versionedDecoder } from './versioned.ts';
import type { HotData } from './schema.ts';
import type { AnsweredAtOnce, BroadcastStore, FileRepo } from './contract.ts';
import { insertOutboxItem } from './outbox.ts';
import { buildOutboxItem } from './records/outbox.ts';
import {
  broadcastJobSchema,
  broadcastRunning,
  endJob,
  endWithReport,
  isDone,
  keepFinished,
  newBroadcastJob,
  progressOf,
  recordDelivery,
  type BroadcastJob,
} from './records/broadcasts.ts';

export const broadcastsFileName = 'broadcasts.json';
const fileVersion = 1;

const fileSchema = z.object({ version: z.literal(fileVersion), jobs: z.record(z.string(), broadcastJobSchema) });

/** Decodes `broadcasts.json` (also for backups); a newer version is refused with StoreVersionError. */
export const decodeBroadcastsFile = versionedDecoder(fileSchema, fileVersion);
type BroadcastsData = z.infer<typeof fileSchema>;

/** The contract's BroadcastStore over `broadcasts.json`. */
export type BroadcastsRepo = AnsweredAtOnce<BroadcastStore, 'get' | 'running' | 'runningProgress' | 'isDone' | 'progress' | 'unreported'> &
  FileRepo & {
    /** Copies the ends a crash left in the hot file (`broadcastEnds`) into this file. */
    copyCarriedEnds(): Promise<void>;
  };

export async function openBroadcasts(options: {
  dataDir: string;
  /** The hot file: its outbox takes a job's final report, with the job's end. */
  hot: DurableFile<HotData>;
  now: () => Date;
  onWrite?: (event: WriteEvent) => void;
  writeFile?: AtomicWriter;
}): Promise<BroadcastsRepo> {
  const { now, hot } = options;
  const file = await DurableFile.open<BroadcastsData>({
    path: path.join(options.dataDir, broadcastsFileName),
    decode: decodeBroadcastsFile,
    defaultData: () => ({ version: fileVersion, jobs: {} }),
    onWrite: options.onWrite,
    writeFile: options.writeFile,
  });
  const copy = <T>(value: T): T => structuredClone(value);
  // The hot file's carried end is the commit point: until its copy here lands, readers see the job ended already.
  const carriedEnd = (id: string) => hot.data.broadcastEnds?.[id];
  const seen = (job: BroadcastJob): BroadcastJob => {
    const carried = carriedEnd(job.id);
    if (!carried) return job;
    const ended = copy(job);
    endWithReport(ended, carried.status, new Date(carried.at));
    return ended;
  };
  const isRunning = (job: BroadcastJob) => job.status === 'running' && !carriedEnd(job.id);
  const runningJob = () => Object.values(file.data.jobs).find(isRunning);
  const view = (job: BroadcastJob | undefined) => (job ? copy(seen(job)) : undefined);
  const progressView = (job: BroadcastJob | undefined) => (job ? copy(progressOf(seen(job))) : undefined);

  return {
    async create(input) {
      const job = newBroadcastJob(input, now());
      return copy(
        await file.update((data) => {
          if (Object.values(data.jobs).some(isRunning)) throw broadcastRunning();
          data.jobs[job.id] = job;
          return job;
        }),
      );
    },
    get: (id) => view(file.data.jobs[id]),
    running: () => view(runningJob()),
    runningProgress: () => progressView(runningJob()),
    isDone: (id, index) => {
      const job = file.data.jobs[id];
      return job !== undefined && isDone(job, index);
    },
    progress: (id) => progressView(file.data.jobs[id]),
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
    async finish(id, status, report) {
      if (report && file.data.jobs[id]) {
        const at = now();
        // The commit point: the report and the end in one write of the hot file. Decided inside the
        // update, which runs after every earlier one: two ends of one job at once (a cancel's and
        // the start's) queue one report.
        await hot.update((data) => {
          if (file.data.jobs[id]?.reportedAt !== undefined || data.broadcastEnds?.[id]) return;
          for (const item of report) insertOutboxItem(data, buildOutboxItem(item, at));
          data.broadcastEnds = { ...data.broadcastEnds, [id]: { status, at: at.toISOString() } };
        });
      }
      const job = await endHere(id, status);
      await dropCarried([id]);
      return job;
    },
    unreported: () =>
      progressView(Object.values(file.data.jobs).find((job) => job.reportDue && job.status !== 'running' && !carriedEnd(job.id))),
    async copyCarriedEnds() {
      const ends = Object.entries(hot.data.broadcastEnds ?? {});
      for (const [id, end] of ends) await endHere(id, end.status);
      await dropCarried(ends.map(([id]) => id));
    },
    flush: () => file.flush(),
    close: () => file.close(),
  };

  /** Writes the end of job `id` into this file: the one carried in the hot file if there is one (its report is queued), else `status` now. */
  async function endHere(id: string, status: 'done' | 'cancelled'): Promise<BroadcastJob | undefined> {
    const carried = carriedEnd(id);
    const result = await file.update((data) => {
      const job = data.jobs[id];
      if (!job) return undefined;
      if (carried) endWithReport(job, carried.status, new Date(carried.at));
      else endJob(job, status, now());
      const finished = Object.values(data.jobs)
        .filter((other) => other.status !== 'running')
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
      for (const old of finished.slice(keepFinished)) delete data.jobs[old.id];
      return job;
    });
    return result ? copy(result) : undefined;
  }

  /** Forgets the carried ends of `ids` once this file has them. */
  async function dropCarried(ids: readonly string[]): Promise<void> {
    if (!ids.some(carriedEnd)) return;
    await hot.update((data) => {
      const ends = { ...data.broadcastEnds };
      for (const id of ids) delete ends[id];
      if (Object.keys(ends).length > 0) data.broadcastEnds = ends;
      else delete data.broadcastEnds;
    });
  }
}
