import type { BotConfig } from 'grammy';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import type { StoreOptions } from './store/store.ts';
import { createDb, type Db } from './store/db.ts';
import type { ClaimHolder } from './store/claim-holder.ts';
import { randomUUID } from 'node:crypto';
import { createVault } from './store/vault.ts';
import { createProviders, type AccountProblem, type Providers } from './providers/factory.ts';
import type { NewOutboxItem } from './store/records/outbox.ts';
import { createAccountProblemReporter } from './notify/account-problems.ts';
import { createOperatorFeed, type OperatorFeedOptions } from './notify/operator-feed.ts';
import { createServices, type Services } from './services/services.ts';
import type { createBot } from './bot/index.ts';
import type { BotContext, BotDeps, ConversationContext, FloodLimit } from './bot/context.ts';
import { createI18n, senderLocale } from './bot/i18n.ts';
import { formatRupiah } from './text/format.ts';
import type { Notices } from './notify/notices.ts';
import type { createOutbox, Outbox } from './notify/outbox.ts';
import { createReplyPacer } from './notify/reply-pacer.ts';
import { broadcastRates } from './notify/rate-gate.ts';
import { createSettlementWatcher, type SettlementWatcher } from './jobs/settlement.ts';
import { createScheduler, type Scheduler } from './jobs/scheduler.ts';
import { createBackupJob, type BackupJob, type DataDirectory } from './jobs/backups.ts';
import { createBroadcastRunner, type BroadcastRunner } from './jobs/broadcast.ts';
import { BroadcastService } from './services/broadcasts.ts';
import type { DailySummaryJob } from './jobs/daily-summary.ts';
import { createPriceWatchJob, type PriceWatchJob } from './jobs/price-watch.ts';
import type { SellPriceOf } from './services/pricing.ts';
import { claimGuard, inboxGetUpdatesTransformer, replayInbox, type UpdateClaims } from './server/update-inbox.ts';
import { createUnstoredUpdates, type UnstoredUpdates } from './server/unstored-updates.ts';
import type { ActiveUpdateOptions } from './server/active-updates.ts';
import { createUpdatePipeline, type UpdatePipeline } from './server/update-pipeline.ts';
import { openEngine, processClaims } from './app-store.ts';
import { createAppBot, createAppDownlineMessages, createAppLogger, createAppNotices, createAppOutbox } from './app-parts.ts';
import { backgroundJobs, createSummaryJob, type JobIntervals } from './app-jobs.ts';

export interface App {
  bot: ReturnType<typeof createBot>;
  deps: BotDeps;
  /** The store services, jobs and the bot use: lowdb (DATA_DIR) or PostgreSQL (DATABASE_URL). */
  db: Db;
  /** The lowdb store's data directory (DATA_DIR), for backups and a flush to disk; undefined on PostgreSQL. */
  dataDirectory: DataDirectory | undefined;
  /** Names this process in the claims it takes in a shared store (leases of due checks, updates). */
  instanceId: string;
  /** This process's claims in a shared store, renewed while it lives and fenced by a token (src/store/claim-holder.ts). */
  claims: ClaimHolder;
  /** The stored updates this process handles and their claim tokens (the webhook records each). */
  updateClaims: UpdateClaims;
  /** The one path every update takes (update-pipeline.ts): the runner gets `updates.runnerBot`, the webhook `updates.handle`. */
  updates: UpdatePipeline;
  services: Services;
  providers: Providers;
  logger: Logger;
  notices: Notices;
  outbox: Outbox;
  watcher: SettlementWatcher;
  /** Delivers the running broadcast through the outbox's bulk lane. */
  broadcaster: BroadcastRunner;
  /** The opt-in daily summaries (/summary): yesterday's report at each user's WIB hour, through the outbox. */
  summaries: DailySummaryJob;
  /** Scheduled backups (run on their timer when BACKUP_EVERY_HOURS is set; `run()` makes one now). */
  backups: BackupJob;
  /** Price-change alerts' periodic fetches (PRICE_WATCH_MINUTES); `services.priceWatch.checkAll()` runs one pass now. */
  priceWatch: PriceWatchJob;
  /** The background jobs by name, in start order (jobs/scheduler.ts); `close` stops them in reverse. */
  jobs: Scheduler;
  /** Starts the background jobs (`jobs`): outbox, broadcasts, settlement watcher, summaries, price watch, balance alerts, a fleet's replay, backups. */
  startJobs(): void;
  /** Handles the stored updates a crash left unhandled; call after `bot.init()`, before updates are received. Resolves with the count. */
  replayInbox(): Promise<number>;
  /** Tells the users of updates the data directory could not store to try again (src/server/unstored-updates.ts). */
  unstored: UnstoredUpdates;
  /** Stops the jobs (waiting for calls in flight), then flushes and closes the store. */
  close(): Promise<void>;
}

/** The update types the bot asks Telegram for (long polling and the webhook alike). */
export const allowedUpdates = ['message', 'edited_message', 'callback_query', 'inline_query', 'my_chat_member', 'chat_member'] as const;

export interface AppOptions extends JobIntervals {
  logger?: Logger;
  now?: () => Date;
  botConfig?: BotConfig<BotContext>;
  /** How many updates are handled at once (src/server/active-updates.ts); default 32, 50 ms. */
  activeUpdates?: ActiveUpdateOptions;
  /** Milliseconds a conversation waits for the next answer. Default 15 minutes. */
  conversationTimeoutMs?: number;
  /** Outbox pacing (tests shorten it). */
  outboxLimits?: Parameters<typeof createOutbox>[0]['limits'];
  /** Broadcast pacing and progress reports (tests shorten them); the rate defaults to BROADCAST_RATE. */
  broadcast?: { rate?: number; windowMs?: number; progressEveryMs?: number };
  /** Watcher tick (ms). Default 1000. */
  watcherTickMs?: number;
  /** Replaces the store's file writer (tests simulate a full disk). */
  storeWriteFile?: StoreOptions['writeFile'];
  /** Per-user flood limit of the bot. Default 15 updates in 3 s (tests of long flows loosen it). */
  floodLimit?: FloodLimit;
  /** Grouping window and timers of the operator feed (tests drive them). */
  operatorFeed?: Pick<OperatorFeedOptions, 'windowMs' | 'setTimer' | 'clearTimer'>;
  /** A reseller's sell price of a product; default: their /jual rules (tests inject their own). */
  sellPriceOf?: SellPriceOf;
  /** The order deposit codes are tried in (default random; a test fixes it to see that a taken code is skipped). */
  depositCodes?: () => number[];
  /**
   * A fleet instance's claims heartbeat on a thread of its own (default, on the real clock); false
   * keeps it on the main thread. An injected `now` always keeps it there (the leases use that clock).
   */
  heartbeatThread?: boolean;
  /** Waits before handling again an update that failed on a temporary problem (src/server/update-inbox.ts); default 2 s, 10 s. */
  handlingRetryDelaysMs?: readonly number[];
}

/**
 * The composition root shared by `main.ts` and the end-to-end tests: config → store → providers
 * → services → bot. Nothing here starts polling; the caller decides how updates arrive.
 */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? createAppLogger(config);
  const now = options.now ?? (() => new Date());
  const vault = createVault({ key: config.encryptionKey, previousKeys: config.previousKeys });
  const instanceId = `${process.pid}-${randomUUID()}`;
  const { engine, dataDirectory } = await openEngine(config, { vault, now, instanceId, logger, storeWriteFile: options.storeWriteFile });
  const db = createDb(engine, vault, now);
  const { claims, claimTokens, updateClaims } = processClaims(config, { instanceId, db, logger }, options);
  // Set once the outbox exists; a provider call can only happen after createApp returns.
  let reportAccountProblem: (problem: AccountProblem) => void = () => undefined;
  const providers = createProviders(config.providers, {
    onAccountProblem: (problem) => reportAccountProblem(problem),
    // Endpoint path, status and duration only: the query, headers and body carry the api keys and signs.
    onCall: (call) => logger.info('provider call', { ...call }),
  });
  const i18n = createI18n<ConversationContext>({ defaultLocale: config.defaultLocale, db });
  const notices = createAppNotices(config, db, i18n);
  const { outbox, gate } = createAppOutbox({
    config,
    limits: {
      ...broadcastRates({ rate: options.broadcast?.rate ?? config.broadcast.rate, paid: config.broadcast.paid }),
      bulkWindowMs: options.broadcast?.windowMs,
      ...options.outboxLimits,
    },
    db,
    claims: claimTokens,
    logger,
    now,
    groupLinks: () => services.groupLinks,
  });
  /** Queues messages the bot sends on its own and wakes the outbox. */
  const enqueue = async (items: NewOutboxItem[]): Promise<void> => {
    for (const item of items) await db.outbox.enqueue(item);
    if (items.length > 0) outbox.kick();
  };
  const operatorFeed = createOperatorFeed({ enqueue, logger, ...options.operatorFeed });
  const broadcaster = createBroadcastRunner({
    db,
    logger,
    progressEveryMs: options.broadcast?.progressEveryMs,
    paid: config.broadcast.paid,
    translate: (locale, key, variables) => i18n.t(locale, key, variables),
    defaultLocale: config.defaultLocale,
    enqueue,
    kick: () => outbox.kick(),
    attach: (source) => outbox.setBulkSource(source),
  });
  const broadcasts = new BroadcastService({ db, now, defaultLocale: config.defaultLocale, wake: () => broadcaster.wake() });
  reportAccountProblem = createAccountProblemReporter({
    operatorItems: (problem, burst) => notices.accountProblem(problem, config.publicIp, burst),
    feed: operatorFeed,
    enqueue,
    logger,
    now,
  });
  const services = createServices({
    db,
    providers,
    logger,
    now,
    notices,
    formatMoney: formatRupiah,
    onQueued: () => outbox.kick(),
    gameshopCataloguePath: config.gameshopCataloguePath,
    recheckFirstMs: config.recheckFirstMs,
    adminIds: config.adminIds,
    sellPriceOf: options.sellPriceOf,
    depositCodes: options.depositCodes,
    ...createAppDownlineMessages(config, i18n),
    broadcastProgress: async () => {
      const running = await broadcasts.running();
      return running ? { sent: running.sent, total: running.total } : undefined;
    },
  });
  const watcher = createSettlementWatcher({
    db,
    claims: claimTokens,
    orphansAtStart: !config.databaseUrl,
    purchases: services.purchases,
    logger,
    now,
    horizonMs: config.pendingHorizonMs,
    tickMs: options.watcherTickMs,
    onAccountPaused: async (userId, reason) => enqueue(await notices.accountPaused(userId, reason)),
  });
  const summaries = createSummaryJob({ config, db, i18n, logger, now, onQueued: () => outbox.kick() });
  const priceWatch = createPriceWatchJob({ service: services.priceWatch, logger, intervalMs: config.priceWatchMs });
  const backups = createBackupJob({ dataDirectory, dir: config.backups.dir, keep: config.backups.keep, logger, now });
  const { bot, deps } = createAppBot({
    config,
    options,
    parts: { logger, db, services, notices, enqueue, operatorFeed, broadcasts, now, i18n },
    replyPacer: createReplyPacer(gate),
  });
  // Updates that may move money are stored before Telegram is told they arrived, marked done once handled.
  // Long polling (lowdb only: a fleet on PostgreSQL takes updates by webhook, see config.ts).
  // One the data directory cannot store is not handled: its user is told to try again.
  const unstored = createUnstoredUpdates({
    api: bot.api,
    logger,
    textFor: async (from) => i18n.t(await senderLocale(db, from, config.defaultLocale), 'error-cannot-save'),
  });
  if (!config.databaseUrl) bot.api.config.use(inboxGetUpdatesTransformer(db.inbox, unstored));
  // Polling, webhook deliveries, replays and retries take one path (update-pipeline.ts); on a fleet's
  // store it starts with the chat's lock and the claim checked in it.
  const updates = createUpdatePipeline({
    bot,
    inbox: db.inbox,
    claims: updateClaims,
    logger,
    ...(config.webhook ? { chatTurns: db } : {}),
    ...(options.activeUpdates ? { activeUpdates: options.activeUpdates } : {}),
    ...(options.handlingRetryDelaysMs ? { handlingRetryDelaysMs: options.handlingRetryDelaysMs } : {}),
  });
  // A process paused past its lease sends nothing for the updates whose claims moved meanwhile.
  if (config.databaseUrl) bot.api.config.use(claimGuard(claims));
  const parts = { config, intervals: options, logger, db, dataDirectory, outbox, operatorFeed, broadcaster, watcher, summaries };
  const scheduler = createScheduler(backgroundJobs({ ...parts, priceWatch, services, backups, updates, updateClaims }));
  return {
    bot,
    deps,
    db,
    dataDirectory,
    instanceId,
    claims,
    updateClaims,
    services,
    providers,
    logger,
    notices,
    outbox,
    watcher,
    broadcaster,
    summaries,
    backups,
    priceWatch,
    updates,
    replayInbox: () => replayInbox(updates.handle, db.inbox, logger, updateClaims),
    unstored,
    jobs: scheduler,
    startJobs: () => scheduler.start(),
    async close() {
      await scheduler.stop();
      await claims.stop();
      await db.close();
    },
  };
}
