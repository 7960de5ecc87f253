import { describe, expect, it } from 'vitest';
import { createPacing } from '../../src/notify/pacing.ts';

const notBusy = () => false;

describe('outbox pacing', () => {
  it('spaces messages to one chat from the answer to the previous one', () => {
    const pacing = createPacing({ perChatMs: 1000 });
    expect(pacing.chatReadyAt(7, 0)).toBe(0);
    pacing.requestStarted(0);
    pacing.requestEnded(7, true, 250);
    expect(pacing.chatReadyAt(7, 300)).toBe(1250);
    // Another chat is not held back.
    expect(pacing.chatReadyAt(8, 300)).toBe(0);
    pacing.prune(1250, notBusy);
    expect(pacing.chatReadyAt(7, 1250)).toBe(0);
  });

  it('a request without an answer frees its global slot but starts no gap', () => {
    const pacing = createPacing({ perChatMs: 1000, globalPerSecond: 1 });
    pacing.requestStarted(0);
    expect(pacing.globalFreeAt(0)).toBe(Infinity);
    pacing.requestEnded(7, false, 100);
    expect(pacing.globalFreeAt(100)).toBe(0);
    expect(pacing.chatReadyAt(7, 100)).toBe(0);
  });

  it('counts requests in flight and answers against the global window', () => {
    const pacing = createPacing({ globalPerSecond: 2, globalWindowMs: 1000, perChatMs: 0 });
    pacing.requestStarted(0);
    pacing.requestEnded(1, true, 100);
    pacing.requestStarted(0);
    // One answer in the window and one request in flight: full until the answer leaves the window.
    expect(pacing.globalFreeAt(200)).toBe(1100);
    pacing.requestEnded(2, true, 300);
    expect(pacing.globalFreeAt(400)).toBe(1100);
    expect(pacing.globalFreeAt(1100)).toBe(0);
  });

  it('limits messages per group per window, and leaves private chats alone', () => {
    const pacing = createPacing({ perGroupPerMinute: 2, groupWindowMs: 60_000, perChatMs: 0 });
    pacing.delivered(-100, 1000);
    expect(pacing.chatReadyAt(-100, 1500)).toBe(0);
    pacing.delivered(-100, 2000);
    expect(pacing.chatReadyAt(-100, 2500)).toBe(61_000);
    pacing.prune(61_000, notBusy);
    expect(pacing.chatReadyAt(-100, 61_000)).toBe(0);
    pacing.delivered(5, 1000);
    pacing.delivered(5, 1001);
    pacing.delivered(5, 1002);
    expect(pacing.chatReadyAt(5, 1003)).toBe(0);
  });

  it('a 429 wait holds one chat, a pause holds every chat, the later time wins', () => {
    const pacing = createPacing({ perChatMs: 1000 });
    pacing.holdChat(7, 5000);
    pacing.requestStarted(0);
    pacing.requestEnded(7, true, 100);
    expect(pacing.chatReadyAt(7, 200)).toBe(5000);
    pacing.pauseAll(3000);
    pacing.pauseAll(2000);
    expect(pacing.chatReadyAt(8, 200)).toBe(3000);
    expect(pacing.chatReadyAt(7, 200)).toBe(5000);
  });

  it('keeps the wait of a busy chat when pruning', () => {
    const pacing = createPacing({ perChatMs: 1000 });
    pacing.holdChat(7, 500);
    pacing.prune(600, (chatId) => chatId === 7);
    // Still recorded (and already past): the chat is ready, nothing was lost.
    expect(pacing.chatReadyAt(7, 600)).toBe(500);
    pacing.prune(600, notBusy);
    expect(pacing.chatReadyAt(7, 600)).toBe(0);
  });
});

describe('the outbox and the replies in one window', () => {
  it('spreads the outbox over the window at its whole configured rate, and makes up a late timer', () => {
    const pacing = createPacing({ globalPerSecond: 30, ceilingPerSecond: 30 });
    // 30 per second for the outbox: one start every 1000/30 ms.
    const spacing = 1000 / 30;
    expect(pacing.outboxFreeAt(0)).toBe(0);
    pacing.requestStarted(0);
    expect(pacing.outboxFreeAt(1)).toBeCloseTo(spacing);
    // Started 5 ms late: the next slot is still on the schedule, not 5 ms later.
    pacing.requestStarted(spacing + 5);
    expect(pacing.outboxFreeAt(spacing + 6)).toBeCloseTo(2 * spacing);
    for (let i = 2; i < 30; i++) pacing.requestStarted(i * spacing);
    // 30 in flight: the window is full, for the outbox and for a reply alike.
    expect(pacing.outboxFreeAt(30 * spacing)).toBe(Infinity);
    expect(pacing.replyFreeAt(30 * spacing)).toBe(Infinity);
  });

  it('gives the first slot that frees to a waiting reply, not to the outbox', () => {
    const pacing = createPacing({ globalPerSecond: 30, ceilingPerSecond: 30 });
    const spacing = 1000 / 30;
    for (let i = 0; i < 30; i++) {
      pacing.requestStarted(i * spacing);
      pacing.requestEnded(100 + i, true, i * spacing + 2);
    }
    const t = 30 * spacing;
    // The window is full until the first answer (at 2 ms) leaves it.
    expect(pacing.replyFreeAt(t)).toBe(1002);
    pacing.replyWaiting(1);
    expect(pacing.outboxFreeAt(1002)).toBeGreaterThan(1002);
    expect(pacing.replyFreeAt(1002)).toBe(0);
    pacing.replyWaiting(-1);
    pacing.replyStarted();
    // The reply took the slot: the outbox waits for the next one.
    expect(pacing.outboxFreeAt(1002)).toBeGreaterThan(1002);
  });

  it('gives back the slot of a delivery that was never sent (a recipient who blocked the bot)', () => {
    const pacing = createPacing({ globalPerSecond: 10 });
    pacing.requestStarted(0);
    expect(pacing.outboxFreeAt(1)).toBe(100);
    pacing.requestCancelled();
    expect(pacing.outboxFreeAt(1)).toBe(0);
    // And nothing of it stays in the window.
    for (let i = 0; i < 10; i++) pacing.requestStarted(i * 100);
    expect(pacing.outboxFreeAt(1000)).toBe(Infinity);
  });

  it('starts nothing of the outbox while a reply waits for a slot', () => {
    const pacing = createPacing({ globalPerSecond: 25 });
    expect(pacing.outboxFreeAt(100)).toBe(0);
    pacing.replyWaiting(1);
    expect(pacing.outboxFreeAt(100)).toBeGreaterThan(100);
    pacing.replyWaiting(-1);
    expect(pacing.outboxFreeAt(100)).toBe(0);
  });
});

describe('replies alone', () => {
  it('are held to the ceiling too: past it Telegram would refuse them', () => {
    const pacing = createPacing({ globalPerSecond: 25, ceilingPerSecond: 30 });
    for (let i = 0; i < 30; i++) {
      expect(pacing.replyFreeAt(i)).toBe(0);
      pacing.replyStarted();
      pacing.replyEnded(1000 + i, true, i + 1);
    }
    // The 31st waits until the first answer (at 1 ms) leaves the window.
    expect(pacing.replyFreeAt(31)).toBe(1001);
    expect(pacing.replyFreeAt(1001)).toBe(0);
  });
});
