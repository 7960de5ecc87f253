/**
 * The rate gate of one process (src/notify/rate-gate.ts) on fake timers, its clock the fake
 * Date: the turns it hands the bot's replies, the outbox's notices and a broadcast's copies keep
 * Telegram's limits (the overall ceiling, a chat's gap, a group's 20 a minute), go by priority
 * (reply, notice, copy) and wait out a pause.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { broadcastRates, createRateGate, rateDefaults, type Priority, type RateGate, type RateLimits } from '../../src/notify/rate-gate.ts';
import { mostInWindow } from './helpers.ts';

let origin = 0;
const now = () => Date.now() - origin;
const gateWith = (limits: RateLimits = {}) => createRateGate({ limits, mono: now });

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  origin = Date.now();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Sends `count` messages through `gate` as a lane would: each takes its turn, is "answered"
 * `latencyMs` later; returns when each started.
 */
function sendAll(gate: RateGate, messages: Array<{ chatId: number; priority: Priority }>, latencyMs = 5) {
  const starts: Array<{ at: number; chatId: number; priority: Priority }> = [];
  const done = messages.map(async ({ chatId, priority }) => {
    const turn = gate.take(chatId, priority);
    await turn.ready();
    starts.push({ at: now(), chatId, priority });
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    turn.end('delivered');
  });
  return { starts, done: Promise.all(done) };
}

describe('the overall ceiling', () => {
  it('120 replies asked for at once go at most 30 in any second, all of them, in the order they asked', async () => {
    const gate = gateWith();
    const sent = sendAll(
      gate,
      Array.from({ length: 120 }, (_, i) => ({ chatId: 1000 + i, priority: 'reply' as const })),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    await sent.done;
    expect(sent.starts).toHaveLength(120);
    expect(
      mostInWindow(
        sent.starts.map((s) => s.at),
        1000,
      ),
    ).toBeLessThanOrEqual(30);
    expect(sent.starts.map((s) => s.chatId)).toEqual(Array.from({ length: 120 }, (_, i) => 1000 + i));
    // Not slower than the ceiling allows: the 120th starts in the fourth second.
    expect(sent.starts.at(-1)!.at).toBeLessThan(4000);
  });

  it('notices keep to their own rate, spread evenly over the second, below the ceiling replies may use', async () => {
    const gate = gateWith({ globalPerSecond: 25, ceilingPerSecond: 30 });
    const sent = sendAll(
      gate,
      Array.from({ length: 50 }, (_, i) => ({ chatId: 2000 + i, priority: 'notice' as const })),
    );
    await vi.advanceTimersByTimeAsync(5000);
    await sent.done;
    const times = sent.starts.map((s) => s.at);
    expect(mostInWindow(times, 1000)).toBeLessThanOrEqual(25);
    // Spread: one start every 40 ms, not a burst of 25 then a pause.
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(39);
  });

  it('a turn without an answer (a network failure) frees its place but starts no gap; an unsent one gives its slot back at once', () => {
    const gate = gateWith({ globalPerSecond: 10, globalWindowMs: 1000, perChatMs: 1000 });
    const first = gate.take(7, 'notice');
    expect(gate.nextTurnAt('notice')).toBe(100);
    first.end('unsent');
    expect(gate.nextTurnAt('notice')).toBe(0);
    const second = gate.take(7, 'notice');
    second.end('unanswered');
    expect(gate.chatReadyAt(7, 'notice')).toBe(0);
  });
});

describe('priorities', () => {
  it('a waiting reply takes the next free turn before the notices and copies that wait with it', async () => {
    const gate = gateWith({ globalPerSecond: 5, ceilingPerSecond: 5, perChatMs: 0 });
    // Fill the window with five copies, then ask for a copy, a notice and a reply, in that order.
    const filled = sendAll(
      gate,
      Array.from({ length: 5 }, (_, i) => ({ chatId: 100 + i, priority: 'bulk' as const })),
    );
    await vi.advanceTimersByTimeAsync(900);
    expect(filled.starts).toHaveLength(5);
    const order: Priority[] = [];
    const waiting = (['bulk', 'notice', 'reply'] as const).map(async (priority, i) => {
      const turn = gate.take(200 + i, priority);
      await turn.ready();
      order.push(priority);
      turn.end('delivered');
    });
    await vi.advanceTimersByTimeAsync(3000);
    await Promise.all(waiting);
    expect(order).toEqual(['reply', 'notice', 'bulk']);
  });

  it('while a reply waits, a scheduler asking for a notice or a copy is told to look again later', async () => {
    const gate = gateWith({ globalPerSecond: 2, ceilingPerSecond: 2, globalWindowMs: 1000 });
    gate.take(1, 'notice');
    await vi.advanceTimersByTimeAsync(500);
    gate.take(2, 'notice');
    // Two in flight: only an answer frees a turn.
    expect(gate.nextTurnAt('notice')).toBe(Infinity);
    const reply = gate.take(3, 'reply');
    let replied = false;
    void reply.ready().then(() => (replied = true));
    expect(gate.nextTurnAt('notice')).toBeGreaterThan(now());
    expect(gate.nextTurnAt('bulk')).toBeGreaterThan(now());
    await vi.advanceTimersByTimeAsync(20);
    expect(replied).toBe(false);
  });

  it('a message refused with a 429 and asking again goes before those of its lane that came after it', async () => {
    const gate = gateWith({ globalPerSecond: 1, ceilingPerSecond: 1 });
    const first = gate.take(1, 'reply');
    const order: number[] = [];
    const later = [2, 3].map(async (chatId) => {
      const turn = gate.take(chatId, 'reply');
      await turn.ready();
      order.push(chatId);
      turn.end('answered');
    });
    first.end('answered');
    const again = gate.take(1, 'reply', { again: true });
    void again.ready().then(() => {
      order.push(1);
      again.end('answered');
    });
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(later);
    expect(order).toEqual([1, 2, 3]);
  });
});

describe("a chat's limits", () => {
  it('spaces notices to one chat from the answer to the previous one; replies are not held to it', async () => {
    const gate = gateWith({ perChatMs: 1000 });
    const notice = gate.take(7, 'notice');
    await vi.advanceTimersByTimeAsync(250);
    notice.end('delivered');
    expect(gate.chatReadyAt(7, 'notice')).toBe(1250);
    // Another chat is not held back, and a reply to the same chat goes at once.
    expect(gate.chatReadyAt(8, 'notice')).toBe(0);
    expect(gate.chatReadyAt(7, 'reply')).toBe(0);
    const replies = sendAll(
      gate,
      Array.from({ length: 3 }, () => ({ chatId: 7, priority: 'reply' as const })),
      1,
    );
    await vi.advanceTimersByTimeAsync(10);
    await replies.done;
    expect(replies.starts.map((s) => s.at)).toEqual([250, 250, 250]);
    // A notice asked for now waits for the chat's gap after the last answer.
    const next = gate.take(7, 'notice');
    let at = -1;
    void next.ready().then(() => (at = now()));
    await vi.advanceTimersByTimeAsync(2000);
    expect(at).toBeGreaterThanOrEqual(1251);
  });

  it('keeps a group to 20 messages a minute, and leaves private chats alone', async () => {
    const gate = gateWith({ perChatMs: 0 });
    const group = sendAll(
      gate,
      Array.from({ length: 25 }, () => ({ chatId: -100, priority: 'notice' as const })),
      1,
    );
    await vi.advanceTimersByTimeAsync(59_000);
    expect(group.starts).toHaveLength(20);
    await vi.advanceTimersByTimeAsync(5000);
    await group.done;
    expect(group.starts).toHaveLength(25);
    expect(group.starts[20]!.at - group.starts[0]!.at).toBeGreaterThanOrEqual(60_000);
    // 25 notices to one private chat are not held to a minute.
    const user = sendAll(
      gate,
      Array.from({ length: 25 }, () => ({ chatId: 5, priority: 'notice' as const })),
      1,
    );
    await vi.advanceTimersByTimeAsync(5000);
    await user.done;
    expect(user.starts.at(-1)!.at - user.starts[0]!.at).toBeLessThan(5000);
  });

  it('a 429 holds one chat for retry_after, the others go on', () => {
    const gate = gateWith();
    gate.hold(7, 5000);
    expect(gate.chatReadyAt(7, 'notice')).toBe(5000);
    expect(gate.chatReadyAt(8, 'notice')).toBe(0);
    expect(gate.nextTurnAt('notice')).toBe(0);
  });
});

describe('pauses', () => {
  it('a 429 pausing everyone holds every lane for retry_after, then the waiting turns go, replies first', async () => {
    const gate = gateWith();
    gate.pause(2000, 'reply');
    expect(gate.nextTurnAt('reply')).toBe(2000);
    expect(gate.nextTurnAt('notice')).toBe(2000);
    expect(gate.nextTurnAt('bulk')).toBe(2000);
    const started: Array<{ priority: Priority; at: number }> = [];
    const waiting = (['bulk', 'reply'] as const).map(async (priority, i) => {
      const turn = gate.take(10 + i, priority);
      await turn.ready();
      started.push({ priority, at: now() });
      turn.end('answered');
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(waiting);
    expect(started.map((s) => s.priority)).toEqual(['reply', 'bulk']);
    expect(started[0]!.at).toBe(2000);
  });

  it('a pause of a lower lane leaves the lanes above it alone', () => {
    const gate = gateWith();
    gate.pause(3000, 'bulk');
    expect(gate.nextTurnAt('bulk')).toBe(3000);
    expect(gate.nextTurnAt('notice')).toBe(0);
    gate.pause(1000, 'notice');
    expect(gate.nextTurnAt('notice')).toBe(1000);
    // The later time wins.
    expect(gate.nextTurnAt('bulk')).toBe(3000);
    expect(gate.nextTurnAt('reply')).toBe(0);
  });
});

describe('paid broadcast copies', () => {
  it('do not count against the overall rate, but keep the chat gap', () => {
    const gate = gateWith({ globalPerSecond: 2, perChatMs: 1000 });
    for (let i = 0; i < 10; i++) gate.take(100 + i, 'bulk', { paid: true }).end('delivered');
    expect(gate.nextTurnAt('notice')).toBe(0);
    expect(gate.nextTurnAt('bulk', { paid: true })).toBe(0);
    expect(gate.chatReadyAt(100, 'bulk')).toBe(1000);
  });
});

describe("the broadcast's own rate (BROADCAST_RATE)", () => {
  it("is the bulk lane's rate; a free pace above the default overall rate gets that room, a paid one needs none", () => {
    expect(broadcastRates({ rate: 10, paid: false })).toEqual({ bulkPerSecond: 10, globalPerSecond: rateDefaults.globalPerSecond });
    expect(broadcastRates({ rate: 30, paid: false })).toEqual({ bulkPerSecond: 30, globalPerSecond: 30 });
    expect(broadcastRates({ rate: 500, paid: true })).toEqual({ bulkPerSecond: 500 });
  });

  it('holds copies, paid ones too, to bulkPerSecond per bulkWindowMs; a copy not sent gives its place back; notices are not held', () => {
    const gate = gateWith({ globalPerSecond: 1000, ceilingPerSecond: 1000, bulkPerSecond: 3, bulkWindowMs: 1000 });
    for (let i = 0; i < 2; i++) gate.take(100 + i, 'bulk', { paid: true }).end('delivered');
    const blocked = gate.take(102, 'bulk', { paid: true });
    expect(gate.nextTurnAt('bulk', { paid: true })).toBe(1000);
    expect(gate.nextTurnAt('bulk')).toBe(1000);
    expect(gate.nextTurnAt('notice')).toBeLessThanOrEqual(now());
    blocked.end('unsent');
    expect(gate.nextTurnAt('bulk', { paid: true })).toBe(0);
    gate.take(103, 'bulk', { paid: true }).end('delivered');
    vi.advanceTimersByTime(1000);
    expect(gate.nextTurnAt('bulk', { paid: true })).toBe(0);
  });
});

describe('a turn given up', () => {
  it('an aborted wait leaves the line and the turns behind it move up', async () => {
    const gate = gateWith({ globalPerSecond: 1, ceilingPerSecond: 1 });
    const first = gate.take(1, 'reply');
    const controller = new AbortController();
    const abandoned = gate.take(2, 'reply').ready(controller.signal);
    const kept = gate.take(3, 'reply');
    let readyAt = -1;
    void kept.ready().then(() => (readyAt = now()));
    controller.abort();
    await expect(abandoned).rejects.toThrow(/aborted/);
    first.end('answered');
    // The first answer leaves the window after a second: the turn goes to the one still waiting.
    await vi.advanceTimersByTimeAsync(1500);
    expect(readyAt).toBe(1000);
  });
});
