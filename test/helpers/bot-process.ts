/**
 * The bot as `npm start` runs it: `src/main.ts` in a child process (through tsx), for tests of
 * what only a real process shows — kill -9 mid-purchase, start-up calls to Telegram.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** `--import` this to run TypeScript entry points (src/main.ts, the tools) in a child node. */
export const tsxLoader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

/** Node arguments that run a TypeScript entry point of this repository (path relative to the root) through tsx. */
export function tsxArgs(entry: string): string[] {
  return ['--import', tsxLoader, path.join(repoRoot, entry)];
}

export interface BotProcess {
  /** Everything the process wrote to stdout and stderr so far. */
  readonly output: string;
  /** Resolves with the exit code once the process has exited (null if a signal ended it). */
  readonly exited: Promise<number | null>;
  /** Sends `signal` (default SIGTERM) and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Resolves once the output so far satisfies `ready` (checked on every chunk, no polling);
   * rejects, with the output, if the process exits first or `timeoutMs` passes.
   */
  waitForOutput(ready: (output: string) => boolean, timeoutMs: number): Promise<void>;
}

/**
 * Starts the bot with exactly `env` (and PATH) as its environment. It runs in `cwd`, which should
 * hold no `.env`, so a developer's own `.env` cannot leak into the test. `nodeArgs` is what node
 * runs: `src/main.ts` through tsx unless told otherwise (a bundle, see bundled-bot.ts).
 */
export function spawnBot(env: Record<string, string>, cwd: string, nodeArgs = tsxArgs('src/main.ts')): BotProcess {
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
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * Runs a command-line entry point of this repository (through tsx) to its end with exactly `env`,
 * and resolves with its exit code and output; fails the test if it runs over a minute.
 */
export async function runToEnd(
  entry: string,
  env: Record<string, string>,
  cwd: string,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  const child = spawnBot(env, cwd, [...tsxArgs(entry), ...args]);
  // Generous: the child compiles TypeScript on a loaded machine.
  const code = await Promise.race([child.exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 60_000))]);
  if (code === 'timeout') {
    await child.stop('SIGKILL');
    throw new Error(`${entry} did not finish within a minute; its output: ${child.output}`);
  }
  return { code, output: child.output };
}
