/**
 * A burst of new users (a channel post, a promotion): 300 users send /start within half a second
 * while the emulator enforces Telegram's 30 messages per second over all chats (429 with
 * retry_after beyond it). In virtual time (test/helpers/virtual-time.ts), so the ten seconds the
 * replies need at the ceiling cost no real waiting. One instance on the data directory (lowdb).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { startWorld } from '../helpers/app.ts';
import { useVirtualTime, type VirtualTime } from '../helpers/virtual-time.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { connectData } from '../../src/bot/callback-data/connect.ts';

const users = 300;
const burstMs = 500;
const ceiling = 30;

describe('300 new users send /start within half a second (Telegram enforcing 30 messages per second)', () => {
  let world: TestWorld | undefined;
  let time: VirtualTime | undefined;
  afterEach(async () => {
    if (world) await time?.until(world.stop());
    world = undefined;
    time?.restore();
    time = undefined;
  });

  it('answers every one of them exactly once, in the order they wrote, without meeting a single 429', async () => {
    time = useVirtualTime();
    const clock = time;
    world = await clock.until(
      startWorld({
        telegram: { enforceLimits: { globalPerSecond: ceiling, perChatPerSecond: 1 }, now: () => Date.now() },
        app: { storeWriteFile: clock.writeFile },
      }),
    );
    const w = world;
    clock.watch(w.telegram);
    const crowd: EmulatedUser[] = Array.from({ length: users }, (_, i) =>
      w.telegram.createUser({ firstName: `Pendatang ${i}`, languageCode: 'id' }),
    );
    const asked: Array<{ user: EmulatedUser; at: number; message: EmulatedMessage }> = [];
    const start = clock.elapsed();
    crowd.forEach((user, i) => {
      setTimeout(() => asked.push({ user, at: clock.elapsed() - start, message: user.send('/start') }), (i * burstMs) / users);
    });
    const answered = () => crowd.filter((user) => w.telegram.botMessages(user).length > 0).length;
    await clock
      .when(() => answered() === users, { limitMs: 120_000 })
      .catch((error: unknown) => {
        const refusals = w.logs.filter((line) => line.includes('could not tell the user')).length;
        throw new Error(`${answered()} of ${users} answered; ${refusals} "could not tell the user" logs (${String(error)})`);
      });
    // A minute later (virtual): no reply came twice, none came late.
    const minuteLater = Date.now() + 60_000;
    await clock.when(() => Date.now() >= minuteLater);

    const answers = crowd.map((user) => w.telegram.botMessages(user));
    expect(
      answers.flatMap((got, i) =>
        got.length === 1 && got[0]!.text?.includes(`Halo Pendatang ${i}`) ? [] : [`user ${i}: ${got.length} answers`],
      ),
    ).toEqual([]);
    // The bot kept to the ceiling itself: Telegram never had to refuse a message.
    const refused = w.telegram.calls.filter((call) => call.status === 429);
    expect(refused.length, `${refused.length} calls answered 429`).toBe(0);
    expect(w.telegram.maxSendsInWindow('all', 1000)).toBeLessThanOrEqual(ceiling);
    // Nobody was left behind: the last answer came about when 300 messages at 30 a second allow.
    const lastAnswer = Math.max(...answers.map((got) => got[0]!.sentAt)) - Math.min(...asked.map((a) => a.message.sentAt));
    expect(lastAnswer, `the last answer after ${lastAnswer} virtual ms`).toBeLessThan(((users / ceiling) * 1000) / 0.9);
    // First come, first served: who wrote earlier is answered no later than who wrote after them.
    const byArrival = [...asked].sort((a, b) => a.message.sentAt - b.message.sentAt);
    const overtaken = byArrival.flatMap((a, i) => {
      const next = byArrival[i + 1];
      if (!next) return [];
      const [mine, theirs] = [w.telegram.botMessages(a.user)[0]!, w.telegram.botMessages(next.user)[0]!];
      return mine.sentAt <= theirs.sentAt ? [] : [`user ${a.user.id} (wrote at ${a.at} ms) answered after user ${next.user.id}`];
    });
    expect(overtaken).toEqual([]);
  }, 120_000);
});

describe('a reply inside a conversation (its context has an Api of its own)', () => {
  let world: TestWorld | undefined;
  let time: VirtualTime | undefined;
  afterEach(async () => {
    if (world) await time?.until(world.stop());
    world = undefined;
    time?.restore();
    time = undefined;
  });

  it('waits out five 429s in a row (more than auto-retry ever tried) and arrives once', async () => {
    time = useVirtualTime();
    const clock = time;
    world = await clock.until(startWorld({ telegram: { now: () => Date.now() }, app: { storeWriteFile: clock.writeFile } }));
    const w = world;
    clock.watch(w.telegram);
    const budi = w.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const picker = await clock.until(
      w.telegram.waitForBotMessage(budi, { after: budi.send('/connect'), where: (m) => m.buttons.length > 0 }),
    );
    w.telegram.inject429({ chatId: budi.id, method: 'sendMessage', retryAfter: 2, times: 5 });
    budi.tap(picker, connectData.pack({ action: 'pick', service: 'marketplace' }));
    const asked = await clock.until(w.telegram.waitForBotMessage(budi, { after: picker, textIncludes: 'API key', timeoutMs: 60_000 }));
    expect(asked.text).toContain('API key');
    const refusals = w.telegram.calls.filter((call) => call.status === 429);
    expect(refusals).toHaveLength(5);
    // Each try came after the 2 s Telegram asked for.
    const tries = w.telegram.calls.filter((call) => call.method === 'sendMessage' && call.params.chat_id === budi.id).slice(-6);
    for (let i = 1; i < tries.length; i++) expect(tries[i]!.at - tries[i - 1]!.at).toBeGreaterThanOrEqual(2000);
    await clock.until(w.idle());
    expect(w.telegram.botMessages(budi).filter((m) => m.text?.includes('API key'))).toHaveLength(1);
  }, 60_000);
});
