import { describe, expect, it } from 'vitest';
import { ConfigError, createConfig, createKeyConfig, createMigrateConfig } from '../src/config.ts';
import { stringContaining } from './helpers/matchers.ts';

const goodKeyBase64 = Buffer.alloc(32, 7).toString('base64');
const goodEnv = {
  BOT_TOKEN: '123456789:AAEabcdefghijklmnopqrstuvwxyz012345',
  RESELLER_API_URL: 'http://127.0.0.1:8787/reseller/api/v1/',
  MARKETPLACE_API_URL: 'http://127.0.0.1:8787/marketplace',
  GAMESHOP_API_URL: 'http://127.0.0.1:8787/gameshop/api',
  ENCRYPTION_KEY: goodKeyBase64,
};

function problemsOf(env: Record<string, string | undefined>): ConfigError {
  try {
    createConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected createConfig to throw');
}

describe('ENCRYPTION_KEY_PREVIOUS (key rotation)', () => {
  it('takes one or more old keys, comma separated, in any key form; none by default', () => {
    expect(createConfig(goodEnv).previousKeys).toEqual([]);
    const old = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const config = createConfig({ ...goodEnv, ENCRYPTION_KEY_PREVIOUS: ` ${old[0]?.toString('hex')} , ${old[1]?.toString('base64')} ` });
    expect(config.previousKeys).toEqual(old);
  });

  it('names a bad old key (and which one) without quoting it', () => {
    const bad = 'Zm9vYmFyLW5vdC1hLWtleS1zZWNyZXQ=';
    const error = problemsOf({ ...goodEnv, ENCRYPTION_KEY_PREVIOUS: `${Buffer.alloc(32, 1).toString('hex')},${bad}` });
    expect(error.problems).toEqual([{ variable: 'ENCRYPTION_KEY_PREVIOUS', problem: expect.stringContaining('key #2') as string }]);
    expect(error.message).not.toContain(bad);
  });

  it('the key tools read only the keys and DATA_DIR, with the same messages', () => {
    const keys = createKeyConfig({ ENCRYPTION_KEY: goodKeyBase64, DATA_DIR: '/srv/kiosbot' });
    expect(keys).toEqual({ encryptionKey: Buffer.alloc(32, 7), previousKeys: [], dataDir: '/srv/kiosbot', backupDir: './backups' });
    expect(() => createKeyConfig({})).toThrow(/ENCRYPTION_KEY/);
  });
});

describe('claims', () => {
  it('one section with one lease for every claim: two minutes by default, CLAIM_LEASE_SECONDS otherwise, 5-3600 s', () => {
    expect(createConfig(goodEnv).claims).toEqual({ leaseMs: 120_000 });
    expect(createConfig({ ...goodEnv, CLAIM_LEASE_SECONDS: '30' }).claims).toEqual({ leaseMs: 30_000 });
    expect(problemsOf({ ...goodEnv, CLAIM_LEASE_SECONDS: '4' }).problems.map((p) => p.variable)).toEqual(['CLAIM_LEASE_SECONDS']);
  });
});

describe('createConfig', () => {
  it('parses a minimal good environment with defaults', () => {
    const config = createConfig(goodEnv);
    expect(config.telegramApiRoot).toBe('https://api.telegram.org');
    expect(config.providers.resellerUrl).toBe('http://127.0.0.1:8787/reseller/api/v1');
    expect(config.providers.timeoutMs).toBe(15000);
    expect(config.encryptionKey.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(config.dataDir).toBe('./data');
    expect(config.adminIds).toEqual([]);
    expect(config.defaultLocale).toBe('id');
    expect(config.port).toBe(3000);
    expect(config.pendingHorizonMs).toBe(24 * 3600_000);
    expect(config.priceWatchMs).toBe(10 * 60_000);
    expect(config.webhook).toBeUndefined();
  });

  it('parses every optional variable', () => {
    const config = createConfig({
      ...goodEnv,
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('hex'),
      TELEGRAM_API_ROOT: 'http://127.0.0.1:8081',
      ADMIN_IDS: ' 111, 222 ',
      ADMIN_CHAT_ID: '-1001234567890',
      PUBLIC_IP: '203.0.113.7',
      WEBHOOK_URL: 'https://bot.example.com/telegram',
      WEBHOOK_SECRET: 'a-long-enough-secret_123',
      PORT: '8443',
      LOG_LEVEL: 'debug',
      DEFAULT_LOCALE: 'en',
      PROVIDER_TIMEOUT_MS: '5000',
      PENDING_HORIZON_HOURS: '48',
      RECHECK_FIRST_SECONDS: '3',
      PRICE_WATCH_MINUTES: '0',
      DATA_DIR: '/var/lib/kiosbot',
      GAMESHOP_CATALOGUE: './catalogue.json',
    });
    expect(config.encryptionKey.equals(Buffer.alloc(32, 9))).toBe(true);
    expect(config.adminIds).toEqual([111, 222]);
    expect(config.adminChatId).toBe(-1001234567890);
    expect(config.publicIp).toBe('203.0.113.7');
    expect(config.webhook).toEqual({ url: 'https://bot.example.com/telegram', secret: 'a-long-enough-secret_123' });
    expect(config.port).toBe(8443);
    expect(config.logLevel).toBe('debug');
    expect(config.defaultLocale).toBe('en');
    expect(config.providers.timeoutMs).toBe(5000);
    expect(config.pendingHorizonMs).toBe(48 * 3600_000);
    expect(config.recheckFirstMs).toBe(3000);
    expect(config.priceWatchMs).toBe(0);
    expect(config.gameshopCataloguePath).toBe('./catalogue.json');
  });

  it('names every missing required variable in one error', () => {
    const error = problemsOf({});
    const names = error.problems.map((p) => p.variable).sort();
    expect(names).toEqual(['BOT_TOKEN', 'ENCRYPTION_KEY', 'GAMESHOP_API_URL', 'MARKETPLACE_API_URL', 'RESELLER_API_URL']);
    expect(error.message).toContain('openssl rand -base64 32');
  });

  it.each([
    ['BOT_TOKEN', 'not-a-token'],
    ['TELEGRAM_API_ROOT', 'ftp://example.com'],
    ['RESELLER_API_URL', 'localhost:8787'],
    ['ENCRYPTION_KEY', 'c2hvcnQ='],
    ['ADMIN_IDS', '12,abc'],
    ['ADMIN_CHAT_ID', 'group'],
    ['PUBLIC_IP', '999.1.1.1'],
    ['WEBHOOK_URL', 'http://insecure.example.com'],
    ['PORT', '70000'],
    ['PRICE_WATCH_MINUTES', 'ten'],
    ['LOG_LEVEL', 'loud'],
    ['DEFAULT_LOCALE', 'fr'],
    ['PROVIDER_TIMEOUT_MS', 'soon'],
  ])('names %s when it is bad', (variable, value) => {
    const error = problemsOf({ ...goodEnv, [variable]: value });
    expect(error.problems.map((p) => p.variable)).toEqual([variable]);
    expect(error.message).toContain(variable);
  });

  it('reports several bad variables at once', () => {
    const error = problemsOf({ ...goodEnv, PORT: 'x', LOG_LEVEL: 'loud', PUBLIC_IP: 'nope' });
    expect(error.problems.map((p) => p.variable).sort()).toEqual(['LOG_LEVEL', 'PORT', 'PUBLIC_IP']);
  });

  it('never echoes a secret value', () => {
    const badToken = 'SECRET-TOKEN-VALUE-123';
    const badKey = 'my-secret-passphrase-not-a-key';
    const error = problemsOf({
      ...goodEnv,
      BOT_TOKEN: badToken,
      ENCRYPTION_KEY: badKey,
      WEBHOOK_URL: 'https://x.example.com/hook',
      WEBHOOK_SECRET: 'short!',
    });
    expect(error.message).not.toContain(badToken);
    expect(error.message).not.toContain(badKey);
    expect(error.message).not.toContain('short!');
    expect(error.problems.map((p) => p.variable).sort()).toEqual(['BOT_TOKEN', 'ENCRYPTION_KEY', 'WEBHOOK_SECRET']);
  });

  it('requires WEBHOOK_SECRET with WEBHOOK_URL', () => {
    const error = problemsOf({ ...goodEnv, WEBHOOK_URL: 'https://bot.example.com/telegram' });
    expect(error.problems).toEqual([{ variable: 'WEBHOOK_SECRET', problem: stringContaining('required when WEBHOOK_URL') }]);
  });

  it('health: listens on loopback without a token by default; HEALTH_HOST and HEALTH_TOKEN are read', () => {
    const defaults = createConfig(goodEnv);
    expect(defaults.healthHost).toBe('127.0.0.1');
    expect(defaults.healthToken).toBeUndefined();
    const token = 'health-token-0123456789abcdef';
    expect(createConfig({ ...goodEnv, HEALTH_HOST: '0.0.0.0', HEALTH_TOKEN: ` ${token} ` })).toMatchObject({
      healthHost: '0.0.0.0',
      healthToken: token,
    });
    expect(createConfig({ ...goodEnv, HEALTH_HOST: '::' }).healthHost).toBe('::');
  });

  it.each([
    ['HEALTH_HOST', 'every-interface'],
    ['HEALTH_HOST', '300.1.1.1'],
    ['HEALTH_TOKEN', 'short-token'],
    ['HEALTH_TOKEN', 'has spaces in it which are not allowed ok'],
  ])('names %s when it is bad (%s)', (variable, value) => {
    const error = problemsOf({ ...goodEnv, [variable]: value });
    expect(error.problems.map((p) => p.variable)).toEqual([variable]);
  });

  it('never echoes a bad HEALTH_TOKEN', () => {
    const error = problemsOf({ ...goodEnv, HEALTH_TOKEN: 'tooShortSecret42' });
    expect(error.message).toContain('HEALTH_TOKEN');
    expect(error.message).toContain('24');
    expect(error.message).not.toContain('tooShortSecret42');
  });
});

describe('BROADCAST_RATE and BROADCAST_PAID', () => {
  it('defaults to 25 per second, free; accepts 1-30 free and up to 1000 when paid', () => {
    expect(createConfig(goodEnv).broadcast).toEqual({ rate: 25, paid: false });
    expect(createConfig({ ...goodEnv, BROADCAST_RATE: '30' }).broadcast).toEqual({ rate: 30, paid: false });
    expect(createConfig({ ...goodEnv, BROADCAST_RATE: '1000', BROADCAST_PAID: 'true' }).broadcast).toEqual({ rate: 1000, paid: true });
  });

  it('refuses a free rate above 30, a rate of 0 or above 1000, and a paid flag that is not true/false', () => {
    expect(problemsOf({ ...goodEnv, BROADCAST_RATE: '31' }).message).toContain('BROADCAST_PAID=true');
    expect(problemsOf({ ...goodEnv, BROADCAST_RATE: '0' }).problems[0]?.variable).toBe('BROADCAST_RATE');
    expect(problemsOf({ ...goodEnv, BROADCAST_RATE: '1001', BROADCAST_PAID: 'true' }).problems[0]?.variable).toBe('BROADCAST_RATE');
    expect(problemsOf({ ...goodEnv, BROADCAST_PAID: 'yes' }).problems[0]?.variable).toBe('BROADCAST_PAID');
  });
});

describe('DATABASE_URL', () => {
  const url = 'postgres://kiosbot:pw-Secret-99@db.example:5432/kiosbot';

  it('selects PostgreSQL in webhook mode, and without a webhook says a fleet needs one, without quoting the URL', () => {
    const error = problemsOf({ ...goodEnv, DATABASE_URL: url });
    expect(error.problems.map((p) => p.variable)).toEqual(['WEBHOOK_URL']);
    expect(error.message).toMatch(/required with DATABASE_URL.*by webhook.*unset DATABASE_URL/);
    expect(error.message).not.toContain('pw-Secret-99');
    const webhook = { WEBHOOK_URL: 'https://bot.example/telegram', WEBHOOK_SECRET: 'a-secret-of-sixteen-chars' };
    expect(createConfig({ ...goodEnv, ...webhook, DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(createConfig({ ...goodEnv, ...webhook }).databaseUrl).toBeUndefined();
  });

  it('is required by migrate-store and must be a postgres:// URL; the password is never quoted', () => {
    expect(createMigrateConfig({ ENCRYPTION_KEY: goodKeyBase64, DATABASE_URL: ` ${url} ` })).toMatchObject({
      databaseUrl: url,
      dataDir: './data',
    });
    expect(() => createMigrateConfig({ ENCRYPTION_KEY: goodKeyBase64 })).toThrow(/DATABASE_URL.*required/);
    const wrong = `mysql://root:pw-Secret-99@db/kiosbot`;
    expect(() => createMigrateConfig({ ENCRYPTION_KEY: goodKeyBase64, DATABASE_URL: wrong })).toThrow(/must be a postgres:\/\/ URL/);
    try {
      createMigrateConfig({ ENCRYPTION_KEY: goodKeyBase64, DATABASE_URL: wrong });
    } catch (error) {
      expect(String(error)).not.toContain('pw-Secret-99');
    }
  });
});
