import { defineConfig } from 'vitest/config';

/**
 * Two layers (README "Tests"): `fast` drives the real bot in-process (sandbox providers and the
 * emulated Bot API on loopback); `e2e` starts the bot as a child process (kill -9, start-up,
 * everything the process prints). `npm test` runs both.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 60_000 } },
    ],
  },
});
