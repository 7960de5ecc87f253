/** The outbox's bulk lane on its own, with an injected monotonic clock: Telegram's answers and what they mean for a broadcast. */
import { dbOf } from '../store/helpers.ts';
import { Api, GrammyError } from 'grammy';
import { describe, expect, it } from 'vitest';
import { createBulkLane, type BulkDelivery, type BulkOutcome, type BulkSource } from '../../src/notify/bulk.ts';
import { createRateGate } from '../../src/notify/rate-gate.ts';
import { createOutcomeRecorder } from '../../src/notify/recording.ts';
import { createLogger } from '../../src/logger.ts';
import type { Store } from '../../src/store/store.ts';

const telegramError = (code: number, description: string, retryAfter?: number) =>
  new GrammyError(
    `Call to 'copyMessage' failed! (${code}: ${description})`,
    { ok: false, error_code: code, description, parameters: retryAfter === undefined ? {} : { retry_after: retryAfter } },
    'copyMessage',
    {},
  );

function lane(answers: Array<Error | undefined>) {
  let t = 0;
  const sending = new Map<string, Promise<void>>();
  const inactive: number[] = [];
  const store = {
    users: {
      get: (id: number) => ({ id, active: !inactive.includes(id) }),
      setActive: (id: number) => {
        inactive.push(id);
        return Promise.resolve(undefined);
      },
    },
  } as unknown as Store;
  const outcomes: BulkOutcome[] = [];
  let retries = 0;
  let takes = 0;
  const delivery: BulkDelivery = {
    chatId: 42,
    send: () => {
      const answer = answers.shift();
      return answer ? Promise.reject(answer) : Promise.resolve({ message_id: 1 });
    },
    settle: (outcome) => {
      outcomes.push(outcome);
      return Promise.resolve();
    },
    retry: () => {
      retries += 1;
    },
  };
  let pending = true;
  const source: BulkSource = {
    paid: false,
    take: () => {
      takes += 1;
      if (!pending) return undefined;
      pending = false;
      return delivery;
    },
  };
  const log = createLogger({ level: 'error', write: () => undefined });
  const bulk = createBulkLane({
    api: new Api('1:x'),
    db: dbOf(store),
    log,
    gate: createRateGate({ limits: { perChatMs: 10, globalPerSecond: 10, globalWindowMs: 100 }, mono: () => t }),
    sending,
    busyChats: new Set(),
    maxUnrecorded: 8,
    recorder: createOutcomeRecorder({ log, baseMs: 20, maxMs: 100, onRecovered: () => undefined }),
    requestTimeoutMs: 1000,
    retryBaseMs: 20,
    wake: () => undefined,
  });
  bulk.setSource(source);
  return {
    bulk,
    setTime: (value: number) => (t = value),
    settled: () => Promise.all([...sending.values()]),
    requeue: () => (pending = true),
    get outcomes() {
      return outcomes;
    },
    get retries() {
      return retries;
    },
    get takes() {
      return takes;
    },
    inactive,
  };
}

describe('bulk lane', () => {
  it("waits out a 429's retry_after for the whole broadcast, then sends the same message once", async () => {
    const l = lane([telegramError(429, 'Too Many Requests: retry after 2', 2)]);
    l.bulk.fill(0);
    await l.settled();
    expect(l.retries).toBe(1);
    expect(l.outcomes).toEqual([]);
    l.requeue();
    const takes = l.takes;
    l.setTime(1500);
    expect(l.bulk.fill(1500)).toBe(2000);
    expect(l.takes, 'nothing is handed out during the wait').toBe(takes);
    l.setTime(2001);
    l.bulk.fill(2001);
    await l.settled();
    expect(l.outcomes).toEqual(['sent']);
  });

  it('a 403 marks the user inactive and counts them as blocked; another 400 counts as failed', async () => {
    const blocked = lane([telegramError(403, 'Forbidden: bot was blocked by the user')]);
    blocked.bulk.fill(0);
    await blocked.settled();
    expect(blocked.outcomes).toEqual(['blocked']);
    expect(blocked.inactive).toEqual([42]);

    const refused = lane([telegramError(400, 'Bad Request: message to copy not found')]);
    refused.bulk.fill(0);
    await refused.settled();
    expect(refused.outcomes).toEqual(['failed']);
    expect(refused.retries).toBe(0);
  });
});
