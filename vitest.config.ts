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

/** The bot-level tests that run on both engines: whole worlds (test/helpers/app.ts) driven through the bot. */
const postgresSuite = ['test/bot/**/*.test.ts', 'test/jobs/**/*.test.ts', 'test/services/**/*.test.ts'];

/**
 * Bot-level files that run on lowdb only, each for its reason (single tests of a lowdb-only
 * property are skipped in their file instead, with the reason printed: test/helpers/test-store.ts).
 */
const lowdbOnlyFiles: Record<string, string> = {
  // test/helpers/virtual-time.ts fakes timers, Date and performance process-wide and moves the
  // clock on whenever nothing is left to run in the process: a database round trip is I/O it does
  // not see, so the clock jumps over it and leases and deadlines pass in the middle of a query.
  'test/bot/broadcast-scale.test.ts': 'virtual time cannot wait for a database round trip',
  'test/bot/reply-burst.test.ts': 'virtual time cannot wait for a database round trip',
  // A data directory's files: a full disk under the store's writes, which files a step writes, a
  // write the disk holds back (PostgreSQL's own failures are the contract and fleet tests').
  'test/bot/buy-disk-full.test.ts': 'a full disk under the data directory',
  'test/services/disk-full.test.ts': 'a full disk under the data directory',
  'test/bot/conversation-writes.test.ts': 'which data files a conversation step writes',
  'test/services/purchases-deferred.test.ts': "the data directory's deferred writes on a busy disk",
};

/**
 * Three layers (README "Tests"): `fast` drives the real bot in-process (sandbox providers and the
 * emulated Bot API on loopback), and `fast-pg` its bot-level files again on PostgreSQL; `e2e`
 * starts the bot as a child process (kill -9, start-up, everything the process prints); `browser`
 * drives the playground page and `npm run demo` in headless Chromium. `npm test` runs them all.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // KIOSBOT_TEST_CPU_PROF=<dir> writes a V8 CPU profile of each test worker there (summarise one
    // with `npx tsx bench/profile-summary.ts <file>`).
    execArgv: process.env.KIOSBOT_TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.KIOSBOT_TEST_CPU_PROF}`] : [],
    // Four workers on two cores: much of a test's time is spent waiting (loopback HTTP, the thread
    // pool's file writes, PostgreSQL's answers, child processes): with three the run kept the two
    // cores busy about half the time. One of the four runs the fleet labs (test/e2e/fleet-labs.test.ts).
    // KIOSBOT_TEST_WORKERS chooses another number.
    maxWorkers: Number(process.env.KIOSBOT_TEST_WORKERS ?? 4),
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
      // The bot-level files again on PostgreSQL (README "Tests"): each world on its worker's database,
      // receiving updates by webhook as a fleet does. What only a data directory has is skipped there
      // with its reason printed (test/helpers/test-store.ts `itOnLowdb`).
      {
        extends: true,
        test: {
          name: 'fast-pg',
          include: postgresSuite,
          exclude: Object.keys(lowdbOnlyFiles),
          env: { KIOSBOT_TEST_STORE: 'postgres' },
          globalSetup: ['test/helpers/test-store-setup.ts'],
          isolate: false,
          // The worlds of a concurrent describe one after the other: side by side each needs a
          // database of its own and a share of the one server, and their answers came past the
          // emulator's 5 s wait on a busy machine.
          maxConcurrency: 1,
          // A world's step costs database round trips there: the hook that drives every flow for the
          // conversation fingerprints takes about as long as lowdb's 20 s allow.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
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
