import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.ts';
import { demoReseller, startWorld, testEncryptionKey } from './helpers/app.ts';
import { buyer, waitForResult, waitForSummary } from './helpers/buy.ts';
import { connectService } from './helpers/connect.ts';
import { marketplaceDemoAccounts } from '../tools/sandbox/marketplace.ts';

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

describe('the logs of a full run', () => {
  it('one debug line per update (type, chat, handler, ms), provider calls at info (endpoint, status, ms), and no secret at all', async () => {
    const world = await startWorld({
      sandbox: { reseller: { instant: true } },
      env: { ADMIN_IDS: '990001' },
      app: { floodLimit: { updates: 100, windowMs: 1000 } },
    });
    try {
      const boss = world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: 990001 });
      const budi = await buyer(world, 'Budi', { via: 'connect' });
      await connectService(world, budi, 'marketplace', { apiKey: marketplaceDemoAccounts.main.apiKey });
      await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
      await world.telegram.waitForBotMessage(budi, { after: budi.send('/akun') });
      const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
      budi.tap(summary, '✅ Konfirmasi');
      await waitForResult(world, budi, summary, 'Sukses');
      await world.telegram.waitForBotMessage(boss, { after: boss.send('/stats') });
      await world.idle();

      const records = world.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      const updates = records.filter((r) => r.msg === 'update');
      expect(updates.length).toBeGreaterThanOrEqual(8);
      for (const r of updates) {
        expect(r.level).toBe('debug');
        expect([typeof r.type, typeof r.handler, typeof r.durationMs]).toEqual(['string', 'string', 'number']);
      }
      expect(updates.map((r) => r.handler)).toEqual(
        expect.arrayContaining(['/saldo', '/stats', 'text', expect.stringMatching(/^callback:/)]),
      );
      expect(updates.find((r) => r.handler === '/saldo')).toMatchObject({ type: 'message', chatId: budi.id });
      const calls = records.filter((r) => r.msg === 'provider call');
      expect(calls.map((r) => [r.level, r.service, r.endpoint, r.status])).toEqual(
        expect.arrayContaining([
          ['info', 'reseller', '/cek-saldo', 200],
          ['info', 'reseller', '/transaction', 200],
          ['info', 'marketplace', expect.any(String), 200],
        ]),
      );
      for (const r of calls) expect(typeof r.durationMs).toBe('number');

      const signs = world.sandbox.received.flatMap((request) => {
        const body = request.body as { sign?: unknown } | undefined;
        return typeof body?.sign === 'string' ? [body.sign] : [];
      });
      expect(signs.length).toBeGreaterThan(0);
      const secrets = [
        ...signs,
        demoReseller.main.apiKey,
        marketplaceDemoAccounts.main.apiKey,
        world.config.botToken,
        world.config.botToken.slice(world.config.botToken.indexOf(':') + 1),
        testEncryptionKey,
        Buffer.from(testEncryptionKey, 'base64').toString('hex'),
      ];
      const all = world.logs.join('\n');
      for (const secret of secrets) expect(all).not.toContain(secret);
    } finally {
      await world.stop();
    }
  });
});
