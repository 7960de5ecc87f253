/**
 * Broadcast jobs: an admin's message, its whole audience and its progress, and the rules that make
 * one and count its deliveries, shared by both engines. Position `i` of `recipients` is finished
 * when `i < next` or `i` is in `doneAbove`.
 */
import { z } from 'zod';
import { StoreError } from '../errors.ts';

const broadcastAudienceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('service'), service: z.string() }),
  z.object({ kind: z.literal('locale'), locale: z.string() }),
  z.object({ kind: z.literal('buyers'), days: z.number().int().positive() }),
]);
export type BroadcastAudience = z.infer<typeof broadcastAudienceSchema>;

export const broadcastJobSchema = z.object({
  id: z.string(),
  adminId: z.number().int(),
  /** The message to copy: chat and id in the admin's chat. */
  fromChatId: z.number().int(),
  messageId: z.number().int(),
  /** Inline keyboard sent with every copy (Telegram's shape), if the message had one. */
  replyMarkup: z.object({ inline_keyboard: z.array(z.array(z.record(z.string(), z.unknown()))) }).optional(),
  audience: broadcastAudienceSchema,
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
  /** When the admin's final report was queued (in the write that ended the job, or after it for a job cancelled first). */
  reportedAt: z.string().optional(),
  /** Ended without its final report (cancelled while copies were in flight): the runner queues it, at the latest at its next start. */
  reportDue: z.literal(true).optional(),
});
export type BroadcastJob = z.infer<typeof broadcastJobSchema>;
export type BroadcastOutcome = 'sent' | 'blocked' | 'failed';
export type BroadcastProgress = Omit<BroadcastJob, 'recipients' | 'doneAbove'> & { total: number };

export type NewBroadcastJob = Pick<BroadcastJob, 'id' | 'adminId' | 'fromChatId' | 'messageId' | 'audience' | 'recipients'> &
  Partial<Pick<BroadcastJob, 'progressMessageId' | 'replyMarkup'>>;

/** A new running job with nothing sent yet, validated. */
export function newBroadcastJob(input: NewBroadcastJob, now: Date): BroadcastJob {
  const fresh = { next: 0, doneAbove: [], sent: 0, blocked: 0, failed: 0, status: 'running', createdAt: now.toISOString() };
  return broadcastJobSchema.parse({ ...input, ...fresh });
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
  if (job.reportedAt === undefined) job.reportDue = true;
}

/**
 * Ends `job` (in place, see endJob) and marks its final report queued at `at` unless it was
 * already: true when the report is to be queued now, in the same write.
 */
export function endWithReport(job: BroadcastJob, status: 'done' | 'cancelled', at: Date): boolean {
  endJob(job, status, at);
  if (job.reportedAt !== undefined) return false;
  job.reportedAt = at.toISOString();
  delete job.reportDue;
  return true;
}

/** The job without its recipient list. */
export function progressOf(job: BroadcastJob): BroadcastProgress {
  const { recipients, doneAbove: _doneAbove, ...rest } = job;
  return { ...rest, total: recipients.length };
}

/** Finished jobs kept for /stats and reports; older ones are dropped with the next finish. */
export const keepFinished = 20;
