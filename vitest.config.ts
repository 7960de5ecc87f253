import { accessSync, constants } from 'node:fs';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/sequencer.ts';

// Test data directories (os.tmpdir()) on a memory file system where the machine has one: every
// store write fsyncs, which on a disk costs the suite about a quarter of its time and proves
// nothing a kill -9 test needs (a killed process's writes survive in the page cache anyway).
// KIOSBOT_TEST_TMPDIR chooses another place; the product's own writes are unchanged.
const memoryTmp = process.env.KIOSBOT_TEST_TMPDIR ?? '/dev/shm';
try {
  accessSync(memoryTmp, constants.W_OK);
  process.env.TMPDIR = memoryTmp;
} catch {
  // No such directory: the system's temporary directory it is.
}

/**
 * Three layers (README "Tests"): `fast` drives the real bot in-process (sandbox providers and the
 * emulated Bot API on loopback); `e2e` starts the bot as a child process (kill -9, start-up,
 * everything the process prints); `browser` drives the playground page and `npm run demo` in
 * headless Chromium. `npm test` runs all three.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // KIOSBOT_TEST_CPU_PROF=<dir> writes a V8 CPU profile of each test worker there (summarise one
    // with `npx tsx bench/profile-summary.ts <file>`).
    execArgv: process.env.KIOSBOT_TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.KIOSBOT_TEST_CPU_PROF}`] : [],
    // Three workers on two cores: about a third of the fast project's time is spent waiting
    // (loopback HTTP, the thread pool's file writes) and the process tests mostly wait for their
    // children, so a third worker fills those gaps (about 62 s instead of 91 s on a fresh clone).
    // KIOSBOT_TEST_WORKERS chooses another number.
    maxWorkers: Number(process.env.KIOSBOT_TEST_WORKERS ?? 3),
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      // Not isolated: the fast files share one module graph per worker instead of importing src/,
      // grammY and the emulator again for each of ~75 files (import time went from ~27 s to ~3 s).
      // Safe because nothing keeps module-level state and no test mocks modules; a world is
      // started and stopped per test, and restoreWallClock puts the real Date back.
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', 'test/browser/**'], isolate: false },
      },
      // The process tests start the bot as built once per run by test/e2e/build-once.ts.
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/build-once.ts'],
          // Not isolated either: each file would import src/, the sandbox and the emulator again
          // (about 4 s each); the processes under test are the isolation.
          isolate: false,
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      // Real headless Chromium (/usr/bin/chromium) on the playground page and the whole demo.
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 120_000 } },
    ],
  },
});
