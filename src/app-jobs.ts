/** The background jobs of an app instance, and the daily summary job they include. */
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { Db } from './store/db.ts';
import type { Outbox } from './notify/outbox.ts';
import type { OperatorFeed } from './notify/operator-feed.ts';
import type { BroadcastRunner } from './jobs/broadcast.ts';
import type { SettlementWatcher } from './jobs/settlement.ts';
import { createDailySummaryJob, type DailySummaryJob } from './jobs/daily-summary.ts';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { ConversationContext } from './bot/context.ts';
import type { createI18n } from './bot/i18n.ts';
import { dailySummaryItem } from './bot/renderers/daily-summary.ts';
import { loadPeriodReport } from './services/period-report.ts';
import { userLocale } from './store/records/users.ts';
import type { TextVariable } from './text/html.ts';
import type { PriceWatchJob } from './jobs/price-watch.ts';
import type { Services } from './services/services.ts';
import type { BackupJob, DataDirectory } from './jobs/backups.ts';
import type { UpdatePipeline } from './server/update-pipeline.ts';
import { replayInbox, type UpdateClaims } from './server/update-inbox.ts';
import { inboxRetention } from './store/contract.ts';
import { atShutdown, everyInterval, job, type Job } from './jobs/scheduler.ts';

/** How often the passes without a setting of their own run (tests shorten them). */
export interface JobIntervals {
  /** How often every balance alert is checked (ms). Default 10 minutes. */
  alertIntervalMs?: number;
}

/** How often accepted deposits without their credit are looked for, besides at start. */
export const depositCreditsEveryMs = 10 * 60_000;

/** What the background jobs are made of (see `backgroundJobs`). */
export interface JobParts {
  config: Config;
  intervals: JobIntervals;
  logger: Logger;
  db: Db;
  /** The lowdb store's files (undefined on PostgreSQL): scheduled backups run only with them. */
  dataDirectory: DataDirectory | undefined;
  outbox: Outbox;
  operatorFeed: OperatorFeed;
  broadcaster: BroadcastRunner;
  watcher: SettlementWatcher;
  summaries: DailySummaryJob;
  priceWatch: PriceWatchJob;
  services: Services;
  backups: BackupJob;
  updates: UpdatePipeline;
  updateClaims: UpdateClaims;
}

/**
 * The instance's background jobs, in start order (stopped in reverse: jobs/scheduler.ts): a
 * broadcast's leadership is let go last, after the outbox recorded the copies in flight; the
 * operator feed flushes into the outbox before it stops.
 */
export function backgroundJobs(parts: JobParts): Job[] {
  const { config, logger, db, broadcaster } = parts;
  const fleet = config.databaseUrl !== undefined;
  return [
    // Stopped last: after the copies in flight are recorded, another instance resumes the broadcast from there.
    atShutdown('broadcast-leadership', () => broadcaster.release()),
    job('outbox', parts.outbox),
    // Counted bursts go into the outbox's store before it stops (sent after the restart).
    atShutdown('operator-feed', () => parts.operatorFeed.close()),
    job('broadcast', broadcaster),
    job('settlement-watcher', parts.watcher),
    everyInterval(
      'daily-summaries',
      60_000,
      () => parts.summaries.runOnce(),
      (error) => logger.warn('daily summary pass failed; the next tick tries again', { error }),
    ),
    job('price-watch', parts.priceWatch),
    // A deposit accepted whose credit a crash or a failed write cut off is credited once here
    // (wallets.ts): at start, and on a fleet whose other instances live on, every few minutes.
    ...(config.downlines
      ? [
          everyInterval(
            'deposit-credits',
            depositCreditsEveryMs,
            () =>
              parts.services.wallets.finishAccepted().then(({ credited, refused }) => {
                if (credited > 0) logger.info('credited accepted deposits whose credit had not been written', { credited });
                if (refused.length > 0) logger.warn('accepted deposits the ledger refuses to credit; settle them by hand', { refused });
              }),
            (error) => logger.warn('the pass over accepted deposits failed; the next one tries again', { error }),
            { atStart: true },
          ),
        ]
      : []),
    everyInterval(
      'balance-alerts',
      parts.intervals.alertIntervalMs ?? 10 * 60_000,
      () => parts.services.alerts.checkAll(),
      (error) => logger.warn('balance alert pass failed; the next one tries again', { error }),
    ),
    // On a shared store an instance that died leaves the updates it held: the others replay them once their hold runs out.
    ...(fleet
      ? [
          everyInterval(
            'replay',
            Math.max(1000, Math.min(60_000, config.claims.leaseMs)),
            () =>
              replayInbox(parts.updates.handle, db.inbox, logger, parts.updateClaims).then(() =>
                db.inbox.pruneDone(inboxRetention.webhook.postgres),
              ),
            (error) => logger.error('replay failed', { error }),
          ),
          // A broadcast started on another instance, or whose leader died, is looked for here.
          everyInterval(
            'broadcast-wake',
            2000,
            () => Promise.resolve(broadcaster.wake()),
            () => undefined,
          ),
        ]
      : []),
    ...(parts.dataDirectory && config.backups.everyMs > 0
      ? [
          everyInterval(
            'backups',
            config.backups.everyMs,
            () => parts.backups.run(),
            (error) => logger.error('backup failed', { error }),
          ),
        ]
      : []),
  ];
}

/** The daily summary job: each user's report of yesterday, in their language, at their hour. */
export function createSummaryJob(parts: {
  config: Config;
  db: Db;
  i18n: ReturnType<typeof createI18n<ConversationContext>>;
  logger: Logger;
  now: () => Date;
  onQueued: () => void;
}): DailySummaryJob {
  const { config, db, i18n } = parts;
  return createDailySummaryJob({
    db,
    now: parts.now,
    logger: parts.logger,
    summary: async (user, range) => {
      const locale = userLocale(user, config.defaultLocale);
      const t = ((key: string, variables?: Record<string, TextVariable>) => i18n.t(locale, key, variables)) as TranslateFunction;
      return dailySummaryItem(t, user.id, await loadPeriodReport(db, user.id, range));
    },
    onQueued: parts.onQueued,
  });
}
