/**
 * Start-up (issue 15): from spawning the bot process to its "bot ready" log line, as `npm start`
 * runs it (`node --import tsx src/main.ts`) and as `npm run start:prod` runs the `npm run build`
 * output (`node dist/src/bot/main.mjs`), with the sandbox providers and the emulated Bot API on
 * loopback and DATA_DIR empty or one of bench/scale-data.ts's generated directories. Median of 3
 * runs per case; the two modes alternate. Prints one JSON line per figure.
 *
 * Run: npm run bench:startup [-- --sizes 10k | --full | --runs 3 | --no-build]
 * (default: empty and 10k users / 100k transactions; --full adds 50k users / 1M transactions)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBotApi, type BotApiEmulator } from '../tools/playground/bot-api.ts';
import { startSandbox, type Sandbox } from '../tools/sandbox/server.ts';
import { benchKey, scaleData, scaleSizes, type ScaleSize } from './scale-data.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsxLoader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
const modes = {
  tsx: ['--import', tsxLoader, path.join(repoRoot, 'src/main.ts')],
  compiled: [path.join(repoRoot, 'dist/src/bot/main.mjs')],
} as const;
type Mode = keyof typeof modes;
const targetMs = 2_000;

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;

function emit(figure: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'startup', ...figure }));
}

const round = (n: number) => Math.round(n);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** `empty` plus the sizes asked for (`--sizes 1k,10k`, `--full`: all; default 10k). */
function selectCases(): Array<ScaleSize | 'empty'> {
  const at = argv.indexOf('--sizes');
  const names = argv.includes('--full') ? scaleSizes.map((s) => s.name) : at >= 0 ? (argv[at + 1] ?? '').split(',') : ['10k'];
  return [
    'empty',
    ...names.map((name) => {
      const size = scaleSizes.find((s) => s.name === name.trim());
      if (!size) throw new Error(`Unknown size ${name}`);
      return size;
    }),
  ];
}

/** One start: spawn → "bot ready" (and → the first getUpdates); then SIGTERM and wait for the exit. */
async function startOnce(
  mode: Mode,
  dataDir: string,
  telegram: BotApiEmulator,
  sandbox: Sandbox,
): Promise<{ readyMs: number; pollingMs: number }> {
  const cwd = mkdtempSync(path.join(tmpdir(), 'kiosbot-bench-startup-'));
  const env = {
    PATH: process.env.PATH ?? '',
    BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
    RESELLER_API_URL: sandbox.urls.reseller,
    MARKETPLACE_API_URL: sandbox.urls.marketplace,
    GAMESHOP_API_URL: sandbox.urls.gameshop,
    ENCRYPTION_KEY: benchKey.toString('base64'),
    DATA_DIR: dataDir,
    BACKUP_DIR: path.join(cwd, 'backups'),
    LOG_LEVEL: 'info',
    PORT: '0',
  };
  const started = performance.now();
  const child = spawn(process.execPath, modes[mode], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const readyMs = await new Promise<number>((resolve, reject) => {
      const take = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('bot ready')) resolve(performance.now() - started);
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      void exited.then(() => reject(new Error(`the bot exited before it was ready:\n${output}`)));
      setTimeout(() => reject(new Error(`not ready within 60 s:\n${output}`)), 60_000).unref();
    });
    await telegram.waitFor(() => telegram.polling, { timeoutMs: 30_000, message: 'the bot did not poll' });
    return { readyMs, pollingMs: performance.now() - started };
  } finally {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
    rmSync(cwd, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const cases = selectCases();
  if (!argv.includes('--no-build')) {
    const started = performance.now();
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'pipe' });
    emit({ figure: 'build-ms', ms: round(performance.now() - started) });
  }
  const sandbox = await startSandbox();
  const telegram = await startBotApi();
  try {
    for (const size of cases) {
      const label = size === 'empty' ? { users: 0, transactions: 0 } : { users: size.users, transactions: size.transactions };
      const emptyDir = size === 'empty' ? mkdtempSync(path.join(tmpdir(), 'kiosbot-bench-startup-data-')) : undefined;
      const dataDir = emptyDir ?? (await scaleData(size as ScaleSize)).dataDir;
      const measured: Record<Mode, { ready: number[]; polling: number[] }> = {
        tsx: { ready: [], polling: [] },
        compiled: { ready: [], polling: [] },
      };
      try {
        // One start of each mode first, not counted: the empty directory gets its files, the OS its caches.
        for (const mode of Object.keys(modes) as Mode[]) await startOnce(mode, dataDir, telegram, sandbox);
        for (let run = 0; run < runs; run++) {
          const order: Mode[] = run % 2 === 0 ? ['tsx', 'compiled'] : ['compiled', 'tsx'];
          for (const mode of order) {
            const { readyMs, pollingMs } = await startOnce(mode, dataDir, telegram, sandbox);
            measured[mode].ready.push(readyMs);
            measured[mode].polling.push(pollingMs);
          }
        }
      } finally {
        if (emptyDir) rmSync(emptyDir, { recursive: true, force: true });
      }
      for (const mode of Object.keys(modes) as Mode[]) {
        const ready = round(median(measured[mode].ready));
        emit({
          figure: 'startup-to-ready-ms',
          mode,
          ...label,
          medianMs: ready,
          runsMs: measured[mode].ready.map(round),
          firstPollMedianMs: round(median(measured[mode].polling)),
          ...(mode === 'tsx'
            ? { compiledMedianMs: round(median(measured.compiled.ready)) }
            : { tsxMedianMs: round(median(measured.tsx.ready)) }),
          target: `< ${targetMs} ms`,
          ...(ready < targetMs ? {} : { missed: true }),
        });
      }
    }
  } finally {
    await telegram.close();
    await sandbox.close();
  }
}

await main();
