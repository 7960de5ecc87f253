/**
 * Start-up's first call to Telegram (src/telegram-start.ts), with a fake `init` and fake timers:
 * each failure is logged with the API root and what to check, retries back off (doubling, at
 * most 60 s), a rejected token stops, and success ends the loop.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GrammyError } from 'grammy';
import { createLogger } from '../src/logger.ts';
import { BotTokenRejectedError, initBotWithRetry, retryDelay } from '../src/telegram-start.ts';

afterEach(() => {
  vi.useRealTimers();
});

function logs() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level: 'debug', write: (line) => lines.push(line) }) };
}

describe('start-up connection to Telegram', () => {
  it('backs off: 2, 4, 8 … s, never more than 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, 2000))).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
  });

  it('logs every failed attempt with the API root and what to check, and retries until Telegram answers', async () => {
    vi.useFakeTimers();
    const { lines, logger } = logs();
    let calls = 0;
    const bot = {
      init: () => {
        calls++;
        return calls < 4
          ? Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }))
          : Promise.resolve();
      },
    };
    const done = initBotWithRetry(bot, { apiRoot: 'http://127.0.0.1:9', timeoutMs: 8000, retryMs: 2000, logger });
    await vi.advanceTimersByTimeAsync(2000 + 4000 + 8000);
    await done;
    expect(calls).toBe(4);
    const failures = lines.filter((line) => line.includes('cannot reach the Telegram Bot API'));
    expect(failures).toHaveLength(3);
    expect(failures[0]).toContain('http://127.0.0.1:9');
    expect(failures[0]).toContain('ECONNREFUSED');
    expect(failures[0]).toMatch(/TELEGRAM_API_ROOT.*network.*BOT_TOKEN/);
    expect(failures.map((line) => /retrying in (\d+) s/.exec(line)?.[1])).toEqual(['2', '4', '8']);
    expect(lines.at(-1)).toContain('reached the Telegram Bot API');
  });

  it('a token Telegram rejects (401) stops at once, naming BOT_TOKEN', async () => {
    const { lines, logger } = logs();
    const bot = {
      init: () =>
        Promise.reject(new GrammyError('Call to getMe failed!', { ok: false, error_code: 401, description: 'Unauthorized' }, 'getMe', {})),
    };
    await expect(initBotWithRetry(bot, { apiRoot: 'https://api.telegram.org', timeoutMs: 8000, retryMs: 2000, logger })).rejects.toThrow(
      BotTokenRejectedError,
    );
    expect(lines).toEqual([]);
  });
});
