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
 * - `event-loop`: event-loop delay p99 during the burst (perf_hooks.monitorEventLoopDelay);
 * - `burst-far` (information, no target): the burst again from 1,000 fresh users with a 200 ms
 *   round trip to every Bot API call, about what a bot in Indonesia meets; then each getUpdates
 *   answer (at most 100 updates) costs a round trip, which bounds both bots alike;
 * - `inbox`: kiosbot's update inbox log during the burst: appends (one per getUpdates answer, or
 *   done marks) and compactions, in bytes, so that a write's size can be read against its batch;
 * - `rows`: the rows kiosbot is held to, side by side from the same runs: of the same-io bot
 *   (≥ 0.8), of the minimal bot (≥ 0.6), event-loop p99 against the minimal bot's (≤).
 *
 * Run: npx tsx bench/updates.ts [--runs 3] [--only kiosbot|minimal]; BENCH_RATE=n sets the sustained
 * phase's rate (default 200). BENCH_DEBUG=1 also prints to stderr the sustained phase's latency by
 * kind of update (command, quick-buy, text), the burst's Telegram calls, provider requests and store file writes (the
 * inbox log's included), the users left with fewer answers than updates, the
 * heap size and the burst's window on the monotonic clock in µs. To see where the burst's time goes:
 *   BENCH_DEBUG=1 node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/updates.ts --only kiosbot --runs 1
 *   npx tsx bench/profile-summary.ts /tmp/prof/<file>.cpuprofile --from … --to …   (the window printed)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
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
import { inboxFileName } from '../src/store/inbox.ts';
import { hostFigure } from './host.ts';
import { startIoBot } from './updates-io-bot.ts';
import type { WorldCounts, WorldRequest, WorldStarted, WorldUser } from './updates-world.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
/** `--only kiosbot` (e.g. under --cpu-prof) runs one side; its figures then lack their baseline. */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const burstUsers = 1_000;
const sustainedRate = Number(process.env.BENCH_RATE) || 200;
const sustainedSeconds = 5;
/** Users share provider accounts (a shop's staff, or one reseller in several chats): 10 users per account. */
const usersPerAccount = 10;
/**
 * The rows kiosbot is held to: of the same-io bot (the honest floor: the same durable work) and of
 * the minimal bot, event-loop p99 at most the minimal bot's; latency and the absolute rate as before.
 */
const targets = { updatesPerSecond: 1_000, ofSameIo: 0.8, ofBaseline: 0.6, latencyP99Ms: 50, loopDelayP99Ms: 20 };
/** The round trip to Telegram of the `burst-far` figure: about what a bot in Indonesia meets. */
const farRoundTripMs = 200;
const debug = Boolean(process.env.BENCH_DEBUG);

/** BENCH_DEBUG: the store's durable file writes by file (users' shards counted together), reset before the burst. */
const fileWrites = new Map<string, number>();
/** kiosbot's update inbox writes during the burst: appends (a batch, or marks) and compactions, with their bytes. */
const inboxWrites = { appends: 0, appendBytes: 0, compactions: 0, compactionBytes: 0, largestAppend: 0 };
const countingWriter: AtomicWriter = (file, content, options) => {
  const name = path.basename(file).replace(/^\d+\.json$/, 'users/NNN.json');
  fileWrites.set(name, (fileWrites.get(name) ?? 0) + 1);
  if (name === inboxFileName) {
    const bytes = Buffer.byteLength(content);
    if (options.append) {
      inboxWrites.appends++;
      inboxWrites.appendBytes += bytes;
      inboxWrites.largestAppend = Math.max(inboxWrites.largestAppend, bytes);
    } else {
      inboxWrites.compactions++;
      inboxWrites.compactionBytes += bytes;
    }
  }
  return writeFileAtomic(file, content, options);
};

/** kiosbot; the minimal bot (`ctx.reply` only); the bot doing kiosbot's outside work and nothing else (bench/updates-io-bot.ts). */
type Kind = 'kiosbot' | 'minimal' | 'same-io';

interface RunFigures {
  updatesPerSecond: number;
  /** The burst again with a round trip of `farRoundTripMs` to Telegram. */
  farUpdatesPerSecond: number;
  /** CPU time (user + system) of the whole process per burst update: less moved by a busy machine than updates/s. */
  cpuMsPerUpdate: number;
  /** The same for the world process (Telegram and the providers), whichever bot it served. */
  worldCpuMsPerUpdate: number;
  burstP50Ms: number;
  burstP99Ms: number;
  loopDelayP99Ms: number;
  sustainedP50Ms: number;
  sustainedP99Ms: number;
  telegramCallsPerUpdate: number;
  /** kiosbot only: the inbox's writes during the burst (zero for the other bots). */
  inboxAppends: number;
  inboxAppendBytes: number;
  inboxLargestAppendBytes: number;
  inboxCompactions: number;
  inboxCompactionBytes: number;
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

/**
 * BENCH_ALLOC=<path>: every allocation of the burst, sampled every 16 KB (collected ones included,
 * unlike `--heap-prof`), written to `<path>.<bot>.heapprofile` (DevTools, Memory tab) — what the
 * garbage collector's share of the burst comes from.
 */
const allocationProfile = process.env.BENCH_ALLOC;

async function startAllocationSampling(): Promise<{ stop(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    async stop(file) {
      const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
      session.disconnect();
      await writeFile(file, JSON.stringify(profile));
    },
  };
}

/** The world process (bench/updates-world.ts): Telegram and the providers, off the bot's loop. */
interface WorldProcess {
  call<T>(request: DistributiveOmit<WorldRequest, 'id'>): Promise<T>;
  /** Queues messages without waiting for the answer (the sustained phase sends one at a time). */
  post(items: Array<[number, string]>): void;
  kill(): void;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function startWorld(): WorldProcess {
  const child: ChildProcess = fork(new URL('./updates-world.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(`world: ${message.error}`));
    else waiter?.resolve(message.result);
  });
  child.on('exit', (code) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`the world process exited (${code})`));
    waiting.clear();
  });
  return {
    call<T>(request: DistributiveOmit<WorldRequest, 'id'>) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ ...request, id });
      });
    },
    post(items) {
      child.send({ id: nextId++, op: 'send', items });
    },
    kill: () => child.kill(),
  };
}

/** What an update is known by on both sides of the process boundary: its sender and text. */
const keyOf = (userId: number, text: string) => `${userId}\u0000${text}`;

function keyOfUpdate(update: Update): string | undefined {
  const message = update.message;
  return message?.from && message.text !== undefined ? keyOf(message.from.id, message.text) : undefined;
}

interface Harness {
  handleUpdate: { wrap(bot: { handleUpdate(update: Update): Promise<void> }): void };
  /** Resolves when `count` updates have been handled since the last reset. */
  handled(count: number): Promise<void>;
  /** The time (performance.now) each update counts from (its due time), by `keyOf`. */
  due: Map<string, number>;
  latencies: number[];
  /** BENCH_DEBUG: the same latencies by what the update was (`kindOf`). */
  latenciesByKind: Map<string, number[]>;
  reset(): void;
}

/** What an update asked for, for BENCH_DEBUG's latency by kind: the command, or the flow a text belongs to. */
function kindOf(update: Update): string {
  const text = update.message?.text ?? '';
  return text.startsWith('/') ? text : /^[A-Z]+\d*\./.test(text) ? 'quick-buy' : 'text';
}

function harness(): Harness {
  const due = new Map<string, number>();
  const latencies: number[] = [];
  const latenciesByKind = new Map<string, number[]>();
  let done = 0;
  let waiter: { count: number; resolve: () => void } | undefined;
  return {
    due,
    latencies,
    latenciesByKind,
    reset() {
      due.clear();
      latencies.length = 0;
      latenciesByKind.clear();
      done = 0;
    },
    handleUpdate: {
      wrap(bot) {
        const inner = bot.handleUpdate.bind(bot);
        bot.handleUpdate = async (update) => {
          try {
            await inner(update);
          } finally {
            const key = keyOfUpdate(update);
            const since = key === undefined ? undefined : due.get(key);
            if (since !== undefined) {
              const latency = performance.now() - since;
              latencies.push(latency);
              if (debug) {
                const kind = kindOf(update);
                const ofKind = latenciesByKind.get(kind) ?? [];
                ofKind.push(latency);
                latenciesByKind.set(kind, ofKind);
              }
            }
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

interface Bench {
  h: Harness;
  stop(): Promise<void>;
}

async function startKiosbot(world: WorldStarted): Promise<Bench> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-bench-updates-'));
  const config = createConfig({
    BOT_TOKEN: world.token,
    TELEGRAM_API_ROOT: world.apiRoot,
    RESELLER_API_URL: world.urls.reseller,
    MARKETPLACE_API_URL: world.urls.marketplace,
    GAMESHOP_API_URL: world.urls.gameshop,
    ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
    DATA_DIR: dataDir,
    PUBLIC_IP: '203.0.113.7',
  });
  const logger = createLogger({ level: 'warn', write: () => undefined });
  const app: App = await createApp(config, {
    logger,
    botConfig: { botInfo: world.botInfo },
    floodLimit: { updates: 1_000, windowMs: 1_000 },
    // Telegram's limits lifted (its 30 msg/s overall and 1 msg/s per chat for replies): the
    // emulator enforces none and the other two bots keep none, so paced replies would measure the
    // ceiling (about 28 updates/s), not the bot.
    outboxLimits: { ceilingPerSecond: 100_000, perChatMs: 0 },
    // Counts the inbox's bytes (and BENCH_DEBUG's writes per file); the real writer underneath.
    storeWriteFile: countingWriter,
  });
  await Promise.all(
    world.users.map((user: WorldUser, i) => {
      const account = Math.floor(i / usersPerAccount);
      return app.db.users
        .upsert({ id: user.id, firstName: user.firstName, username: user.username })
        .then(() =>
          app.db.credentials.save(user.id, 'reseller', { apiId: `BENCH-${account}`, apiKey: `bench-key-${account}` }, `BE…${account}`),
        );
    }),
  );
  const h = harness();
  h.handleUpdate.wrap(app.updates.runnerBot);
  await app.replayInbox();
  const runner = run(app.updates.runnerBot, { runner: { fetch: { timeout: 1 } } });
  return { h, stop: () => stopAll(runner, () => app.close(), dataDir) };
}

function startMinimal(world: WorldStarted): Bench {
  const bot = new Bot(world.token, { botInfo: world.botInfo, client: { apiRoot: world.apiRoot } });
  bot.on('message', (ctx) => ctx.reply('ok'));
  // One line per failed update (grammY's default handler prints the whole context and stops the runner).
  bot.catch((error) => console.error('minimal bot: update', error.ctx.update.update_id, String(error.error)));
  const h = harness();
  h.handleUpdate.wrap(bot);
  const runner = run(bot, { runner: { fetch: { timeout: 1 } } });
  return { h, stop: () => stopAll(runner, () => Promise.resolve(), undefined) };
}

async function startSameIo(world: WorldStarted): Promise<Bench> {
  const indexOf = new Map(world.users.map((user, index) => [user.id, index]));
  const io = await startIoBot({
    token: world.token,
    apiRoot: world.apiRoot,
    botInfo: world.botInfo,
    resellerUrl: world.urls.reseller,
    accountOf(userId) {
      const index = indexOf.get(userId);
      if (index === undefined) return undefined;
      const account = Math.floor(index / usersPerAccount);
      return { apiId: `BENCH-${account}`, apiKey: `bench-key-${account}` };
    },
  });
  const h = harness();
  h.handleUpdate.wrap(io.bot);
  const runner = run(io.bot, { runner: { fetch: { timeout: 1 } } });
  return { h, stop: () => stopAll(runner, () => io.close(), undefined) };
}

async function stopAll(runner: RunnerHandle, close: () => Promise<void>, dataDir: string | undefined): Promise<void> {
  if (runner.isRunning()) await runner.stop();
  await close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

async function measure(kind: Kind): Promise<RunFigures> {
  // Burst users first, then fresh users for the sustained phase (nobody mid-flow from the burst).
  const sustainedUsers = (sustainedRate * sustainedSeconds) / 2;
  const worldProcess = startWorld();
  // Every user's account exists at the provider (the burst, the sustained phase and burst-far alike).
  const users = 2 * burstUsers + sustainedUsers;
  const world = await worldProcess.call<WorldStarted>({ op: 'start', accounts: Math.ceil(users / usersPerAccount), users });
  const bench = kind === 'kiosbot' ? await startKiosbot(world) : kind === 'same-io' ? await startSameIo(world) : startMinimal(world);
  const { h } = bench;
  const text = (index: number, round: 0 | 1) => messagesOf(index)[round];
  try {
    // A warm-up outside the figures (module loading, first Fluent bundle use, JIT).
    const warm = Array.from({ length: 20 }, (_, i) => burstUsers + i);
    h.reset();
    await worldProcess.call({ op: 'send', items: warm.map((index) => [index, '/start']) });
    await h.handled(warm.length);
    const mark = await worldProcess.call<{ call: number; request: number }>({ op: 'mark' });
    const worldCpuBefore = (await worldProcess.call<WorldCounts>({ op: 'counts', fromCall: mark.call, fromRequest: mark.request })).cpuMs;

    // The burst: every update queued before the bot can fetch any.
    h.reset();
    fileWrites.clear();
    Object.assign(inboxWrites, { appends: 0, appendBytes: 0, compactions: 0, compactionBytes: 0, largestAppend: 0 });
    const burst: Array<[number, string]> = [];
    for (const round of [0, 1] as const) for (let index = 0; index < burstUsers; index++) burst.push([index, text(index, round)]);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const burstFrom = process.hrtime.bigint() / 1000n;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (const [index, message] of burst) h.due.set(keyOf(world.users[index]!.id, message), started);
    const allocations = allocationProfile ? await startAllocationSampling() : undefined;
    delay.enable();
    await worldProcess.call({ op: 'send', items: burst });
    await h.handled(burst.length);
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    delay.disable();
    if (allocations) await allocations.stop(`${allocationProfile}.${kind}.heapprofile`);
    const burstLatencies = [...h.latencies];
    const inboxOfBurst = { ...inboxWrites };
    const counts = await worldProcess.call<WorldCounts>({ op: 'counts', fromCall: mark.call, fromRequest: mark.request });
    const calls = Object.entries(counts.calls).reduce((sum, [method, n]) => (method === 'getUpdates' ? sum : sum + n), 0);
    if (debug) {
      console.error(kind, 'Telegram calls during the burst', counts.calls, 'heap MB', Math.round(process.memoryUsage().heapUsed / 1e6));
      if (kind === 'kiosbot') {
        console.error(kind, 'store file writes during the burst', Object.fromEntries(fileWrites));
        console.error(kind, 'provider requests during the burst', counts.requests);
      }
      // Users of the burst who got fewer messages than they sent updates, with what they sent.
      const unanswered = world.users
        .slice(0, burstUsers)
        .flatMap((user, index) => ((counts.messagesByChat[user.id] ?? 0) < 2 ? [messagesOf(index).join(' + ')] : []));
      console.error(kind, 'burst users with fewer than 2 messages', unanswered.length, unanswered.slice(0, 5));
      // The burst's window on the clock CPU profiles use: bench/profile-summary.ts --from/--to.
      console.error(kind, 'burst window', `--from ${burstFrom} --to ${process.hrtime.bigint() / 1000n}`);
    }

    // Sustained: 200 updates/s; latency from each update's due time.
    h.reset();
    const paced = Array.from({ length: sustainedUsers - warm.length }, (_, i) => burstUsers + warm.length + i);
    const schedule: Array<[number, string]> = [];
    for (const round of [0, 1] as const) paced.forEach((index, i) => schedule.push([index, text(i, round)]));
    const pacedStart = performance.now() + 20;
    let next = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const now = performance.now();
        const due: Array<[number, string]> = [];
        while (next < schedule.length && pacedStart + (next * 1000) / sustainedRate <= now) {
          const [index, message] = schedule[next]!;
          h.due.set(keyOf(world.users[index]!.id, message), pacedStart + (next * 1000) / sustainedRate);
          due.push([index, message]);
          next++;
        }
        if (due.length > 0) worldProcess.post(due);
        if (next >= schedule.length) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    await h.handled(schedule.length);
    const sustainedLatencies = [...h.latencies];
    if (debug) {
      const byKind = [...h.latenciesByKind].map(([kind, values]) => `${kind} p50 ${percentile(values, 50)} p99 ${percentile(values, 99)}`);
      console.error(kind, 'sustained latency ms by kind:', byKind.join('; '));
    }

    // The same burst from 1,000 fresh users with a round trip to Telegram (information).
    await worldProcess.call({ op: 'delay', roundTripMs: farRoundTripMs });
    h.reset();
    const farFrom = burstUsers + sustainedUsers;
    const far: Array<[number, string]> = [];
    for (const round of [0, 1] as const) for (let i = 0; i < burstUsers; i++) far.push([farFrom + i, text(i, round)]);
    const farStarted = performance.now();
    await worldProcess.call({ op: 'send', items: far });
    await h.handled(far.length);
    const farElapsed = performance.now() - farStarted;

    return {
      updatesPerSecond: round((burst.length / elapsed) * 1000),
      farUpdatesPerSecond: round((far.length / farElapsed) * 1000),
      cpuMsPerUpdate: Math.round(((cpu.user + cpu.system) / 1000 / burst.length) * 100) / 100,
      worldCpuMsPerUpdate: Math.round(((counts.cpuMs - worldCpuBefore) / burst.length) * 100) / 100,
      burstP50Ms: percentile(burstLatencies, 50),
      burstP99Ms: percentile(burstLatencies, 99),
      loopDelayP99Ms: round(delay.percentile(99) / 1e6),
      sustainedP50Ms: percentile(sustainedLatencies, 50),
      sustainedP99Ms: percentile(sustainedLatencies, 99),
      telegramCallsPerUpdate: Math.round((calls / burst.length) * 100) / 100,
      inboxAppends: inboxOfBurst.appends,
      inboxAppendBytes: inboxOfBurst.appendBytes,
      inboxLargestAppendBytes: inboxOfBurst.largestAppend,
      inboxCompactions: inboxOfBurst.compactions,
      inboxCompactionBytes: inboxOfBurst.compactionBytes,
    };
  } finally {
    await bench.stop();
    await worldProcess.call({ op: 'close' }).catch(() => worldProcess.kill());
  }
}

function emit(figures: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'updates', ...figures }));
}

console.log(JSON.stringify(hostFigure()));
const results: Record<Kind, RunFigures[]> = { kiosbot: [], minimal: [], 'same-io': [] };
for (let i = 0; i < runs; i++) {
  // Alternate the order so a machine that gets busier or quieter favours neither.
  const kinds: Kind[] = ['minimal', 'same-io', 'kiosbot'];
  const order = [...kinds.slice(i % kinds.length), ...kinds.slice(0, i % kinds.length)];
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
  worldCpuMsPerUpdate: med('kiosbot', 'worldCpuMsPerUpdate'),
  baselineWorldCpuMsPerUpdate: med('minimal', 'worldCpuMsPerUpdate'),
  telegramCallsPerUpdate: med('kiosbot', 'telegramCallsPerUpdate'),
  baselineTelegramCallsPerUpdate: med('minimal', 'telegramCallsPerUpdate'),
  target: `>= ${targets.ofBaseline * 100}% of the minimal bot`,
  ...note(ups >= targets.ofBaseline * upsBase, 'updates/s below target'),
});
const upsIo = med('same-io', 'updatesPerSecond');
emit({
  figure: 'burst-same-io',
  updates: burstUsers * 2,
  runs,
  updatesPerSecond: upsIo,
  ofBaseline: Math.round((upsIo / upsBase) * 100) / 100,
  kiosbotOfIt: Math.round((ups / upsIo) * 100) / 100,
  target: `kiosbot >= ${targets.ofSameIo * 100}% of it`,
  ...note(ups >= targets.ofSameIo * upsIo, 'kiosbot below target of the same-io bot'),
  cpuMsPerUpdate: med('same-io', 'cpuMsPerUpdate'),
  latencyP50Ms: med('same-io', 'sustainedP50Ms'),
  latencyP99Ms: med('same-io', 'sustainedP99Ms'),
  loopDelayP99Ms: med('same-io', 'loopDelayP99Ms'),
  what: "information: a bare bot doing kiosbot's outside work per update (durable sealed inbox, the balance call, the sealed pending purchase written durably, one reply) and nothing else; ofBaseline is what that work leaves of the minimal bot, kiosbotOfIt what kiosbot's own code leaves of it",
});
const far = med('kiosbot', 'farUpdatesPerSecond');
const farBase = med('minimal', 'farUpdatesPerSecond');
emit({
  figure: 'burst-far',
  roundTripMs: farRoundTripMs,
  updates: burstUsers * 2,
  runs,
  updatesPerSecond: far,
  baselineUpdatesPerSecond: farBase,
  ofBaseline: Math.round((far / farBase) * 100) / 100,
  what: 'information: the burst with a round trip to Telegram, where one getUpdates answer of 100 updates per round trip bounds both bots',
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
const loopBase = med('minimal', 'loopDelayP99Ms');
emit({
  figure: 'event-loop',
  during: 'burst',
  runs,
  delayP99Ms: loop,
  baselineDelayP99Ms: loopBase,
  sameIoDelayP99Ms: med('same-io', 'loopDelayP99Ms'),
  target: "p99 <= the minimal bot's",
  ...note(loop <= loopBase, "event-loop delay p99 above the minimal bot's"),
});
const stored = burstUsers * 2;
const appendBytes = med('kiosbot', 'inboxAppendBytes');
emit({
  figure: 'inbox',
  during: 'burst',
  runs,
  storedUpdates: stored,
  appends: med('kiosbot', 'inboxAppends'),
  appendBytes,
  appendBytesPerUpdate: Math.round(appendBytes / stored),
  largestAppendBytes: med('kiosbot', 'inboxLargestAppendBytes'),
  compactions: med('kiosbot', 'inboxCompactions'),
  compactionBytes: med('kiosbot', 'inboxCompactionBytes'),
  what: 'the update inbox log during the burst: each append carries one getUpdates batch (at most 100 updates) or done marks, so its bytes follow the batch; compactions rewrite only the live entries',
});
// The rows side by side, from the same runs.
emit({
  figure: 'rows',
  runs,
  kiosbotUpdatesPerSecond: ups,
  sameIoUpdatesPerSecond: upsIo,
  minimalUpdatesPerSecond: upsBase,
  ofSameIo: Math.round((ups / upsIo) * 100) / 100,
  ofMinimal: Math.round((ups / upsBase) * 100) / 100,
  loopDelayP99Ms: loop,
  minimalLoopDelayP99Ms: loopBase,
  inboxAppendBytesPerUpdate: Math.round(appendBytes / stored),
  targets: `ofSameIo >= ${targets.ofSameIo}, ofMinimal >= ${targets.ofBaseline}, loop p99 <= minimal's, inbox bytes per batch proportional to the batch`,
  met: {
    ofSameIo: ups >= targets.ofSameIo * upsIo,
    ofMinimal: ups >= targets.ofBaseline * upsBase,
    loop: loop <= loopBase,
  },
});
