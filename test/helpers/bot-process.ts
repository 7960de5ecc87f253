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
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    exited,
    get output() {
      return output;
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
