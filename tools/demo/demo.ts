/**
 * The offline demo: the sandbox providers and the playground in this process, the bot
 * (`src/main.ts`, as `npm start` runs it) as a child process pointed at both, with a fresh
 * encryption key and a fresh temporary data directory unless ENCRYPTION_KEY / DATA_DIR are given.
 * `stop()` ends the bot first (gracefully, SIGKILL after 10 s), then the servers, then removes the
 * temporary directory. The bot also stops by itself, and removes that directory, if this process
 * is killed outright (bot-lifeline.ts).
 *
 * Downlines are on (DOWNLINES=true): the page has a second user, the first one's downline, seeded
 * into the data directory through the bot's services before the bot starts (seed.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { listenOrExplain, portFromEnv, ToolStartError } from '../cli.ts';
import { startPlayground } from '../playground/playground.ts';
import type { BotApiEmulator, EmulatedUser } from '../playground/bot-api.ts';
import { defaultPlaygroundToken } from '../playground/world.ts';
import { startSandbox, type Sandbox } from '../sandbox/server.ts';
import { createConfig } from '../../src/config.ts';
import { demoDownline, seedDemoDownline, type SeedOutcome } from './seed.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const tsxLoader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
const botLifeline = pathToFileURL(path.join(import.meta.dirname, 'bot-lifeline.ts')).href;

/** Variables of the caller's environment the bot also gets; everything else it needs the demo sets. */
const passedThrough = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR', 'LOG_LEVEL', 'DEFAULT_LOCALE', 'ADMIN_CHAT_ID', 'PENDING_HORIZON_HOURS'];

export interface Demo {
  sandbox: Sandbox;
  playground: BotApiEmulator;
  /** The page's first user: the upline (connected to the demo reseller account, downline mode open). */
  firstUser: EmulatedUser;
  /** The page's second user: the first one's downline at the demo level, with a small wallet. */
  downlineUser: EmulatedUser;
  /** Whether the downline was seeded now, or a kept data directory had its users already. */
  seeded: SeedOutcome;
  /** The chat page, e.g. `http://127.0.0.1:8081/`. */
  pageUrl: string;
  dataDir: string;
  /** Whether the data directory is the demo's own temporary one (removed on stop). */
  temporaryData: boolean;
  settleAfterMs: number;
  /** PRICE_WATCH_MINUTES the bot runs with (1 in the demo unless given). */
  priceWatchMinutes: string;
  bot: ChildProcess;
  /** Resolves with the bot's exit code once it has exited. */
  botExited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface DemoOptions {
  env: NodeJS.ProcessEnv;
  /** Each line the bot prints (default: to this process's stdout, prefixed). */
  onBotLine?: (line: string) => void;
}

/** Starts the three parts; rejects with a ToolStartError (what to change) if one cannot start. */
export async function startDemo({ env, onBotLine = (line) => console.log(`bot │ ${line}`) }: DemoOptions): Promise<Demo> {
  const sandboxPort = portFromEnv(env, 'SANDBOX_PORT', 8787);
  const playgroundPort = portFromEnv(env, 'PLAYGROUND_PORT', 8081);
  const sandboxHost = env.SANDBOX_HOST?.trim() || '127.0.0.1';
  const playgroundHost = env.PLAYGROUND_HOST?.trim() || '127.0.0.1';
  const settleAfterMs = Number(env.SANDBOX_SETTLE_MS?.trim() || 5000);
  if (!Number.isFinite(settleAfterMs) || settleAfterMs < 0)
    throw new ToolStartError(`SANDBOX_SETTLE_MS must be milliseconds, got "${env.SANDBOX_SETTLE_MS}".`);

  const closers: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    while (closers.length) await closers.pop()!().catch(() => {});
  };
  try {
    const sandbox = await listenOrExplain('the sandbox', 'SANDBOX_PORT', { host: sandboxHost, port: sandboxPort }, () =>
      startSandbox({ port: sandboxPort, host: sandboxHost, reseller: { settleAfterMs } }),
    );
    closers.push(() => sandbox.close());
    const token = env.PLAYGROUND_TOKEN?.trim() || defaultPlaygroundToken;
    const { api: playground, firstUser } = await listenOrExplain(
      'the playground',
      'PLAYGROUND_PORT',
      { host: playgroundHost, port: playgroundPort },
      () => startPlayground({ port: playgroundPort, host: playgroundHost, token }, { note: 'upline · reseller' }),
    );
    closers.push(() => playground.close());
    const downlineUser = playground.createUser({
      firstName: 'Sari',
      username: 'sari',
      languageCode: 'id',
      note: `downline of ${firstUser.user.first_name} · ${demoDownline.level}`,
    });

    // The bot runs in a directory of its own: no .env of this checkout (a production one) leaks in.
    const runDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-demo-'));
    closers.push(() => rm(runDir, { recursive: true, force: true }));
    const givenDataDir = env.DATA_DIR?.trim();
    const dataDir = givenDataDir ? path.resolve(givenDataDir) : path.join(runDir, 'data');

    const botEnv: Record<string, string> = {};
    for (const name of passedThrough) if (env[name] !== undefined) botEnv[name] = env[name];
    Object.assign(botEnv, {
      BOT_TOKEN: token,
      TELEGRAM_API_ROOT: playground.apiRoot,
      RESELLER_API_URL: sandbox.urls.reseller,
      MARKETPLACE_API_URL: sandbox.urls.marketplace,
      GAMESHOP_API_URL: sandbox.urls.gameshop,
      ENCRYPTION_KEY: env.ENCRYPTION_KEY?.trim() || randomBytes(32).toString('base64'),
      DATA_DIR: dataDir,
      // The sample catalogue describes exactly the sandbox's game shop.
      GAMESHOP_CATALOGUE: env.GAMESHOP_CATALOGUE?.trim()
        ? path.resolve(env.GAMESHOP_CATALOGUE.trim())
        : path.join(repoRoot, 'catalogue.sample.json'),
      // The first user can try /broadcast and /stats.
      ADMIN_IDS: env.ADMIN_IDS?.trim() || String(firstUser.id),
      // A demo purchase is re-checked every 2 s, so it settles moments after the sandbox settles it.
      RECHECK_FIRST_SECONDS: env.RECHECK_FIRST_SECONDS?.trim() || '2',
      // A price changed with the sandbox's control endpoint reaches /pantau subscribers within a minute.
      PRICE_WATCH_MINUTES: env.PRICE_WATCH_MINUTES?.trim() || '1',
      // The page's second user is the first one's downline (seed.ts).
      DOWNLINES: 'true',
      PORT: '0',
    });
    // Before the bot starts: one process owns a data directory.
    const seeded = await seedDemoDownline(createConfig(botEnv), firstUser, downlineUser);

    // The lifeline stops the bot should this process be killed outright (no stop() to end it).
    const bot = spawn(process.execPath, ['--import', tsxLoader, '--import', botLifeline, path.join(repoRoot, 'src/main.ts')], {
      cwd: runDir,
      env: botEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const botExited = new Promise<number | null>((resolve) => bot.once('exit', (code) => resolve(code)));
    for (const stream of [bot.stdout, bot.stderr]) {
      let rest = '';
      stream.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) onBotLine(line);
      });
    }
    const stopBot = async () => {
      if (bot.exitCode === null && bot.signalCode === null) {
        bot.kill('SIGTERM');
        const timer = setTimeout(() => bot.kill('SIGKILL'), 10_000);
        await botExited;
        clearTimeout(timer);
      }
    };
    closers.push(stopBot);

    let stopping: Promise<void> | undefined;
    return {
      sandbox,
      playground,
      firstUser,
      downlineUser,
      seeded,
      pageUrl: `${playground.url}/`,
      dataDir,
      temporaryData: !givenDataDir,
      settleAfterMs,
      priceWatchMinutes: botEnv.PRICE_WATCH_MINUTES ?? '1',
      bot,
      botExited,
      stop: () => (stopping ??= closeAll()),
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
