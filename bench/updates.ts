/**
 * Update-path benchmark (issue 15): the real bot (createApp, the composition main.ts runs) against
 * the sandbox providers and the emulated Bot API on loopback, receiving by long polling through
 * @grammyjs/runner like production, beside a minimal grammY bot doing `ctx.reply` on the same
 * transport in the same run.
 *
 * Why the loopback emulator rather than `bot.handleUpdate` with a transformer that answers at once:
 * the figures (and its "≥ 80% of the minimal bot" target) are about the bot against a
 * real HTTP Bot API, where every Telegram call costs a round trip; an instant transformer would
 * make the baseline a no-op and hide the cost of extra calls per update. Both bots pay the same
 * emulator, so the gap between them is the bot's own work.
 *
 * Figures (one JSON line each, median of `--runs` runs, default 3):
 * - `burst`: 2,000 updates from 1,000 users queued at once (`/saldo` then a quick-buy line up to
 *   its summary, or `/harga` then a typed word), updates/s from the first to the last handled, and
 *   the process's CPU time per update (the emulator and the sandbox run in it too: compare with
 *   the minimal bot's; on a busy machine it moves much less than updates/s);
 * - `latency`: handler latency p50/p99 at 200 updates/s sustained for 5 s (from the time an update
 *   was due to be sent to the end of its handling), and the same measured over the burst;
 * - `event-loop`: event-loop delay p99 during the burst (perf_hooks.monitorEventLoopDelay).
 *
 * Run: npx tsx bench/updates.ts [--runs 3] [--only kiosbot|minimal]; BENCH_DEBUG=1 also prints to
 * stderr the burst's Telegram calls, provider requests and store file writes (the inbox's are not
 * counted: about one per getUpdates answer), the users left with fewer answers than updates, the
 * heap size and the burst's window on the monotonic clock in µs. To see where the burst's time goes:
 *   BENCH_DEBUG=1 node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/updates.ts --only kiosbot --runs 1
 *   npx tsx bench/profile-summary.ts /tmp/prof/<file>.cpuprofile --from … --to …   (the window printed)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { run, type RunnerHandle } from '@grammyjs/runner';
import { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { createApp, type App } from '../src/app.ts';
import { createConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { writeFileAtomic, type AtomicWriter } from '../src/store/durable-file.ts';
import { startBotApi, type BotApiEmulator, type EmulatedUser } from '../tools/playground/bot-api.ts';
import { resellerDemoProducts } from '../tools/sandbox/reseller.ts';
import { startSandbox, type Sandbox } from '../tools/sandbox/server.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
/** `--only kiosbot` (e.g. under --cpu-prof) runs one side; its figures then lack their baseline. */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const burstUsers = 1_000;
const sustainedRate = 200;
const sustainedSeconds = 5;
/** Users share provider accounts (a shop's staff, or one reseller in several chats): 10 users per account. */
const usersPerAccount = 10;
const targets = { updatesPerSecond: 1_000, ofBaseline: 0.8, latencyP99Ms: 50, loopDelayP99Ms: 20 };
const debug = Boolean(process.env.BENCH_DEBUG);

/** BENCH_DEBUG: the store's durable file writes by file (users' shards counted together), reset before the burst. */
const fileWrites = new Map<string, number>();
const countingWriter: AtomicWriter = (file, content, options) => {
  const name = path.basename(file).replace(/^\d+\.json$/, 'users/NNN.json');
  fileWrites.set(name, (fileWrites.get(name) ?? 0) + 1);
  return writeFileAtomic(file, content, options);
};

type Kind = 'kiosbot' | 'minimal';

interface RunFigures {
  updatesPerSecond: number;
  /** CPU time (user + system) of the whole process per burst update: less moved by a busy machine than updates/s. */
  cpuMsPerUpdate: number;
  burstP50Ms: number;
  burstP99Ms: number;
  loopDelayP99Ms: number;
  sustainedP50Ms: number;
  sustainedP99Ms: number;
  telegramCallsPerUpdate: number;
}

const round = (n: number) => Math.round(n * 10) / 10;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

const median = (values: number[]) => percentile(values, 50);

/** The two updates a user sends: even users check their balance then quick-buy, odd ones browse. */
function messagesOf(index: number): [string, string] {
  const phone = `0812${(10_000_000 + index).toString().slice(-8)}`;
  return index % 2 === 0 ? ['/saldo', `TSEL10.${phone}`] : ['/harga', 'pulsa'];
}

/** A user writes `text`; returns the id of the update it queued. */
function send(telegram: BotApiEmulator, user: EmulatedUser, text: string): number {
  telegram.sendText(user, text);
  const update = telegram.updates.at(-1);
  if (!update) throw new Error('the emulator queued no update');
  return update.update_id;
}

interface Harness {
  telegram: BotApiEmulator;
  handleUpdate: { wrap(bot: { handleUpdate(update: Update): Promise<void> }): void };
  /** Resolves when `count` updates have been handled since the last reset. */
  handled(count: number): Promise<void>;
  /** Records the time an update counts from (its due time). */
  due: Map<number, number>;
  latencies: number[];
  reset(): void;
}

function harness(telegram: BotApiEmulator): Harness {
  const due = new Map<number, number>();
  const latencies: number[] = [];
  let done = 0;
  let waiter: { count: number; resolve: () => void } | undefined;
  return {
    telegram,
    due,
    latencies,
    reset() {
      due.clear();
      latencies.length = 0;
      done = 0;
    },
    handleUpdate: {
      wrap(bot) {
        const inner = bot.handleUpdate.bind(bot);
        bot.handleUpdate = async (update) => {
          try {
            await inner(update);
          } finally {
            const since = due.get(update.update_id);
            if (since !== undefined) latencies.push(performance.now() - since);
            done++;
            if (waiter && done >= waiter.count) waiter.resolve();
          }
        };
      },
    },
    handled(count) {
      if (done >= count) return Promise.resolve();
      return new Promise((resolve) => (waiter = { count, resolve }));
    },
  };
}

interface World {
  h: Harness;
  users: EmulatedUser[];
  stop(): Promise<void>;
}

async function startKiosbot(sandbox: Sandbox, telegram: BotApiEmulator, userCount: number): Promise<World> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-bench-updates-'));
  const config = createConfig({
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    RESELLER_API_URL: sandbox.urls.reseller,
    MARKETPLACE_API_URL: sandbox.urls.marketplace,
    GAMESHOP_API_URL: sandbox.urls.gameshop,
    ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
    DATA_DIR: dataDir,
    PUBLIC_IP: '203.0.113.7',
  });
  const logger = createLogger({ level: 'warn', write: () => undefined });
  const app: App = await createApp(config, {
    logger,
    botConfig: { botInfo: telegram.botInfo },
    floodLimit: { updates: 1_000, windowMs: 1_000 },
    storeWriteFile: debug ? countingWriter : undefined,
  });
  const users: EmulatedUser[] = [];
  const seeding: Array<Promise<unknown>> = [];
  for (let i = 0; i < userCount; i++) {
    const user = telegram.createUser({ firstName: `Reseller ${i}`, languageCode: 'id' });
    users.push(user);
    const account = Math.floor(i / usersPerAccount);
    seeding.push(
      app.store.users
        .upsert({ id: user.id, firstName: user.user.first_name, username: user.user.username })
        .then(() =>
          app.store.credentials.save(user.id, 'reseller', { apiId: `BENCH-${account}`, apiKey: `bench-key-${account}` }, `BE…${account}`),
        ),
    );
  }
  await Promise.all(seeding);
  const h = harness(telegram);
  h.handleUpdate.wrap(app.bot);
  await app.replayInbox();
  const runner = run(app.bot, { runner: { fetch: { timeout: 1 } } });
  return { h, users, stop: () => stopAll(runner, () => app.close(), dataDir) };
}

function startMinimal(telegram: BotApiEmulator, userCount: number): World {
  const bot = new Bot(telegram.token, { botInfo: telegram.botInfo, client: { apiRoot: telegram.apiRoot } });
  bot.on('message', (ctx) => ctx.reply('ok'));
  const users = Array.from({ length: userCount }, (_, i) => telegram.createUser({ firstName: `Reseller ${i}`, languageCode: 'id' }));
  const h = harness(telegram);
  h.handleUpdate.wrap(bot);
  const runner = run(bot, { runner: { fetch: { timeout: 1 } } });
  return { h, users, stop: () => stopAll(runner, () => Promise.resolve(), undefined) };
}

async function stopAll(runner: RunnerHandle, close: () => Promise<void>, dataDir: string | undefined): Promise<void> {
  if (runner.isRunning()) await runner.stop();
  await close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

async function measure(kind: Kind): Promise<RunFigures> {
  const accounts = Array.from({ length: (burstUsers * 2) / usersPerAccount }, (_, i) => ({
    apiId: `BENCH-${i}`,
    apiKey: `bench-key-${i}`,
    balance: 1_000_000_000,
  }));
  const sandbox = await startSandbox({
    reseller: { accounts, products: resellerDemoProducts, settleAfterChecks: 1000, settleAfterMs: 3_600_000 },
  });
  const telegram = await startBotApi();
  // Burst users first, then fresh users for the sustained phase (nobody mid-flow from the burst).
  const sustainedUsers = (sustainedRate * sustainedSeconds) / 2;
  const world =
    kind === 'kiosbot'
      ? await startKiosbot(sandbox, telegram, burstUsers + sustainedUsers)
      : startMinimal(telegram, burstUsers + sustainedUsers);
  const { h } = world;
  try {
    // A warm-up outside the figures (module loading, first Fluent bundle use, JIT).
    const warm = world.users.slice(burstUsers, burstUsers + 20);
    h.reset();
    for (const user of warm) telegram.sendText(user, '/start');
    await h.handled(warm.length);
    const callsBefore = telegram.calls.filter((call) => call.method !== 'getUpdates').length;
    const firstBurstCall = telegram.calls.length;
    const firstProviderRequest = sandbox.received.length;

    // The burst: every update queued before the bot can fetch any.
    h.reset();
    fileWrites.clear();
    const burst: Array<[EmulatedUser, string]> = [];
    for (const round of [0, 1] as const) {
      world.users.slice(0, burstUsers).forEach((user, index) => burst.push([user, messagesOf(index)[round]]));
    }
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const burstFrom = process.hrtime.bigint() / 1000n;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (const [user, text] of burst) h.due.set(send(telegram, user, text), started);
    delay.enable();
    await h.handled(burst.length);
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    delay.disable();
    const calls = telegram.calls.filter((call) => call.method !== 'getUpdates').length - callsBefore;
    const burstLatencies = [...h.latencies];
    if (debug) {
      const byMethod: Record<string, number> = {};
      const burstCalls = telegram.calls.slice(firstBurstCall);
      for (const call of burstCalls) byMethod[call.method] = (byMethod[call.method] ?? 0) + 1;
      console.error(kind, 'Telegram calls during the burst', byMethod, 'heap MB', Math.round(process.memoryUsage().heapUsed / 1e6));
      // The burst's window on the clock CPU profiles use: bench/profile-summary.ts --from/--to.
      if (kind === 'kiosbot') {
        console.error(kind, 'store file writes during the burst', Object.fromEntries(fileWrites));
        const byPath: Record<string, number> = {};
        for (const request of sandbox.received.slice(firstProviderRequest)) byPath[request.path] = (byPath[request.path] ?? 0) + 1;
        console.error(kind, 'provider requests during the burst', byPath);
      }
      // Users of the burst who got fewer messages than they sent updates, with what they sent.
      const answers = new Map<number, number>();
      for (const call of burstCalls)
        if (call.method === 'sendMessage') answers.set(Number(call.params.chat_id), (answers.get(Number(call.params.chat_id)) ?? 0) + 1);
      const unanswered = world.users
        .slice(0, burstUsers)
        .flatMap((user, index) => ((answers.get(user.id) ?? 0) < 2 ? [messagesOf(index).join(' + ')] : []));
      console.error(kind, 'burst users with fewer than 2 messages', unanswered.length, unanswered.slice(0, 5));
      console.error(kind, 'burst window', `--from ${burstFrom} --to ${process.hrtime.bigint() / 1000n}`);
    }

    // Sustained: 200 updates/s; latency from each update's due time.
    h.reset();
    const paced = world.users.slice(burstUsers + warm.length, burstUsers + sustainedUsers);
    const schedule: Array<[EmulatedUser, string]> = [];
    for (const round of [0, 1] as const) paced.forEach((user, index) => schedule.push([user, messagesOf(index)[round]]));
    const pacedStart = performance.now() + 20;
    let next = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const now = performance.now();
        while (next < schedule.length && pacedStart + (next * 1000) / sustainedRate <= now) {
          const [user, text] = schedule[next]!;
          h.due.set(send(telegram, user, text), pacedStart + (next * 1000) / sustainedRate);
          next++;
        }
        if (next >= schedule.length) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    await h.handled(schedule.length);

    return {
      updatesPerSecond: round((burst.length / elapsed) * 1000),
      cpuMsPerUpdate: Math.round(((cpu.user + cpu.system) / 1000 / burst.length) * 100) / 100,
      burstP50Ms: percentile(burstLatencies, 50),
      burstP99Ms: percentile(burstLatencies, 99),
      loopDelayP99Ms: round(delay.percentile(99) / 1e6),
      sustainedP50Ms: percentile(h.latencies, 50),
      sustainedP99Ms: percentile(h.latencies, 99),
      telegramCallsPerUpdate: Math.round((calls / burst.length) * 100) / 100,
    };
  } finally {
    await world.stop();
    await telegram.close();
    await sandbox.close();
  }
}

function emit(figures: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'updates', ...figures }));
}

const results: Record<Kind, RunFigures[]> = { kiosbot: [], minimal: [] };
for (let i = 0; i < runs; i++) {
  // Alternate the order so a machine that gets busier or quieter favours neither.
  const order: Kind[] = i % 2 === 0 ? ['minimal', 'kiosbot'] : ['kiosbot', 'minimal'];
  for (const kind of order) if (!only || only === kind) results[kind].push(await measure(kind));
}
const med = (kind: Kind, key: keyof RunFigures) => median(results[kind].map((r) => r[key]));
const note = (met: boolean, what: string) => (met ? {} : { missed: what });

const ups = med('kiosbot', 'updatesPerSecond');
const upsBase = med('minimal', 'updatesPerSecond');
emit({
  figure: 'burst',
  updates: burstUsers * 2,
  users: burstUsers,
  runs,
  updatesPerSecond: ups,
  baselineUpdatesPerSecond: upsBase,
  ofBaseline: Math.round((ups / upsBase) * 100) / 100,
  cpuMsPerUpdate: med('kiosbot', 'cpuMsPerUpdate'),
  baselineCpuMsPerUpdate: med('minimal', 'cpuMsPerUpdate'),
  telegramCallsPerUpdate: med('kiosbot', 'telegramCallsPerUpdate'),
  baselineTelegramCallsPerUpdate: med('minimal', 'telegramCallsPerUpdate'),
  target: `>= ${targets.updatesPerSecond}/s and >= ${targets.ofBaseline * 100}% of the minimal bot`,
  ...note(ups >= targets.updatesPerSecond && ups >= targets.ofBaseline * upsBase, 'updates/s below target'),
});
const p99 = med('kiosbot', 'sustainedP99Ms');
emit({
  figure: 'latency',
  rate: sustainedRate,
  seconds: sustainedSeconds,
  runs,
  p50Ms: med('kiosbot', 'sustainedP50Ms'),
  p99Ms: p99,
  baselineP50Ms: med('minimal', 'sustainedP50Ms'),
  baselineP99Ms: med('minimal', 'sustainedP99Ms'),
  burstP50Ms: med('kiosbot', 'burstP50Ms'),
  burstP99Ms: med('kiosbot', 'burstP99Ms'),
  baselineBurstP99Ms: med('minimal', 'burstP99Ms'),
  target: `p99 < ${targets.latencyP99Ms} ms at ${sustainedRate} updates/s`,
  ...note(p99 < targets.latencyP99Ms, 'latency p99 above target'),
});
const loop = med('kiosbot', 'loopDelayP99Ms');
emit({
  figure: 'event-loop',
  during: 'burst',
  runs,
  delayP99Ms: loop,
  baselineDelayP99Ms: med('minimal', 'loopDelayP99Ms'),
  target: `p99 < ${targets.loopDelayP99Ms} ms`,
  ...note(loop < targets.loopDelayP99Ms, 'event-loop delay p99 above target'),
});
