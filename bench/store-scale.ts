/**
 * Store at scale (issue 15): open time, one durable write (latency and event-loop block), the hot
 * file's size, a settlement's history write (append to the month segment), the first history lookup (by ref id, provider trx id, target, day) and RSS, at
 * 1k / 10k / 50k users with 10k / 100k / 1M settled transactions, beside a naive single-file lowdb
 * (one JSON with every user and transaction, written whole on each change) in the same run.
 *
 * Each side runs in its own child process per size (and per lookup: a lookup is "first" only in a
 * fresh process), so RSS and a crash belong to that side alone. Prints one JSON line per figure;
 * a figure that misses its target says so in `missed`.
 *
 * Run: npm run bench:store [-- --sizes 1k,10k | --full]   (default: 1k,10k; --full adds 50k / 1M)
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JSONFilePreset } from 'lowdb/node';
import { decodeTime, monotonicFactory } from 'ulid';
import { openHistory } from '../src/store/history.ts';
import { historyDirName, hotFileName, openStore } from '../src/store/store.ts';
import { shardOfUser, userShardFileName } from '../src/store/user-shards.ts';
import { benchVault, scaleData, scaleSizes, selectSizes, settledTransaction, userIdOf, type ScaleData } from './scale-data.ts';

const writeRounds = 30;
/** Differs between runs, so a write never stores the value a previous run left (an unchanged user is not written). */
const runSalt = 10_000 + (Date.now() % 1_000_000) * 100;
const lookups = ['ref', 'trx', 'target', 'date'] as const;
type Lookup = (typeof lookups)[number];
type Side = 'kiosbot' | 'baseline';

/** What one child process measured; `crash` when the side failed (the error's first line). */
interface Measured {
  openMs?: number;
  rssAfterOpenMb?: number;
  fileBytes?: number;
  shardBytes?: number;
  writeP50Ms?: number;
  writeP99Ms?: number;
  writeBlockP99Ms?: number;
  writeBlockMaxMs?: number;
  settleWriteP50Ms?: number;
  settleWriteP99Ms?: number;
  settleWriteBlockMaxMs?: number;
  lookupMs?: number;
  lookupBlockMaxMs?: number;
  lookupFound?: number;
  rssAfterLookupMb?: number;
  crash?: string;
  crashAt?: string;
}

const round = (n: number) => Math.round(n * 100) / 100;
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

/** Runs `work` with the event-loop delay monitored; resolves with its result, duration and the longest block. */
async function watched<T>(work: () => T | Promise<T>): Promise<{ result: T; ms: number; blockMaxMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  // One more turn, so a block at the very end is recorded.
  await new Promise((resolve) => setImmediate(resolve));
  delay.disable();
  return { result, ms: round(ms), blockMaxMs: round(delay.max / 1e6) };
}

/**
 * `writeRounds` durable writes, one awaited at a time: latency p50/p99, and the longest event-loop
 * block during each write (p99 over the writes, and the longest of all).
 */
async function timeWrites(write: (i: number) => Promise<unknown>): Promise<Measured> {
  const latencies: number[] = [];
  const blocks: number[] = [];
  for (let i = 0; i < writeRounds; i++) {
    const { ms, blockMaxMs } = await watched(() => write(i));
    latencies.push(ms);
    blocks.push(blockMaxMs);
  }
  return {
    writeP50Ms: percentile(latencies, 50),
    writeP99Ms: percentile(latencies, 99),
    writeBlockP99Ms: percentile(blocks, 99),
    writeBlockMaxMs: percentile(blocks, 100),
  };
}

/** The UTC day the transaction `refId` (a ULID) was created in: [start, end). */
function dayOf(refId: string): [Date, Date] {
  const start = new Date(decodeTime(refId));
  start.setUTCHours(0, 0, 0, 0);
  return [start, new Date(start.getTime() + 24 * 3600_000)];
}

/**
 * A settlement's history write: `writeRounds` appends of one settled transaction (to this
 * month's segment, on disk when it resolves; its index lines are written after), awaited one at a
 * time, on the history archive the store uses (opened after the store closed, so nothing else
 * writes). Latency p50/p99 and the longest
 * event-loop block during any of them. The hot-file write of a settlement is the `write-*` figure.
 */
async function timeHistoryAppends(data: ScaleData): Promise<Measured> {
  const history = await openHistory({ dir: path.join(data.dataDir, historyDirName) });
  const mint = monotonicFactory();
  const latencies: number[] = [];
  const blocks: number[] = [];
  try {
    for (let i = 0; i < writeRounds; i++) {
      const tx = settledTransaction(runSalt + i, data.size, Date.now(), mint());
      const { ms, blockMaxMs } = await watched(() => history.append([tx]));
      latencies.push(ms);
      blocks.push(blockMaxMs);
    }
  } finally {
    await history.close();
  }
  return {
    settleWriteP50Ms: percentile(latencies, 50),
    settleWriteP99Ms: percentile(latencies, 99),
    settleWriteBlockMaxMs: percentile(blocks, 100),
  };
}

// ---------------------------------------------------------------- child: one side, one lookup

async function measureKiosbot(data: ScaleData, lookup: Lookup, withWrites: boolean): Promise<Measured> {
  const out: Measured = {};
  const started = performance.now();
  const store = await openStore({ dataDir: data.dataDir, vault: benchVault });
  try {
    out.openMs = round(performance.now() - started);
    out.rssAfterOpenMb = mb(process.memoryUsage().rss);
    out.fileBytes = statSync(path.join(data.dataDir, hotFileName)).size;
    // The users' shard file the first write rewrites.
    out.shardBytes = statSync(path.join(data.dataDir, userShardFileName(shardOfUser(userIdOf(0))))).size;
    if (withWrites) {
      Object.assign(
        out,
        await timeWrites((i) => store.users.update(userIdOf((i * 7_919) % data.size.users), { alertThreshold: runSalt + i })),
      );
    }
    const { probe } = data;
    const found = await watched(async () => {
      if (lookup === 'ref') return (await store.transactions.find(probe.refId)) ? 1 : 0;
      if (lookup === 'trx') return (await store.transactions.findByTrxId(probe.userId, probe.trxId)) ? 1 : 0;
      if (lookup === 'date') return (await store.transactions.listByUserBetween(probe.userId, ...dayOf(probe.refId))).length;
      return (await store.transactions.listByTarget(probe.userId, probe.target)).length;
    });
    Object.assign(out, { lookupMs: found.ms, lookupBlockMaxMs: found.blockMaxMs, lookupFound: found.result });
    out.rssAfterLookupMb = mb(process.memoryUsage().rss);
  } finally {
    await store.close();
  }
  if (withWrites) Object.assign(out, await timeHistoryAppends(data));
  return out;
}

interface BaselineTx {
  refId: string;
  userId: number;
  target: string;
  trxId?: string;
  createdAt: string;
}
interface BaselineData {
  users: Array<{ id: number; alertThreshold?: number }>;
  credentials: unknown[];
  transactions: BaselineTx[];
}

async function measureBaseline(data: ScaleData, lookup: Lookup, withWrites: boolean): Promise<Measured> {
  const out: Measured = {};
  let stage = 'open';
  try {
    out.fileBytes = statSync(data.baselineFile).size;
    const started = performance.now();
    const db = await JSONFilePreset<BaselineData>(data.baselineFile, { users: [], credentials: [], transactions: [] });
    out.openMs = round(performance.now() - started);
    out.rssAfterOpenMb = mb(process.memoryUsage().rss);
    if (withWrites) {
      stage = 'write';
      Object.assign(
        out,
        await timeWrites((i) =>
          db.update(({ users }) => {
            const user = users[(i * 7_919) % users.length];
            if (user) user.alertThreshold = runSalt + i;
          }),
        ),
      );
    }
    stage = 'lookup';
    const { probe } = data;
    const found = await watched(() => {
      const txs = db.data.transactions;
      if (lookup === 'ref') return txs.some((tx) => tx.refId === probe.refId) ? 1 : 0;
      if (lookup === 'trx') return txs.some((tx) => tx.userId === probe.userId && tx.trxId === probe.trxId) ? 1 : 0;
      if (lookup === 'date') {
        const [from, to] = dayOf(probe.refId).map((d) => d.toISOString());
        return txs.filter((tx) => tx.userId === probe.userId && tx.createdAt >= from! && tx.createdAt < to!).length;
      }
      const mine = txs.filter((tx) => tx.userId === probe.userId && tx.target === probe.target);
      return mine.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, 10).length;
    });
    Object.assign(out, { lookupMs: found.ms, lookupBlockMaxMs: found.blockMaxMs, lookupFound: found.result });
    out.rssAfterLookupMb = mb(process.memoryUsage().rss);
  } catch (error) {
    out.crash = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]?.slice(0, 200);
    out.crashAt = stage;
  }
  return out;
}

const resultPrefix = 'STORE-SCALE-RESULT ';

async function child(argv: string[]): Promise<void> {
  const arg = (name: string) => argv[argv.indexOf(name) + 1] ?? '';
  const size = scaleSizes.find((s) => s.name === arg('--size'));
  if (!size) throw new Error('--size missing');
  const data = await scaleData(size);
  const lookup = arg('--lookup') as Lookup;
  const withWrites = argv.includes('--writes');
  const result =
    arg('--side') === 'baseline' ? await measureBaseline(data, lookup, withWrites) : await measureKiosbot(data, lookup, withWrites);
  process.stdout.write(`${resultPrefix}${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------- parent: sizes, sides, figures

const self = fileURLToPath(import.meta.url);
const tsxLoader = pathToFileURL(path.resolve(path.dirname(self), '../node_modules/tsx/dist/loader.mjs')).href;

/** Runs one side in a child process; an exit without a result (out of memory, say) is a crash. */
function runSide(size: string, side: Side, lookup: Lookup, withWrites: boolean): Promise<Measured> {
  const args = ['--import', tsxLoader, self, '--child', '--size', size, '--side', side, '--lookup', lookup];
  if (withWrites) args.push('--writes');
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.once('exit', (code, signal) => {
      const line = stdout.split('\n').find((l) => l.startsWith(resultPrefix));
      if (line) return resolve(JSON.parse(line.slice(resultPrefix.length)) as Measured);
      const last = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' | ');
      resolve({ crash: `exited ${signal ?? code}: ${last.slice(0, 300)}`, crashAt: 'process' });
    });
  });
}

function emit(figure: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'store-scale', ...figure }));
}

/** A figure: kiosbot's value beside the baseline's (or its crash), the target, and `missed` when it is missed. */
function figure(
  name: string,
  data: ScaleData,
  unit: string,
  value: number | undefined,
  baseline: Measured,
  baselineValue: number | undefined,
  target?: { text: string; met: (v: number) => boolean },
): void {
  const missed = target && (value === undefined || !target.met(value)) ? true : undefined;
  emit({
    figure: name,
    users: data.size.users,
    transactions: data.size.transactions,
    unit,
    kiosbot: value ?? null,
    baseline: baseline.crash && baselineValue === undefined ? { crash: baseline.crash, at: baseline.crashAt } : (baselineValue ?? null),
    ...(target ? { target: target.text } : {}),
    ...(missed ? { missed } : {}),
  });
}

async function parent(argv: string[]): Promise<void> {
  const sizes = selectSizes(argv, ['1k', '10k']);
  const started = performance.now();
  const writeP50: Array<{ users: number; ms: number }> = [];
  for (const size of sizes) {
    const data = await scaleData(size);
    emit({
      figure: 'data',
      users: size.users,
      transactions: size.transactions,
      dir: path.dirname(data.dataDir),
      generatedSeconds: data.generatedSeconds,
    });
    const ours: Partial<Record<Lookup, Measured>> = {};
    const theirs: Partial<Record<Lookup, Measured>> = {};
    for (const lookup of lookups) {
      const withWrites = lookup === 'ref';
      ours[lookup] = await runSide(size.name, 'kiosbot', lookup, withWrites);
      theirs[lookup] = await runSide(size.name, 'baseline', lookup, withWrites);
    }
    const k = ours.ref ?? {};
    const b = theirs.ref ?? {};
    if (k.crash)
      emit({ figure: 'kiosbot-crash', users: size.users, transactions: size.transactions, crash: k.crash, at: k.crashAt, missed: true });
    figure('open-ms', data, 'ms', k.openMs, b, b.openMs);
    figure('hot-file-bytes', data, 'bytes', k.fileBytes, b, b.fileBytes);
    figure('user-shard-bytes', data, 'bytes', k.shardBytes, b, undefined);
    figure('write-p50-ms', data, 'ms', k.writeP50Ms, b, b.writeP50Ms);
    figure('write-p99-ms', data, 'ms', k.writeP99Ms, b, b.writeP99Ms, { text: '< 10 ms', met: (v) => v < 10 });
    figure('write-block-p99-ms', data, 'ms', k.writeBlockP99Ms, b, b.writeBlockP99Ms, { text: '< 20 ms', met: (v) => v < 20 });
    figure('write-block-max-ms', data, 'ms', k.writeBlockMaxMs, b, b.writeBlockMaxMs);
    // The baseline has no history of its own: a settlement there is one more whole-file write (write-*).
    figure('settle-history-write-p50-ms', data, 'ms', k.settleWriteP50Ms, b, b.writeP50Ms);
    figure('settle-history-write-p99-ms', data, 'ms', k.settleWriteP99Ms, b, b.writeP99Ms, { text: '< 10 ms', met: (v) => v < 10 });
    figure('settle-history-write-block-max-ms', data, 'ms', k.settleWriteBlockMaxMs, b, b.writeBlockMaxMs, {
      text: '< 20 ms',
      met: (v) => v < 20,
    });
    for (const lookup of lookups) {
      const mine = ours[lookup] ?? {};
      const base = theirs[lookup] ?? {};
      if (lookup !== 'ref' && mine.crash) emit({ figure: 'kiosbot-crash', lookup, crash: mine.crash, missed: true });
      figure(`first-lookup-${lookup}-ms`, data, 'ms', mine.lookupMs, base, base.lookupMs, { text: '< 50 ms', met: (v) => v < 50 });
      figure(`first-lookup-${lookup}-block-max-ms`, data, 'ms', mine.lookupBlockMaxMs, base, base.lookupBlockMaxMs, {
        text: '< 20 ms (no block over 20 ms)',
        met: (v) => v < 20,
      });
      if (mine.lookupFound === 0) emit({ figure: 'lookup-found-nothing', lookup, users: size.users, missed: true });
    }
    figure('rss-after-open-mb', data, 'MB', k.rssAfterOpenMb, b, b.rssAfterOpenMb, { text: '< 300 MB', met: (v) => v < 300 });
    const afterLookup = lookups.map((l) => ours[l]?.rssAfterLookupMb ?? Infinity);
    const baseAfter = lookups.map((l) => theirs[l]?.rssAfterLookupMb).filter((v) => v !== undefined);
    figure('rss-after-lookup-max-mb', data, 'MB', Math.max(...afterLookup), b, baseAfter.length ? Math.max(...baseAfter) : undefined, {
      text: '< 300 MB',
      met: (v) => v < 300,
    });
    if (k.writeP50Ms !== undefined) writeP50.push({ users: size.users, ms: k.writeP50Ms });
  }
  // "Write cost independent of the user count": the largest size's write p50 within 2x the smallest's.
  const [first, last] = [writeP50[0], writeP50.at(-1)];
  if (first && last && last.users > first.users) {
    const ratio = round(last.ms / Math.max(first.ms, 0.01));
    emit({
      figure: 'write-p50-growth',
      from: first,
      to: last,
      ratio,
      target: 'write cost independent of the user count (p50 at the largest size ≤ 2× the smallest)',
      ...(ratio > 2 ? { missed: true } : {}),
    });
  }
  emit({ figure: 'total', sizes: sizes.map((s) => s.name), totalSeconds: round((performance.now() - started) / 1000) });
}

const argv = process.argv.slice(2);
await (argv.includes('--child') ? child(argv) : parent(argv));
