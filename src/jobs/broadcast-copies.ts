/**
 * Handing out a broadcast's copies to the outbox's bulk lane (whose turns keep BROADCAST_RATE):
 * one recipient at a time in list order, a recipient whose chat is busy put back for later, a
 * failing copy tried again up to `maxAttempts` times. Each outcome is recorded in the job.
 */
import type { Api } from 'grammy';
import type { Logger } from '../logger.ts';
import type { BulkDelivery, BulkOutcome } from '../notify/bulk.ts';
import type { BroadcastJob } from '../store/records/broadcasts.ts';
import type { Db } from '../store/db.ts';

/** What delivering a job needs to know of it. */
export type BroadcastJobCopy = Pick<BroadcastJob, 'id' | 'adminId' | 'fromChatId' | 'messageId' | 'replyMarkup' | 'recipients'>;

interface BroadcastCopiesOptions {
  db: Db;
  log: Logger;
  /** `allow_paid_broadcast` on every copy. */
  paid: boolean;
  /** A failing delivery (network, 5xx) is given up after this many attempts. */
  maxAttempts: number;
  /** Called once an outcome is recorded (the measured rate of the progress report). */
  onRecorded: () => void;
}

/** The positions of the running job still to hand out and those in flight. */
export class BroadcastCopies {
  private readonly options: BroadcastCopiesOptions;
  private cursor = 0;
  private readonly retries: number[] = [];
  private readonly inFlight = new Set<number>();
  private readonly attempts = new Map<number, number>();
  /** Positions above the job's low-water mark that were finished when it was loaded. */
  private doneAtLoad = new Set<number>();

  constructor(options: BroadcastCopiesOptions) {
    this.options = options;
  }

  /** Starts over at a freshly loaded job's first unfinished position. */
  reset(next: number, doneAbove: Iterable<number>): void {
    this.cursor = next;
    this.doneAtLoad = new Set(doneAbove);
    this.retries.length = 0;
    this.attempts.clear();
  }

  /** Whether positions of `job` are left to hand out (next in list order, or put back). */
  left(job: BroadcastJobCopy): boolean {
    return this.cursor < job.recipients.length || this.retries.length > 0;
  }

  /** Whether copies handed out have not been recorded yet. */
  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  /** The next copy of `job` to send, or the time to ask again (only busy chats left); undefined when none is left to hand out. */
  next(job: BroadcastJobCopy, t: number, isBusy: (chatId: number) => boolean): BulkDelivery | number | undefined {
    const index = this.pick(job, isBusy);
    if (index !== undefined) {
      this.inFlight.add(index);
      return this.delivery(job, index, job.recipients[index]!);
    }
    if (this.retries.length > 0) return t + 50;
    return undefined;
  }

  /** A position put back earlier whose chat is free now, else the next one in list order whose chat is free. */
  private pick(job: BroadcastJobCopy, isBusy: (chatId: number) => boolean): number | undefined {
    const { retries } = this;
    let index: number | undefined;
    const retryAt = retries.findIndex((candidate) => !isBusy(job.recipients[candidate]!));
    if (retryAt >= 0) index = retries.splice(retryAt, 1)[0];
    while (index === undefined && this.cursor < job.recipients.length) {
      const candidate = this.cursor;
      this.cursor += 1;
      if (this.inFlight.has(candidate) || this.doneAtLoad.has(candidate)) continue;
      const chatId = job.recipients[candidate]!;
      if (isBusy(chatId)) retries.push(candidate);
      else index = candidate;
    }
    return index;
  }

  private delivery(job: BroadcastJobCopy, index: number, chatId: number): BulkDelivery {
    const { db, log, paid, maxAttempts } = this.options;
    // A failed record rejects and keeps the position in flight: the bulk lane writes it again.
    const settle = async (outcome: BulkOutcome) => {
      await db.broadcasts.record(job.id, index, outcome);
      this.inFlight.delete(index);
      this.options.onRecorded();
    };
    return {
      chatId,
      // Blocked the bot since the audience was taken: counted as blocked, not sent (its turn goes to the next recipient).
      before: async () => ((await db.users.get(chatId))?.active === false ? 'blocked' : undefined),
      send: (api: Api, signal: AbortSignal) =>
        api.copyMessage(
          chatId,
          job.fromChatId,
          job.messageId,
          {
            ...(job.replyMarkup ? { reply_markup: job.replyMarkup as never } : {}),
            ...(paid ? { allow_paid_broadcast: true } : {}),
          },
          signal as never,
        ),
      settle,
      retry: (failure) => {
        const tries = (this.attempts.get(index) ?? 0) + (failure ? 1 : 0);
        this.attempts.set(index, tries);
        if (tries < maxAttempts) {
          this.inFlight.delete(index);
          this.retries.push(index);
          return;
        }
        log.warn('giving up on a broadcast message after repeated failures', { jobId: job.id, chatId });
        return settle('failed');
      },
    };
  }
}
