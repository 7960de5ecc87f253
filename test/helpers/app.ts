/**
 * End-to-end harness: the real app (createApp, the same composition as main.ts) against the
 * sandbox providers and the Bot API emulator, all on loopback, receiving updates as production
 * does on its store: on lowdb (the default) by long polling through @grammyjs/runner; with
 * KIOSBOT_TEST_STORE=postgres on a PostgreSQL database of the worker's own (DATABASE_URL), by
 * webhook through the app's HTTP endpoint (a fleet on PostgreSQL cannot poll, see config.ts).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run, type RunnerHandle } from '@grammyjs/runner';
import { restoreWallClock } from './wall-clock.ts';
import { createConfig, type Config } from '../../src/config.ts';
import { allowedUpdates, createApp, type App, type AppOptions } from '../../src/app.ts';
import { createLogger } from '../../src/logger.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../tools/sandbox/server.ts';
import { startBotApi, type BotApiEmulator, type BotApiServerOptions } from '../../tools/playground/bot-api.ts';
import { startHttpServer, type HttpServer } from '../../src/server/http.ts';
import type { DataDirectory } from '../../src/jobs/backups.ts';
import type { Update } from 'grammy/types';
import { onPostgres, releaseWorkerDatabase, takeWorkerDatabase } from './test-store.ts';
import type { TestDatabase } from './pg-database.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';

export const testEncryptionKey = Buffer.alloc(32, 42).toString('base64');

export interface TestWorld {
  sandbox: Sandbox;
  telegram: BotApiEmulator;
  app: App;
  config: Config;
  dataDir: string;
  /** Every log line the app wrote (JSON strings), to assert no secret leaks. */
  logs: string[];
  /**
   * Stops the bot and closes the store, then builds and starts a new app on the same data;
   * `between` runs while nothing holds the data directory (a test restores a backup there).
   */
  restart(between?: () => Promise<void>): Promise<void>;
  /**
   * Resolves once every update sent so far has been fetched and completely handled (conversation
   * state written), e.g. before a test moves the clock past a conversation's timeout.
   */
  idle(): Promise<void>;
  /**
   * Everything the store holds, as text (to assert that no secret is stored in plain text): every
   * file of the data directory on lowdb, every row of every table on PostgreSQL.
   */
  storedData(): Promise<string>;
  /** Stops everything and removes the data directory. */
  stop(): Promise<void>;
}

export interface TestWorldOptions {
  sandbox?: SandboxOptions;
  telegram?: BotApiServerOptions;
  env?: Record<string, string>;
  app?: AppOptions;
  /** Start the outbox, settlement watcher and alert jobs like main.ts does. Default false. */
  jobs?: boolean;
  /**
   * Receive updates as production does on the store (default): long polling on lowdb, the webhook
   * on PostgreSQL. False: nothing receives them (webhook tests start their own endpoint).
   */
  polling?: boolean;
  /**
   * Provider timeout in ms, below the 1000 ms minimum PROVIDER_TIMEOUT_MS accepts: for tests of a
   * provider that never answers, where every call is faulted and the timeout is only waited out.
   */
  providerTimeoutMs?: number;
  /** Pause before the n-th retry of a provider call is n times this (default 300 ms, as in production). */
  providerRetryDelayMs?: number;
}

/** The variables that point the bot at the emulator and the sandbox, with the test key and `dataDir`. */
export function loopbackEnv(telegram: BotApiEmulator, sandbox: Sandbox, dataDir: string): Record<string, string> {
  return {
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    RESELLER_API_URL: sandbox.urls.reseller,
    MARKETPLACE_API_URL: sandbox.urls.marketplace,
    GAMESHOP_API_URL: sandbox.urls.gameshop,
    ENCRYPTION_KEY: testEncryptionKey,
    DATA_DIR: dataDir,
  };
}

/** The path and secret of the test worlds' webhook on PostgreSQL. */
const webhookPath = '/telegram';
const webhookSecret = 'test-world-webhook-secret';

export async function startWorld(options: TestWorldOptions = {}): Promise<TestWorld> {
  const sandbox = await startSandbox({ reseller: { settleAfterChecks: 1000, settleAfterMs: 3_600_000 }, ...options.sandbox });
  // Telegram's own default of setWebhook's max_connections (40): chats are delivered side by side.
  const telegram = await startBotApi({ webhookConnections: 40, ...options.telegram });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-e2e-'));
  // A test that brings its own DATABASE_URL keeps it; else, on PostgreSQL, the worker's database.
  const database = onPostgres() && options.env?.DATABASE_URL === undefined ? await takeWorkerDatabase() : undefined;
  const parsed = createConfig({
    ...loopbackEnv(telegram, sandbox, dataDir),
    PROVIDER_TIMEOUT_MS: '2000',
    PUBLIC_IP: '203.0.113.7',
    // Eight connections a world (not 20): the worlds of a concurrent describe share one server.
    ...(database
      ? {
          DATABASE_URL: database.url,
          DATABASE_POOL_SIZE: '8',
          WEBHOOK_URL: `https://bot.example${webhookPath}`,
          WEBHOOK_SECRET: webhookSecret,
        }
      : {}),
    ...options.env,
  });
  const config: Config = {
    ...parsed,
    providers: {
      ...parsed.providers,
      ...(options.providerTimeoutMs === undefined ? {} : { timeoutMs: options.providerTimeoutMs }),
      ...(options.providerRetryDelayMs === undefined ? {} : { retryDelayMs: options.providerRetryDelayMs }),
    },
  };
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line), secrets: [config.botToken] });

  let app: App;
  let runner: RunnerHandle | undefined;
  let webhook: HttpServer | undefined;
  /** Updates the webhook is handling now (the emulator counts only the POSTs not answered yet). */
  let webhookHandling = 0;
  /** Webhook mode like main.ts: the app's HTTP endpoint, the emulator posting every update to it. */
  const startWebhook = async (webhookConfig: NonNullable<Config['webhook']>) => {
    const path = new URL(webhookConfig.url).pathname;
    await app.bot.init();
    const handle = async (update: Update) => {
      webhookHandling += 1;
      try {
        await app.updates.handle(update);
      } finally {
        webhookHandling -= 1;
      }
    };
    webhook = await startHttpServer({
      port: 0,
      logger: app.logger,
      db: app.db,
      webhook: { bot: app.bot, handle, path, secret: webhookConfig.secret, claims: app.updateClaims, unstored: app.unstored },
    });
    telegram.deliverTo(`${webhook.url}${path}`, webhookConfig.secret);
  };
  const boot = async () => {
    // An emulator that does not enforce Telegram's limits answers as fast as a test asks: there the
    // bot's replies are held neither to the 30-per-second ceiling nor to a chat's 1 s gap (the
    // tests of the limits enforce them in the emulator, and the outbox's own tests set them).
    const ceiling = options.telegram?.enforceLimits
      ? {}
      : { outboxLimits: { ceilingPerSecond: 100_000, perChatMs: 0, ...options.app?.outboxLimits } };
    app = await createApp(config, { logger, botConfig: { botInfo: telegram.botInfo }, ...options.app, ...ceiling });
    // Like main.ts: what a crash left unhandled in the inbox is handled before new updates arrive.
    await app.replayInbox();
    // Only the update types production asks for reach the bot, as from Telegram.
    if (options.polling === false) runner = undefined;
    else if (config.webhook) await startWebhook(config.webhook);
    else runner = run(app.updates.runnerBot, { runner: { fetch: { timeout: 1, allowed_updates: [...allowedUpdates] } } });
    if (options.jobs) app.startJobs();
  };
  /**
   * Resolves once the runner has no update in flight (it handles fetched updates concurrently);
   * rejects after 10 s. Checked every 2 ms: most waits are a store write or two.
   */
  const handled = async () => {
    for (let waited = 0; (runner?.size() ?? 0) + webhookHandling > 0; waited += 2) {
      if (waited > 10_000) throw new Error('an update is still being handled after 10 s');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const halt = async () => {
    if (runner?.isRunning()) await runner.stop();
    // A POST in flight when the endpoint closes keeps its connection open until it times out (the
    // close ends only idle ones): the deliveries under way are answered first.
    if (webhook) await telegram.waitForIdle({ timeoutMs: 2000 }).catch(() => undefined);
    await webhook?.close();
    webhook = undefined;
    // Let the updates being handled finish (they may be writing conversation state or a purchase).
    await handled().catch(() => undefined);
    await app.close();
  };
  await boot();

  return {
    sandbox,
    telegram,
    get app() {
      return app;
    },
    config,
    dataDir,
    logs,
    async restart(between) {
      await halt();
      await between?.();
      await boot();
    },
    async idle() {
      await telegram.waitForIdle();
      await handled();
    },
    storedData: () => (database ? databaseText(database) : readAllFiles(dataDir)),
    async stop() {
      // A test that moved the wall clock (advanceWallClock) gets the real one back.
      restoreWallClock();
      try {
        await halt();
        await telegram.close();
        await sandbox.close();
        await rm(dataDir, { recursive: true, force: true });
      } finally {
        // The worker's next world starts on an empty database (the emulator hands out the same user
        // ids again), also after a world that failed to stop.
        if (database) await releaseWorkerDatabase(database);
      }
    },
  };
}

export const demoReseller = resellerDemoAccounts;

/** Every file under `dir`, as text. */
async function readAllFiles(dir: string): Promise<string> {
  // A write's temporary file may be renamed away between the listing and the read: list again then.
  for (let attempt = 1; ; attempt += 1) {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    try {
      const texts = await Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name), 'utf8')));
      return texts.join('\n');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 20) throw error;
    }
  }
}

/** Every row of every table of the database, as JSON lines. */
async function databaseText(database: TestDatabase): Promise<string> {
  const tables = await database.sql<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
  const rows = await Promise.all(tables.map(({ tablename }) => database.sql(`SELECT * FROM ${tablename}`)));
  return rows.map((table) => JSON.stringify(table)).join('\n');
}

/**
 * The app's data directory (lowdb): for what only it has (a flush to disk, its files). Throws on
 * PostgreSQL, where a test of it does not belong (see `itOnLowdb` in test/helpers/test-store.ts and `lowdbOnlyFiles` in vitest.config.ts).
 */
export function dataDirectoryOf(app: App): DataDirectory {
  if (!app.dataDirectory) throw new Error('this app runs on PostgreSQL: it has no data directory (the test is lowdb only)');
  return app.dataDirectory;
}
