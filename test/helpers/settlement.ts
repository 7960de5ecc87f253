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
 * "Sedang diproses" for a Pending answer, "Belum pasti" when the provider gave no clear answer;
 * resolves once the purchase conversation is over.
 */
export async function buyPending(world: TestWorld, user: EmulatedUser, code: string, target: string): Promise<EmulatedMessage> {
  const summary = await waitForSummary(world, user, user.send(`/beli ${code} ${target}`));
  user.tap(summary, '✅ Konfirmasi');
  const pending = await world.telegram.waitForBotMessage(user, { after: summary, textIncludes: /Sedang diproses|Belum pasti/ });
  // The conversation ends by storing which message to edit when the purchase settles.
  await world.idle();
  return pending;
}

/** Moves `clock` past the next re-check (6 minutes) and lets the watcher run, `times` times. */
export async function recheck(world: TestWorld, clock: TestClock, times = 1): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    clock.advance(6 * 60_000);
    await world.app.watcher.runOnce();
  }
}

/** The bot's messages to `user` that reply to `message` (the one-line settlement pings). */
export function repliesTo(world: TestWorld, user: EmulatedUser, message: EmulatedMessage): EmulatedMessage[] {
  return world.telegram.botMessages(user).filter((m) => m.message.reply_to_message?.message_id === message.messageId);
}

/**
 * Waits until a purchase's "in process" message `pending` has become its receipt (its text
 * includes `headline`, e.g. 'Transaksi sukses') and the owner got the one-line message that pings,
 * a reply to it; resolves with that ping.
 */
export async function waitForSettled(
  world: TestWorld,
  user: EmulatedUser,
  pending: EmulatedMessage,
  headline: string | RegExp,
): Promise<EmulatedMessage> {
  await world.telegram.waitFor(() => (typeof headline === 'string' ? pending.text?.includes(headline) : headline.test(pending.text ?? '')));
  return world.telegram.waitFor(() => repliesTo(world, user, pending)[0]);
}
