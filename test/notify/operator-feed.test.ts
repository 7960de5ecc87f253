import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOperatorFeed, type Burst } from '../../src/notify/operator-feed.ts';
import { createLogger } from '../../src/logger.ts';
import type { NewOutboxItem } from '../../src/store/records/outbox.ts';

function setup() {
  const queued: NewOutboxItem[] = [];
  const feed = createOperatorFeed({
    enqueue: (items) => {
      queued.push(...items);
      return Promise.resolve();
    },
    logger: createLogger({ write: () => undefined }),
    windowMs: 5 * 60_000,
  });
  const line = (text: string) => (burst?: Burst) => [
    { chatId: -100, kind: 'operator', payload: { text: burst ? `${text} ×${burst.count} in ${burst.minutes} min` : text } },
  ];
  const texts = () => queued.map((item) => (item.payload as { text: string }).text);
  return { feed, line, texts };
}

describe('operator feed', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a burst of the same error is one message at once and one count when the window ends', async () => {
    const { feed, line, texts } = setup();
    for (let i = 0; i < 12; i++) {
      feed.report('bot-error:boom', line(`boom ${i}`));
      await vi.advanceTimersByTimeAsync(10_000);
    }
    expect(texts()).toEqual(['boom 0']);
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 120_000);
    expect(texts()).toEqual(['boom 0', 'boom 11 ×11 in 5 min']);
    // Still going: one more line per window; a quiet window ends the burst.
    feed.report('bot-error:boom', line('boom 12'));
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(texts()).toEqual(['boom 0', 'boom 11 ×11 in 5 min', 'boom 12 ×1 in 5 min']);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    feed.report('bot-error:boom', line('boom again'));
    expect(texts().at(-1)).toBe('boom again');
    expect(texts()).toHaveLength(4);
  });

  it('different errors are not grouped together, and close() sends what was counted', async () => {
    const { feed, line, texts } = setup();
    feed.report('a', line('a'));
    feed.report('b', line('b'));
    feed.report('a', line('a2'));
    feed.report('a', line('a3'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(texts()).toEqual(['a', 'b']);
    await feed.close();
    expect(texts()).toEqual(['a', 'b', 'a3 ×2 in 5 min']);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(texts()).toHaveLength(3);
  });
});
