/**
 * Delivers the running broadcast job: the bulk source of the outbox's bulk lane (src/notify/bulk.ts).
 * It hands out one recipient at a time in list order, at most `rate` per `windowMs`, copying the
 * admin's message (`copyMessage`, with its inline keyboard, and `allow_paid_broadcast` when paid).
 * Each outcome is recorded in the job (coalesced writes); a restart resumes at the first
 * unfinished position. Every `progressEveryMs` the admin's progress message is edited through the
 * outbox; when the job ends (done or cancelled) a final report is queued for the admin.
 */
import type { Api } from 'grammy';
import type { Logger } from '../logger.ts';
import type { BulkDelivery, BulkOutcome, BulkSource } from '../notify/bulk.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { BroadcastJob, BroadcastProgress } from '../store/records/broadcasts.ts';
import type { Db } from '../store/db.ts';
import { fleetLocks } from '../store/fleet-locks.ts';
import { userLocale } from '../store/records/users.ts';
import { writeFailureFields, writeFailureOf } from '../store/errors.ts';

/** How long a broadcast waits before writing its end (or queueing its report) again after a failed write. */
const finishRetryMs = 2000;

export interface BroadcastRunnerOptions {
  db: Db;
  logger: Logger;
  /** Messages per window (BROADCAST_RATE). */
  rate: number;
  /** Default 1000. */
  windowMs?: number;
  /** `allow_paid_broadcast` (BROADCAST_PAID): copies do not count against the global window. */
  paid: boolean;
  /** Default 3000. */
  progressEveryMs?: number;
  /** A failing delivery (network, 5xx) is given up after this many attempts. Default 5. */
  maxAttempts?: number;
  translate: (locale: string, key: string, variables?: Record<string, string | number>) => string;
  defaultLocale: string;
  enqueue: (items: NewOutboxItem[]) => Promise<void>;
  /** Attaches the source to the outbox (`outbox.setBulkSource`). */
  attach: (source: BulkSource | undefined) => void;
}

export interface BroadcastRunner {
  /** Picks up the running job (after a restart too) and starts delivering it. */
  start(): void;
  /** A job started or was cancelled. */
  wake(): void;
  /** Stops handing out deliveries (the outbox waits for those in flight). */
  stop(): void;
  /**
   * Gives up delivering broadcasts, so that another instance sharing the store takes the job
   * over. Call it after `stop()` once the outbox has stopped: the copies in flight are recorded
   * by then, and the next instance does not send them again.
   */
  release(): void;
}

type Job = Pick<BroadcastJob, 'id' | 'adminId' | 'fromChatId' | 'messageId' | 'replyMarkup' | 'recipients'>;

export function createBroadcastRunner(options: BroadcastRunnerOptions): BroadcastRunner {
  const { db } = options;
  const log = options.logger.child({ component: 'broadcast' });
  const windowMs = options.windowMs ?? 1000;
  const maxAttempts = options.maxAttempts ?? 5;
  let job: Job | undefined;
  let cursor = 0;
  const retries: number[] = [];
  const inFlight = new Set<number>();
  const attempts = new Map<number, number>();
  /** Monotonic start times inside the rate window. */
  const starts: number[] = [];
  /** Monotonic times of recorded outcomes (the measured rate). */
  const outcomes: number[] = [];
  let finishing = false;
  let progressTimer: NodeJS.Timeout | undefined;
  let running = false;
  /** Positions above the job's low-water mark that were finished when it was loaded. */
  let doneAtLoad = new Set<number>();
  /** Jobs seen cancelled (by an admin on any instance): the rest of their audience is not sent. */
  const stopped = new Set<string>();

  /**
   * Leadership: of the instances sharing a store, one delivers the running broadcast. It holds the
   * store's lock of `fleetLocks.broadcast` while it does (PostgreSQL: an advisory lock on its own
   * connection); the others wait for it, and when the leader dies its connection (and so the lock)
   * goes, and the next one resumes the job from its recorded progress.
   */
  let leadership: (() => void) | undefined;
  let acquiring: Promise<void> | undefined;
  const lead = (): Promise<void> => {
    if (leadership) return Promise.resolve();
    acquiring ??= new Promise<void>((acquired, failed) => {
      db.chatLocks
        .run(
          fleetLocks.broadcast,
          (held) =>
            new Promise<void>((release) => {
              leadership = release;
              // The lock went with its database connection: another instance may lead now, so no
              // more deliveries are handed out here; the next wake takes the lock again and resumes
              // from the recorded progress.
              held.addEventListener(
                'abort',
                () => {
                  log.error('broadcast leadership lost with its database connection; delivery pauses until it is taken again', {
                    jobId: job?.id,
                  });
                  job = undefined;
                  options.attach(undefined);
                  release();
                },
                { once: true },
              );
              acquired();
            }),
        )
        .catch(failed)
        .finally(() => {
          leadership = undefined;
          acquiring = undefined;
        });
    });
    return acquiring;
  };
  const resign = () => leadership?.();

  /** Loads the running job, taking the leadership first when there is one (and giving it up when there is none). */
  const loadAsLeader = async () => {
    if (!running) return;
    if (!(await db.broadcasts.runningProgress())) {
      if (!job) resign();
      return;
    }
    await lead();
    if (!running) {
      resign();
      return;
    }
    await load();
    if (!job) resign();
  };

  const adminLocale = async (adminId: number) => userLocale(await db.users.get(adminId), options.defaultLocale);

  const load = async () => {
    const found = await db.broadcasts.running();
    if (!found || found.id === job?.id) return;
    const { id, adminId, fromChatId, messageId, replyMarkup, recipients } = found;
    job = { id, adminId, fromChatId, messageId, replyMarkup, recipients };
    cursor = found.next;
    doneAtLoad = new Set(found.doneAbove);
    retries.length = 0;
    attempts.clear();
    finishing = false;
    log.info('broadcast running', { jobId: id, recipients: recipients.length, from: found.next });
    progressTimer ??= setInterval(
      () => void reportProgress().catch((error: unknown) => log.warn('reading the broadcast progress failed', { error })),
      options.progressEveryMs ?? 3000,
    );
    progressTimer.unref();
    options.attach(source);
  };

  const render = (progress: BroadcastProgress, final: boolean, locale: string): string => {
    const t = (key: string, variables?: Record<string, string | number>) => options.translate(locale, key, variables);
    const done = progress.sent + progress.blocked + progress.failed;
    const remaining = progress.total - done;
    const now = performance.now();
    while (outcomes.length > 0 && outcomes[0]! < now - 10_000) outcomes.shift();
    const rate = outcomes.length / 10;
    const counts = { sent: progress.sent, remaining, blocked: progress.blocked, failed: progress.failed, total: progress.total };
    if (final) return t(progress.status === 'cancelled' ? 'broadcast-report-cancelled' : 'broadcast-report-done', counts);
    const eta = rate > 0 ? Math.ceil(remaining / rate) : 0;
    return t('broadcast-progress', {
      ...counts,
      rate: rate.toFixed(1),
      eta: `${Math.floor(eta / 60)}:${String(eta % 60).padStart(2, '0')}`,
    });
  };

  const progressItems = async (progress: BroadcastProgress, final: boolean): Promise<NewOutboxItem[]> => {
    if (progress.progressMessageId === undefined) return [];
    const locale = await adminLocale(progress.adminId);
    return [
      {
        chatId: progress.adminId,
        kind: 'broadcast-progress',
        payload: { type: 'edit', messageId: progress.progressMessageId, text: render(progress, final, locale), parseMode: 'HTML' },
        dedupeKey: final ? undefined : `broadcast-progress:${progress.id}`,
      },
    ];
  };

  async function reportProgress(): Promise<void> {
    const current = job;
    if (!current || finishing) return;
    const progress = await db.broadcasts.progress(current.id);
    if (!progress || progress.status !== 'running') {
      // Cancelled (on any instance): no more deliveries are handed out.
      if (progress?.id === current.id) stopped.add(current.id);
      return;
    }
    await options.enqueue(await progressItems(progress, false)).catch((error: unknown) => log.error('progress report failed', { error }));
  }

  /**
   * Ends the job and queues the admin's final report. A write that fails (a full disk) is tried
   * again after a while, not dropped: the job stays running on disk until its end is written, and
   * the report is queued once, with the counts on disk.
   */
  async function finish(current: Job): Promise<void> {
    try {
      const status = (await db.broadcasts.progress(current.id))?.status === 'cancelled' ? 'cancelled' : 'done';
      const final = await db.broadcasts.finish(current.id, status);
      const progress = await db.broadcasts.progress(current.id);
      if (final && progress) {
        log.info('broadcast finished', {
          jobId: current.id,
          status,
          sent: progress.sent,
          blocked: progress.blocked,
          failed: progress.failed,
        });
        await queueReport(progress);
      }
    } catch (error) {
      const failure = writeFailureOf(error);
      log.error('finishing a broadcast failed; trying again shortly', {
        jobId: current.id,
        ...(failure ? writeFailureFields(failure) : { error }),
      });
      if (running) {
        setTimeout(() => void finish(current), finishRetryMs).unref();
        return;
      }
    }
    if (job === current) job = undefined;
    await loadAsLeader().catch((error: unknown) => log.error('loading the running broadcast failed', { error }));
    if (!job) {
      options.attach(undefined);
      if (progressTimer) clearInterval(progressTimer);
      progressTimer = undefined;
    }
  }

  /** Queues the final report, trying again while the queue cannot be written (the job's end is on disk already). */
  async function queueReport(progress: BroadcastProgress): Promise<void> {
    const report: NewOutboxItem = {
      chatId: progress.adminId,
      kind: 'broadcast-report',
      payload: { type: 'send', text: render(progress, true, await adminLocale(progress.adminId)), parseMode: 'HTML' },
    };
    const items = [...(await progressItems(progress, true)), report];
    for (;;) {
      try {
        await options.enqueue(items);
        return;
      } catch (error) {
        if (!running) throw error;
        const failure = writeFailureOf(error);
        log.error('queueing the broadcast report failed; trying again shortly', {
          jobId: progress.id,
          ...(failure ? writeFailureFields(failure) : { error }),
        });
        await new Promise((resolve) => setTimeout(resolve, finishRetryMs).unref());
      }
    }
  }

  const delivery = (current: Job, index: number, chatId: number, startedAt: number): BulkDelivery => {
    // A failed record rejects and keeps the position in flight: the bulk lane writes it again.
    const settle = async (outcome: BulkOutcome) => {
      await db.broadcasts.record(current.id, index, outcome);
      inFlight.delete(index);
      outcomes.push(performance.now());
    };
    return {
      chatId,
      // Blocked the bot since the audience was taken: counted as blocked, not sent, and its start
      // does not count against the rate (the next recipient takes its place at once).
      before: async () => {
        if ((await db.users.get(chatId))?.active !== false) return undefined;
        const at = starts.indexOf(startedAt);
        if (at >= 0) starts.splice(at, 1);
        return 'blocked';
      },
      send: (api: Api, signal: AbortSignal) =>
        api.copyMessage(
          chatId,
          current.fromChatId,
          current.messageId,
          {
            ...(current.replyMarkup ? { reply_markup: current.replyMarkup as never } : {}),
            ...(options.paid ? { allow_paid_broadcast: true } : {}),
          },
          signal as never,
        ),
      settle,
      retry(failure) {
        const tries = (attempts.get(index) ?? 0) + (failure ? 1 : 0);
        attempts.set(index, tries);
        if (tries < maxAttempts) {
          inFlight.delete(index);
          retries.push(index);
          return;
        }
        log.warn('giving up on a broadcast message after repeated failures', { jobId: current.id, chatId });
        return settle('failed');
      },
    };
  };

  const source: BulkSource = {
    paid: options.paid,
    take(t, isBusy) {
      const current = job;
      if (!current || finishing || !running) return undefined;
      const stopping = stopped.has(current.id);
      if (!stopping) {
        while (starts.length > 0 && starts[0]! <= t - windowMs) starts.shift();
        // A full window holds back the next recipient, not the end of a job with none left.
        const left = cursor < current.recipients.length || retries.length > 0;
        if (left && starts.length >= options.rate) return starts[0]! + windowMs;
        let index: number | undefined;
        const retryAt = retries.findIndex((candidate) => !isBusy(current.recipients[candidate]!));
        if (retryAt >= 0) index = retries.splice(retryAt, 1)[0];
        while (index === undefined && cursor < current.recipients.length) {
          const candidate = cursor;
          cursor += 1;
          if (inFlight.has(candidate) || doneAtLoad.has(candidate)) continue;
          const chatId = current.recipients[candidate]!;
          if (isBusy(chatId)) retries.push(candidate);
          else index = candidate;
        }
        if (index !== undefined) {
          inFlight.add(index);
          starts.push(t);
          return delivery(current, index, current.recipients[index]!, t);
        }
        if (retries.length > 0) return t + 50;
      }
      if (inFlight.size > 0) return undefined;
      finishing = true;
      void finish(current);
      return undefined;
    },
  };

  return {
    start() {
      running = true;
      void loadAsLeader().catch((error: unknown) => log.error('loading the running broadcast failed', { error }));
    },
    wake() {
      if (!running) return;
      void (async () => {
        const current = job;
        if (current && (await db.broadcasts.progress(current.id))?.status !== 'running') stopped.add(current.id);
        await loadAsLeader();
        options.attach(job ? source : undefined);
      })().catch((error: unknown) => log.error('loading the running broadcast failed', { error }));
    },
    stop() {
      running = false;
      if (progressTimer) clearInterval(progressTimer);
      progressTimer = undefined;
    },
    release() {
      resign();
    },
  };
}
