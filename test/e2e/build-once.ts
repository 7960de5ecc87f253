/**
 * Global setup of the `e2e` project: builds the bot once per run exactly as `npm run build` does
 * (esbuild, packages external, entry points under `src/bot/`, `locales` two directories above),
 * into a temp directory linked to this repository's `node_modules` and `locales`. The process
 * tests start that build (`node …/main.mjs`, what `npm run start:prod` runs): a start costs about
 * 0.9 s of CPU instead of 2.5 s through tsx. `test/e2e/commands-process.test.ts` still starts
 * `src/main.ts` through tsx, as `npm start` does.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of the e2e build (see test/e2e/build-once.ts). */
    kiosbotBuild: string;
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The entry points of `npm run build`. */
export const builtEntries = ['src/main.ts', 'src/ops/backup.ts', 'src/ops/restore.ts', 'src/ops/rotate-key.ts'];

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-build-'));
  await mkdir(path.join(dir, 'src', 'bot'), { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  await symlink(path.join(repoRoot, 'locales'), path.join(dir, 'locales'));
  await esbuild.build({
    entryPoints: builtEntries.map((entry) => path.join(repoRoot, entry)),
    outdir: path.join(dir, 'src', 'bot'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  project.provide('kiosbotBuild', dir);
  return () => rm(dir, { recursive: true, force: true });
}
