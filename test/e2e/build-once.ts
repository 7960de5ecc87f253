/**
 * Global setup of the `e2e` project: builds the bot once per run exactly as `npm run build` does
 * (tools/build.ts: one bundle per entry point under `src/bot/`, `locales` two directories above),
 * into a temp directory linked to this repository's `node_modules` and `locales`. The process
 * tests start that build (`node …/main.mjs`, what `npm run start:prod` runs).
 * `test/e2e/commands-process.test.ts` still starts `src/main.ts` through tsx, as `npm start` does.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { TestProject } from 'vitest/node';
import { bundleOptions } from '../../tools/build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The directory of the e2e build (see test/e2e/build-once.ts). */
    kiosbotBuild: string;
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-build-'));
  await mkdir(path.join(dir, 'src', 'bot'), { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  await symlink(path.join(repoRoot, 'locales'), path.join(dir, 'locales'));
  await esbuild.build({ ...bundleOptions(repoRoot, path.join(dir, 'src', 'bot')), logLevel: 'silent' });
  project.provide('kiosbotBuild', dir);
  return () => rm(dir, { recursive: true, force: true });
}
