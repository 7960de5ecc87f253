/**
 * The bot in a child process, for tests of what only a real process shows — kill -9 mid-purchase,
 * start-up calls to Telegram, what it prints: in the `e2e` project the build of
 * test/e2e/build-once.ts (what `npm run start:prod` runs), elsewhere `src/main.ts` through tsx
 * (what `npm start` runs).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** `--import` this to run TypeScript entry points (src/main.ts, the tools) in a child node. */
export const tsxLoader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

/** Node arguments that run a TypeScript entry point of this repository (path relative to the root) through tsx. */
export function tsxArgs(entry: string): string[] {
  return ['--import', tsxLoader, path.join(repoRoot, entry)];
}

/**
 * Node arguments that run an entry point of `npm run build` (src/main.ts, src/ops/*.ts) from the
 * e2e project's build; through tsx where there is no build (other projects).
 */
export function builtArgs(entry: string): string[] {
  const build = inject('kiosbotBuild') as string | undefined;
  if (!build) return tsxArgs(entry);
  // As in dist/: src/main.ts → src/bot/main.mjs, src/ops/backup.ts → src/bot/ops/backup.mjs.
  return [path.join(build, 'src', 'bot', path.relative('src', entry).replace(/\.ts$/, '.mjs'))];
}

export interface BotProcess {
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: string;
  /** Resolves with the exit code once the process has exited (null if a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Sends `signal` (default SIGTERM) and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Sends `signal` and returns at once (SIGSTOP and SIGCONT pause and wake the process). */
  signal(signal: NodeJS.Signals): void;
  /**
   * Resolves once the output so far satisfies `ready` (checked on every chunk, no polling);
   * rejects, with the output, if the process exits first or `timeoutMs` passes.
   */
  waitForOutput(ready: (output: string) => boolean, timeoutMs: number): Promise<void>;
}

/**
 * Starts the bot with exactly `env` (and PATH) as its environment. It runs in `cwd`, which should
 * hold no `.env`, so a developer's own `.env` cannot leak into the test. `nodeArgs` is what node
 * runs: the built `src/main.ts` (see {@link builtArgs}) unless told otherwise.
 */
export function spawnBot(env: Record<string, string>, cwd: string, nodeArgs = builtArgs('src/main.ts')): BotProcess {
  const child = spawn(process.execPath, nodeArgs, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watchers = new Set<() => void>();
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    for (const watcher of watchers) watcher();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    exited,
    get output() {
      return output;
    },
    waitForOutput(ready, timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          watchers.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (ready(output)) done();
        };
        const timer = setTimeout(
          () => done(new Error(`the process did not print what was awaited within ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        );
        void exited.then(() => done(new Error(`the process exited first:\n${output}`)));
        watchers.add(check);
        check();
      });
    },
    signal(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * Runs a command-line entry point of `npm run build` (built, see {@link builtArgs}) to its end with exactly `env`,
 * and resolves with its exit code and output; fails the test if it runs over a minute.
 */
export async function runToEnd(
  entry: string,
  env: Record<string, string>,
  cwd: string,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  const child = spawnBot(env, cwd, [...builtArgs(entry), ...args]);
  // Generous: a loaded machine.
  const code = await Promise.race([child.exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000))]);
  if (code === 'timeout') {
    await child.stop('SIGKILL');
    throw new Error(`${entry} did not finish within a minute; its output: ${child.output}`);
  }
  return { code, output: child.output };
}
