/**
 * A burst of new users on a fleet: three bot processes in webhook mode sharing one PostgreSQL
 * database (fleet-lab.ts), Telegram emulated enforcing its 30 messages per second over all chats
 * (429 with retry_after beyond it) and delivering over 12 webhook connections. 300 users send
 * /start within half a second, as after a channel post. Real time: the fleet's replies go at up to
 * 22 a second (90% of its 25), so this takes 15 s or more (much more on a loaded machine).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { until } from './fixture.ts';
import { openFleet, postgres, quiet, type Fleet } from './fleet-lab.ts';

const users = 300;
const burstMs = 500;
const ceiling = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the fleet, has the emulator enforce `globalPerSecond`, sends the burst and waits until
 * everyone has an answer, then a few seconds more (no reply comes twice or late).
 */
async function burst(globalPerSecond: number): Promise<{ fleet: Fleet; crowd: EmulatedUser[]; asked: EmulatedMessage[] }> {
  // The lab's 5 s hold of a stored update is for its kill -9 tests; here nobody dies, and a reply
  // at the back of the burst waits longer than that for its turn (the default hold is 120 s).
  const fleet = await openFleet({ env: { CLAIM_LEASE_SECONDS: '120' } });
  onTestFinished(() => fleet.close());
  const { telegram } = fleet;
  await fleet.start();
  telegram.setEnforceLimits({ globalPerSecond, perChatPerSecond: 1 });
  const crowd: EmulatedUser[] = Array.from({ length: users }, (_, i) =>
    telegram.createUser({ firstName: `Pendatang ${i}`, languageCode: 'id' }),
  );
  const asked: EmulatedMessage[] = [];
  const started = Date.now();
  for (const [i, user] of crowd.entries()) {
    const due = started + (i * burstMs) / users;
    if (due > Date.now()) await sleep(due - Date.now());
    asked.push(user.send('/start'));
  }
  const answered = () => crowd.filter((user) => telegram.botMessages(user).length > 0).length;
  await until(
    () => answered() === users,
    90_000,
    () => `${answered()} of ${users} answered\n${fleet.output().slice(-20_000)}`,
  );
  // Every update handled and every notice sent: no answer can come after this.
  await quiet(fleet);
  return { fleet, crowd, asked };
}

/** Users who did not get exactly one welcome. */
const notAnsweredOnce = (fleet: Fleet, crowd: readonly EmulatedUser[]) =>
  crowd.flatMap((user, i) => {
    const got = fleet.telegram.botMessages(user);
    return got.length === 1 && got[0]!.text?.includes(`Halo Pendatang ${i}`) ? [] : [`user ${i}: ${got.length} answers`];
  });

describe('300 new users send /start within half a second to a fleet of three (Telegram enforcing 30 messages per second)', () => {
  if (postgres !== true) {
    it.skip(`skipped: ${postgres}`, () => undefined);
    return;
  }

  it('every one of them is answered exactly once, and Telegram never has to refuse a message', async () => {
    const { fleet, crowd, asked } = await burst(ceiling);
    const { telegram } = fleet;
    expect(notAnsweredOnce(fleet, crowd)).toEqual([]);
    const refused = telegram.calls.filter((call) => call.status === 429);
    expect(refused.length, `${refused.length} calls answered 429`).toBe(0);
    expect(telegram.maxSendsInWindow('all', 1000)).toBeLessThanOrEqual(ceiling);
    expect(
      fleet.proxy.counts().every((n) => n > 0),
      `updates per instance: ${fleet.proxy.counts().join(', ')}`,
    ).toBe(true);
    const first = Math.min(...asked.map((m) => m.sentAt));
    const last = Math.max(...crowd.map((user) => telegram.botMessages(user)[0]!.sentAt));
    console.info(`fleet burst: ${users} answered in ${last - first} ms, max ${telegram.maxSendsInWindow('all', 1000)}/s`);
  }, 420_000);
});
