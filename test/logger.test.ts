import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';

function capture(options: Parameters<typeof createLogger>[0] = {}) {
  const lines: string[] = [];
  const logger = createLogger({ ...options, write: (line) => lines.push(line) });
  return { logger, lines };
}

describe('logger', () => {
  it('writes one JSON object per line with level, message and fields', () => {
    const { logger, lines } = capture();
    logger.child({ userId: 5 }).info('balance shown', { balance: 1000 });
    const record: unknown = JSON.parse(lines[0]!);
    expect(record).toMatchObject({ level: 'info', msg: 'balance shown', userId: 5, balance: 1000 });
  });

  it('drops lines below the level', () => {
    const { logger, lines } = capture({ level: 'warn' });
    logger.info('hidden');
    logger.warn('shown');
    expect(lines).toHaveLength(1);
  });

  it('masks secret fields, registered secret values and bot tokens in URLs', () => {
    const { logger, lines } = capture({ secrets: ['123456:ABCDEFsecrettoken'] });
    logger.addSecret('user-api-key-9999');
    logger.error('request failed', {
      apiKey: 'x1',
      body: { sign: 'abc', api_key: 'k', pin: '1234', nested: { token: 't' } },
      url: 'https://api.telegram.org/bot123456:ABCDEFsecrettoken/sendMessage',
      error: new Error('provider said user-api-key-9999 is wrong'),
    });
    const line = lines[0]!;
    for (const secret of ['x1"', '"abc"', '"1234"', '"k"', 'ABCDEFsecrettoken', 'user-api-key-9999']) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('[redacted]');
  });

  it('masks the secret part of a registered bot token on its own (e.g. in a URL-encoded or split text)', () => {
    const { logger, lines } = capture({ secrets: ['123456789:AAEsecretpartofthetoken_x'] });
    logger.warn('odd text', { detail: 'token part AAEsecretpartofthetoken_x and 123456789%3AAAEsecretpartofthetoken_x' });
    expect(lines[0]).not.toContain('AAEsecretpartofthetoken_x');
    expect(lines[0]).toContain('[redacted]');
  });
});
