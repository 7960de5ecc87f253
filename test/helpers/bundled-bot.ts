/**
 * `src/main.ts` bundled once with esbuild (the same transform tsx applies, done ahead of time), for
 * crash tests that restart the bot dozens of times: a start then costs about 0.5 s instead of
 * about 2 s of module loading. The bundle lives in a temp directory next to links to the repo's
 * `node_modules` and `locales`, so packages and Fluent files resolve exactly as from `src/`.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { spawnBot, type BotProcess } from './bot-process.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface BundledBot {
  /** Starts the bundled bot like `spawnBot` does (exactly `env` plus PATH, in `cwd`). */
  spawn(env: Record<string, string>, cwd: string): BotProcess;
  /** Removes the bundle. */
  remove(): Promise<void>;
}

export async function bundleBot(): Promise<BundledBot> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-bundle-'));
  // src/bot/i18n.ts finds `locales` two directories above its own: keep that depth.
  const entry = path.join(dir, 'src', 'bot', 'main.mjs');
  await mkdir(path.dirname(entry), { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  await symlink(path.join(repoRoot, 'locales'), path.join(dir, 'locales'));
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'src/main.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  return {
    spawn: (env, cwd) => spawnBot(env, cwd, [entry]),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
