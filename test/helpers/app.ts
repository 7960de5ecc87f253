/**
 * End-to-end harness: the real app (createApp, the same composition as main.ts) against the
 * sandbox providers and the Bot API emulator, all on loopback, with long polling through
 * @grammyjs/runner like production.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run, type RunnerHandle } from '@grammyjs/runner';
import { restoreWallClock } from './wall-clock.ts';
import { createConfig, type Config } from '../../src/config.ts';
import { allowedUpdates, createApp, type App, type AppOptions } from '../../src/app.ts';
import { createLogger } from '../../src/logger.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../tools/sandbox/server.ts';
import { startBotApi, type BotApiEmulator, type BotApiOptions } from '../../tools/playground/bot-api.ts';
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
  /** Stops everything and removes the data directory. */
  stop(): Promise<void>;
}

export interface TestWorldOptions {
  sandbox?: SandboxOptions;
  telegram?: BotApiOptions;
  env?: Record<string, string>;
  app?: AppOptions;
  /** Start the outbox, settlement watcher and alert jobs like main.ts does. Default false. */
  jobs?: boolean;
  /** Receive updates by long polling (default). False for webhook tests. */
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

export async function startWorld(options: TestWorldOptions = {}): Promise<TestWorld> {
  const sandbox = await startSandbox({ reseller: { settleAfterChecks: 1000, settleAfterMs: 3_600_000 }, ...options.sandbox });
  const telegram = await startBotApi(options.telegram);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-e2e-'));
  const parsed = createConfig({
    ...loopbackEnv(telegram, sandbox, dataDir),
    PROVIDER_TIMEOUT_MS: '2000',
    PUBLIC_IP: '203.0.113.7',
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
    runner =
      options.polling === false
        ? undefined
        : run(app.updates.runnerBot, { runner: { fetch: { timeout: 1, allowed_updates: [...allowedUpdates] } } });
    if (options.jobs) app.startJobs();
  };
  /**
   * Resolves once the runner has no update in flight (it handles fetched updates concurrently);
   * rejects after 10 s. Checked every 2 ms: most waits are a store write or two.
   */
  const handled = async () => {
    for (let waited = 0; (runner?.size() ?? 0) > 0; waited += 2) {
      if (waited > 10_000) throw new Error('an update is still being handled after 10 s');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const halt = async () => {
    if (runner?.isRunning()) await runner.stop();
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
    async stop() {
      // A test that moved the wall clock (advanceWallClock) gets the real one back.
      restoreWallClock();
      await halt();
      await telegram.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const demoReseller = resellerDemoAccounts;
