/**
 * The fleet gate (src/notify/fleet-gate.ts) over in-process send slots and a virtual clock: the
 * messages of a burst leave at most 90% of the configured rate in any second, a reply is not
 * held to a chat's 1 s gap while a notice is, and a message that wakes a slot late takes another
 * slot instead of crowding the next second.
 */
import { describe, expect, it } from 'vitest';
import { createFleetGate, slotShare } from '../../src/notify/fleet-gate.ts';
import { createRateGate, type Priority, type RateGate } from '../../src/notify/rate-gate.ts';
import { createLocalSendSlots } from '../../src/store/send-slots.ts';
import { mostInWindow } from './helpers.ts';

const limits = { perSecond: 25, perChatMs: 1000, perGroupPerMinute: 20 };

/** A clock that only moves when a sleeper sleeps; `lateBy` makes every wake-up that much late. */
function virtualTime(lateBy = 0) {
  let t = 1_000_000;
  return {
    now: () => new Date(t),
    sleep: (ms: number) => {
      t += ms + lateBy;
      return Promise.resolve();
    },
    at: () => t,
  };
}

/** Takes a turn of `gate` and ends it at once, as a message answered in no time would. */
async function wait(gate: RateGate, chatId: number, priority: Priority): Promise<void> {
  const turn = gate.take(chatId, priority);
  await turn.ready();
  turn.end('delivered');
}

/** The process's own book, on the virtual clock, with room for everything the fleet hands out. */
const localOf = (time: { at: () => number }) =>
  createRateGate({ limits: { ceilingPerSecond: 1000, globalPerSecond: 1000, perChatMs: 0 }, mono: time.at });

describe('the fleet gate', () => {
  it('a burst of 100 replies to 100 chats leaves at most 90% of the rate in any second', async () => {
    const time = virtualTime();
    const gate = createFleetGate({ local: localOf(time), slots: createLocalSendSlots(), limits, now: time.now, sleep: time.sleep });
    const sent: number[] = [];
    for (let chat = 1; chat <= 100; chat++) {
      await wait(gate, chat, 'reply');
      sent.push(time.at());
    }
    expect(mostInWindow(sent, 1000)).toBe(Math.floor(limits.perSecond * slotShare));
  });

  it('replies to one chat are not held to its 1 s gap; notices are', async () => {
    const time = virtualTime();
    const gate = createFleetGate({ local: localOf(time), slots: createLocalSendSlots(), limits, now: time.now, sleep: time.sleep });
    const replies: number[] = [];
    for (let i = 0; i < 5; i++) {
      await wait(gate, 7, 'reply');
      replies.push(time.at());
    }
    expect(replies.at(-1)! - replies[0]!).toBeLessThan(1000);
    const notices: number[] = [];
    for (let i = 0; i < 3; i++) {
      await wait(gate, 8, 'notice');
      notices.push(time.at());
    }
    expect(notices[1]! - notices[0]!).toBeGreaterThanOrEqual(1000);
    expect(notices[2]! - notices[1]!).toBeGreaterThanOrEqual(1000);
  });

  it("replies to a group are held to the ceiling only, as in one process: not to the group's 3 s gap; notices to it are", async () => {
    const time = virtualTime();
    const gate = createFleetGate({ local: localOf(time), slots: createLocalSendSlots(), limits, now: time.now, sleep: time.sleep });
    const group = -100_123;
    const replies: number[] = [];
    for (let i = 0; i < 5; i++) {
      await wait(gate, group, 'reply');
      replies.push(time.at());
    }
    expect(replies.at(-1)! - replies[0]!).toBeLessThan(1000);
    const notices: number[] = [];
    for (let i = 0; i < 2; i++) {
      await wait(gate, group - 1, 'notice');
      notices.push(time.at());
    }
    expect(notices[1]! - notices[0]!).toBeGreaterThanOrEqual(60_000 / limits.perGroupPerMinute);
  });

  it('a message that wakes more than a slot late takes another slot (a few times at most)', async () => {
    const reserved: number[] = [];
    const slots = createLocalSendSlots();
    const counting = {
      reserve: async (...args: Parameters<typeof slots.reserve>) => {
        const at = await slots.reserve(...args);
        reserved.push(at);
        return at;
      },
    };
    // Every wake-up 200 ms late: 4 slots' worth at 22 a second.
    const time = virtualTime(200);
    const gate = createFleetGate({ local: localOf(time), slots: counting, limits, now: time.now, sleep: time.sleep });
    reserved.length = 0;
    await wait(gate, 1, 'reply');
    await wait(gate, 2, 'reply');
    // The first reservation of each is due at once (no sleep), so on time; the second waits a slot and wakes late.
    expect(reserved).toHaveLength(1 + 4);
  });
});
