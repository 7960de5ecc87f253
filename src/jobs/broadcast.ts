/**
 * Delivers the running broadcast job as the bulk source of the outbox's bulk lane: copies of the
 * admin's message (broadcast-copies.ts), each outcome recorded in the job, so a restart resumes at
 * the first unfinished position. The progress message is edited every `progressEveryMs`
 * (broadcast-reports.ts); the final report is queued in the same store write as the job's end, so
 * a stop or crash then can neither lose it nor send it twice. One instance leads (broadcast-leadership.ts).
 */
import type { Logger } from '../logger.ts';
import type { BulkSource } from '../notify/bulk.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { Db } from '../store/db.ts';
import { writeFailureFields, writeFailureOf } from '../store/errors.ts';
import { BroadcastLeadership } from './broadcast-leadership.ts';
import { BroadcastReports, finishRetryMs } from './broadcast-reports.ts';
import { BroadcastCopies, type BroadcastJobCopy } from './broadcast-copies.ts';

export interface BroadcastRunnerOptions {
  db: Db;
  logger: Logger;
  /** `allow_paid_broadcast` (BROADCAST_PAID): copies do not count against the global window. */
  paid: boolean;
  /** Default 3000. */
  progressEveryMs?: number;
  /** A failing delivery (network, 5xx) is given up after this many attempts. Default 5. */
  maxAttempts?: number;
  translate: (locale: string, key: string, variables?: Record<string, string | number>) => string;
  defaultLocale: string;
  enqueue: (items: NewOutboxItem[]) => Promise<void>;
  /** Tells the outbox that items were queued behind its back (the final report, queued by the store with the job's end). */
  kick: () => void;
  /** Attaches the source to the outbox (`outbox.setBulkSource`). */
  attach: (source: BulkSource | undefined) => void;
}

export interface BroadcastRunner {
  /** Picks up the running job (after a restart too) and starts delivering it. */
  start(): void;
  /** A job started or was cancelled. */
  wake(): void;
  /** Stops handing out deliveries; resolves once a job's end being written is on disk. */
  stop(): Promise<void>;
  /** Gives the job up to another instance; after `stop()` and the outbox's stop, so the copies in flight are recorded. */
  release(): void;
}

/** Creates the runner of the running broadcast job (see the module comment). */
export function createBroadcastRunner(options: BroadcastRunnerOptions): BroadcastRunner {
  return new BroadcastJobRunner(options);
}

/** Delivers the running job while this instance leads: loads it, hands out its copies, reports, ends it. */
class BroadcastJobRunner implements BroadcastRunner {
  private readonly db: Db;
  private readonly options: BroadcastRunnerOptions;
  private readonly log: Logger;
  private readonly leadership: BroadcastLeadership;
  private readonly reports: BroadcastReports;
  private readonly copies: BroadcastCopies;
  private job: BroadcastJobCopy | undefined;
  private finishing = false;
  /** The write of a job's end in flight, which `stop` waits for. */
  private ending: Promise<void> | undefined;
  private progressTimer: NodeJS.Timeout | undefined;
  private running = false;
  /** Jobs seen cancelled (by an admin on any instance): the rest of their audience is not sent. */
  private readonly stopped = new Set<string>();
  /** What the outbox's bulk lane asks for the next copy. */
  private readonly source: BulkSource;
  /** The last leadership step queued (see `inTurn`). */
  private turns: Promise<void> = Promise.resolve();

  constructor(options: BroadcastRunnerOptions) {
    const { db } = options;
    const log = options.logger.child({ component: 'broadcast' });
    this.db = db;
    this.options = options;
    this.log = log;
    this.leadership = new BroadcastLeadership(db, () => this.leadershipLost());
    const { translate, defaultLocale, enqueue } = options;
    this.reports = new BroadcastReports({ db, log, translate, defaultLocale, enqueue });
    this.copies = new BroadcastCopies({
      db,
      log,
      paid: options.paid,
      maxAttempts: options.maxAttempts ?? 5,
      onRecorded: () => {
        this.reports.counted();
        // The last copy recorded ends the job: the lane may not ask again before its rate window passes.
        const current = this.job;
        if (current && (this.stopped.has(current.id) || !this.copies.left(current))) this.endIfDone(current);
      },
    });
    this.source = { paid: options.paid, take: (t, isBusy) => this.take(t, isBusy) };
  }

  start(): void {
    this.running = true;
    this.inTurn(async () => {
      await this.loadAsLeader();
      await this.reportCancelled();
    });
  }

  wake(): void {
    if (!this.running) return;
    this.inTurn(async () => {
      const current = this.job;
      if (current && (await this.db.broadcasts.progress(current.id))?.status !== 'running') this.stopped.add(current.id);
      await this.loadAsLeader();
      this.options.attach(this.job ? this.source : undefined);
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.progressTimer = undefined;
    await this.ending;
  }

  release(): void {
    this.leadership.close();
  }

  /**
   * Runs `task` after every step queued before it. A step takes the lock, loads and gives the lock
   * up as one: two at once could have one give the lock up while the other, leading on the same
   * hold, was still loading a job it would then deliver without it.
   */
  private inTurn(task: () => Promise<void>): void {
    const step = this.turns.then(task).catch((error: unknown) => this.log.error('loading the running broadcast failed', { error }));
    this.turns = step;
  }

  private leadershipLost(): void {
    this.log.error('broadcast leadership lost with its database connection; delivery pauses until it is taken again', {
      jobId: this.job?.id,
    });
    this.job = undefined;
    this.options.attach(undefined);
  }

  /** Loads the running job, taking the leadership first when there is one (and giving it up when there is none). */
  private async loadAsLeader(): Promise<void> {
    if (!this.running) return;
    if (!(await this.db.broadcasts.runningProgress())) {
      if (!this.job) this.leadership.resign();
      return;
    }
    // Refused once released: another instance resumes the job.
    if (!(await this.leadership.lead())) return;
    if (!this.running) {
      // Stopped meanwhile: a job's copies in flight are recorded before `release` lets the lock go.
      if (!this.job) this.leadership.resign();
      return;
    }
    await this.load();
    if (!this.job) this.leadership.resign();
  }

  private async load(): Promise<void> {
    const found = await this.db.broadcasts.running();
    if (!found || found.id === this.job?.id) return;
    const { id, adminId, fromChatId, messageId, replyMarkup, recipients } = found;
    this.job = { id, adminId, fromChatId, messageId, replyMarkup, recipients };
    this.copies.reset(found.next, found.doneAbove);
    this.finishing = false;
    this.log.info('broadcast running', { jobId: id, recipients: recipients.length, from: found.next });
    this.progressTimer ??= setInterval(
      () => void this.reportProgress().catch((error: unknown) => this.log.warn('reading the broadcast progress failed', { error })),
      this.options.progressEveryMs ?? 3000,
    );
    this.progressTimer.unref();
    this.options.attach(this.source);
  }

  /** The bulk lane's `take`: the next copy, a time to ask again, or (the job done) its end. */
  private take(t: number, isBusy: (chatId: number) => boolean): ReturnType<BulkSource['take']> {
    const current = this.job;
    if (!current || this.finishing || !this.running) return undefined;
    if (!this.stopped.has(current.id)) {
      const next = this.copies.next(current, t, isBusy);
      if (next !== undefined) return next;
    }
    this.endIfDone(current);
    return undefined;
  }

  /** Ends `current` once no copy of it is in flight (once: later calls do nothing). */
  private endIfDone(current: BroadcastJobCopy): void {
    if (this.finishing || !this.running || this.copies.busy) return;
    this.finishing = true;
    this.end(current);
  }

  private async reportProgress(): Promise<void> {
    const current = this.job;
    if (!current || this.finishing) return;
    const progress = await this.db.broadcasts.progress(current.id);
    if (!progress || progress.status !== 'running') {
      // Cancelled (on any instance): no more deliveries are handed out.
      if (progress?.id === current.id) this.stopped.add(current.id);
      return;
    }
    await this.reports.progress(progress);
  }

  private end(current: BroadcastJobCopy): void {
    void this.track(this.finish(current));
  }

  /** Keeps `work` (a write of a job's end) in `ending` while it runs, for `stop` to wait for. */
  private track(work: Promise<void>): Promise<void> {
    const ending = work.finally(() => {
      if (this.ending === ending) this.ending = undefined;
    });
    this.ending = ending;
    return ending;
  }

  /** Queues the report of a job cancelled while its runner stopped before ending it, as its leader. */
  private async reportCancelled(): Promise<void> {
    if (!this.running || this.job || !(await this.db.broadcasts.unreported())) return;
    if (!(await this.leadership.lead())) return;
    try {
      const found = await this.db.broadcasts.unreported();
      if (found && this.running && !this.job) await this.track(this.writeEnd(found.id));
    } finally {
      if (!this.job) this.leadership.resign();
    }
  }

  /** Ends the job with the admin's final report; a failed write is tried again later (the job stays running on disk until then). */
  private async finish(current: BroadcastJobCopy): Promise<void> {
    try {
      await this.writeEnd(current.id);
    } catch (error) {
      const failure = writeFailureOf(error);
      const retry = this.running;
      this.log.error(
        retry ? 'finishing a broadcast failed; trying again shortly' : 'finishing a broadcast failed; the next start finishes it',
        {
          jobId: current.id,
          ...(failure ? writeFailureFields(failure) : { error }),
        },
      );
      if (retry) {
        setTimeout(() => {
          if (this.running) this.end(current);
        }, finishRetryMs).unref();
        return;
      }
    }
    // Not awaited: `stop` waits for the end's write only, not for a lock another instance may hold.
    this.inTurn(async () => {
      if (this.job === current) this.job = undefined;
      await this.loadAsLeader();
      if (!this.job) {
        this.options.attach(undefined);
        if (this.progressTimer) clearInterval(this.progressTimer);
        this.progressTimer = undefined;
      }
    });
  }

  /** Writes the job's end (done, or cancelled when an admin cancelled it) with its final report, queued the first time only. */
  private async writeEnd(id: string): Promise<void> {
    const { db } = this;
    const progress = await db.broadcasts.progress(id);
    if (!progress) return;
    const status = progress.status === 'cancelled' ? 'cancelled' : 'done';
    // Every copy is recorded by now: these counts are the final ones.
    const report = await this.reports.finalItems({ ...progress, status });
    const final = await db.broadcasts.finish(id, status, report);
    if (!final) return;
    this.options.kick();
    this.log.info('broadcast finished', { jobId: id, status, sent: final.sent, blocked: final.blocked, failed: final.failed });
  }
}
