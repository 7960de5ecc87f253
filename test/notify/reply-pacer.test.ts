/**
 * The reply pacer (src/notify/reply-pacer.ts) on the process's rate gate, with fake timers and a
 * fake Telegram behind it (a `prev` that answers as Telegram would): replies past the ceiling wait
 * their turn however long the queue, first come first served, and a 429 is waited out and sent
 * again - more often than auto-retry's attempts, each try taking a turn again. Also the pacer on a
 * fleet's gate over the in-process send slots.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Transformer } from 'grammy';
import type { ApiResponse } from 'grammy/types';
import { createReplyPacer } from '../../src/notify/reply-pacer.ts';
import { createRateGate, type RateLimits } from '../../src/notify/rate-gate.ts';
import { createFleetGate } from '../../src/notify/fleet-gate.ts';
import { createLocalSendSlots } from '../../src/store/send-slots.ts';
import { mostInWindow } from './helpers.ts';

type Prev = Parameters<Transformer>[0];
type Answer = ApiResponse<unknown>;

/** A Telegram that answers after `latencyMs`, recording when each message arrived; `answer` may refuse one. */
function fakeTelegram(latencyMs: number, answer: (call: number, chatId: number) => Answer = () => ({ ok: true, result: true })) {
  const arrivals: Array<{ at: number; chatId: number; status: number }> = [];
  const prev = (async (_method: string, payload: { chat_id: number }) => {
    const response = answer(arrivals.length, payload.chat_id);
    arrivals.push({ at: Date.now(), chatId: payload.chat_id, status: response.ok ? 200 : response.error_code });
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    return response;
  }) as unknown as Prev;
  return { prev, arrivals };
}

const tooMany = (retryAfter: number): Answer => ({
  ok: false,
  error_code: 429,
  description: `Too Many Requests: retry after ${retryAfter}`,
  parameters: { retry_after: retryAfter },
});

const send = (pacer: Transformer, prev: Prev, chatId: number) =>
  pacer(prev, 'sendMessage', { chat_id: chatId, text: 'halo' }, undefined) as Promise<Answer>;

/** The process's gate on the fake clock. */
const gateWith = (limits: RateLimits = {}) => createRateGate({ limits, mono: () => Date.now() });

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the reply pacer (one process)', () => {
  it('sends 100 replies asked for at once at the ceiling, all of them, in the order they were asked', async () => {
    const pacer = createReplyPacer(gateWith({ globalPerSecond: 25, ceilingPerSecond: 30 }));
    const telegram = fakeTelegram(40);
    const started = Date.now();
    const answers = Array.from({ length: 100 }, (_, i) => send(pacer, telegram.prev, 1000 + i));
    await vi.advanceTimersByTimeAsync(10_000);
    const results = await Promise.all(answers);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(
      mostInWindow(
        telegram.arrivals.map((a) => a.at),
        1000,
      ),
    ).toBeLessThanOrEqual(30);
    // First come, first served.
    expect(telegram.arrivals.map((a) => a.chatId)).toEqual(Array.from({ length: 100 }, (_, i) => 1000 + i));
    // Not slower than the ceiling allows: the 100th leaves in the fourth second.
    expect(telegram.arrivals.at(-1)!.at - started).toBeLessThan(4000);
  });

  it('waits out a 429 as many times as Telegram asks, sending again each time after retry_after', async () => {
    const pacer = createReplyPacer(gateWith());
    // Five refusals in a row: more than auto-retry's three attempts in the bot.
    const telegram = fakeTelegram(10, (call) => (call < 5 ? tooMany(2) : { ok: true, result: true }));
    const answer = send(pacer, telegram.prev, 7);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await answer).toMatchObject({ ok: true });
    const times = telegram.arrivals.map((a) => a.at);
    expect(telegram.arrivals.map((a) => a.status)).toEqual([429, 429, 429, 429, 429, 200]);
    // Each try came retry_after (2 s) after the refusal, not earlier.
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(2000);
  });

  it('a refused reply goes before those that came after it', async () => {
    const pacer = createReplyPacer(gateWith({ globalPerSecond: 5, ceilingPerSecond: 5 }));
    const telegram = fakeTelegram(10, (call) => (call === 0 ? tooMany(1) : { ok: true, result: true }));
    const answers = Array.from({ length: 20 }, (_, i) => send(pacer, telegram.prev, 100 + i));
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(answers);
    const delivered = telegram.arrivals.filter((a) => a.status === 200).map((a) => a.chatId);
    // Chat 100 was refused first; once its second try could go, it went before the later replies still waiting.
    expect(delivered.indexOf(100)).toBeLessThan(delivered.indexOf(110));
    expect(new Set(delivered).size).toBe(20);
  });

  it('leaves other methods unpaced (answering a button does not wait for a slot), but waits out their 429 too', async () => {
    const pacer = createReplyPacer(gateWith({ globalPerSecond: 1, ceilingPerSecond: 1 }));
    const telegram = fakeTelegram(5, (call) => (call === 1 ? tooMany(1) : { ok: true, result: true }));
    await Promise.all([send(pacer, telegram.prev, 1), vi.advanceTimersByTimeAsync(10)]);
    const answered = pacer(telegram.prev, 'answerCallbackQuery', { callback_query_id: 'q' }, undefined) as Promise<Answer>;
    await vi.advanceTimersByTimeAsync(1100);
    expect(await answered).toMatchObject({ ok: true });
    expect(telegram.arrivals.map((a) => a.status)).toEqual([200, 429, 200]);
  });
});

describe('the reply pacer on a fleet', () => {
  it('waits out a 429 and takes a new slot of the fleet for the next try', async () => {
    const reserved: number[] = [];
    const slots = createLocalSendSlots();
    const gate = createFleetGate({
      local: gateWith(),
      slots: { reserve: (...args: Parameters<typeof slots.reserve>) => slots.reserve(...args).then((at) => (reserved.push(at), at)) },
      limits: { perSecond: 25, perChatMs: 1000, perGroupPerMinute: 20 },
      now: () => new Date(),
    });
    const pacer = createReplyPacer(gate);
    const telegram = fakeTelegram(10, (call) => (call < 4 ? tooMany(1) : { ok: true, result: true }));
    const answer = send(pacer, telegram.prev, 7);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await answer).toMatchObject({ ok: true });
    expect(telegram.arrivals.map((a) => a.status)).toEqual([429, 429, 429, 429, 200]);
    expect(reserved).toHaveLength(5);
  });
});
