/**
 * Helpers of the settlement tests: a clock the test moves, a world whose watcher and outbox run
 * fast, a purchase left Pending, and "time passes, the watcher runs".
 */
import { startWorld, type TestWorld, type TestWorldOptions } from './app.ts';
import { waitForSummary } from './buy.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

export interface TestClock {
  now: () => Date;
  advance: (ms: number) => void;
}

/** A clock the test moves forward, given to the app (back-off, horizon, holds) and nothing else. */
export function testClock(): TestClock {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) };
}

/** Outbox limits loose enough for tests that are not about pacing. */
export const fastOutbox = { perChatMs: 20, perGroupPerMinute: 600, globalPerSecond: 200 };

/**
 * A world with the jobs running on `clock`: the watcher ticks every 50 ms, the outbox is fast,
 * and the sandbox settles a Pending purchase after 2 checks (never by time). `options` may
 * override any of it; its `app` options are merged.
 */
export function startSettlementWorld(clock: TestClock, options: TestWorldOptions = {}): Promise<TestWorld> {
  return startWorld({
    jobs: true,
    sandbox: { reseller: { settleAfterChecks: 2, settleAfterMs: 3_600_000 } },
    ...options,
    app: { now: clock.now, outboxLimits: fastOutbox, watcherTickMs: 50, ...options.app },
  });
}

/**
 * Buys CODE TARGET through the bot and returns the message the user saw after confirming:
 * "Sedang diproses" for a Pending answer, "Belum pasti" when the provider gave no clear answer.
 */
export async function buyPending(world: TestWorld, user: EmulatedUser, code: string, target: string): Promise<EmulatedMessage> {
  const summary = await waitForSummary(world, user, user.send(`/beli ${code} ${target}`));
  user.tap(summary, '✅ Konfirmasi');
  return world.telegram.waitForBotMessage(user, { after: summary, textIncludes: /Sedang diproses|Belum pasti/ });
}

/** Moves `clock` past the next re-check (6 minutes) and lets the watcher run, `times` times. */
export async function recheck(world: TestWorld, clock: TestClock, times = 1): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    clock.advance(6 * 60_000);
    await world.app.watcher.runOnce();
  }
}
