import { z } from 'zod';
import { supportedLocales, type Locale } from './domain.ts';
import { parseEncryptionKey } from './store/vault.ts';
import { defaultConnectionBudget } from './store/pg/budget.ts';
import { claimDefaults, type ClaimsConfig } from './store/claim-holder.ts';

/** Thrown when the environment is unusable; its message lists every offending variable. */
export class ConfigError extends Error {
  readonly problems: Array<{ variable: string; problem: string }>;
  constructor(problems: Array<{ variable: string; problem: string }>) {
    super(
      'kiosbot cannot start: fix these environment variables (see .env.example and README):\n' +
        problems.map((p) => `  - ${p.variable}: ${p.problem}`).join('\n'),
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const optional = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

const httpUrl = (what: string) =>
  z
    .string({ error: `required: the ${what} (an http:// or https:// URL)` })
    .trim()
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), {
      error: `must be an http:// or https:// URL of the ${what}`,
    })
    .transform((value) => value.replace(/\/+$/, ''));

const integerText = (what: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, { error: `must be a whole number (${what})` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `must be between ${min} and ${max} (${what})` });

const ipAddress = (error: string) =>
  z
    .string()
    .trim()
    .refine((value) => z.ipv4().safeParse(value).success || z.ipv6().safeParse(value).success, { error });

/** ENCRYPTION_KEY: 32 bytes as base64 or hex (see parseEncryptionKey). */
const encryptionKeyField = z
  .string({ error: 'required: 32 random bytes as base64 or hex; generate one with `openssl rand -base64 32`' })
  .transform((value, ctx) => {
    try {
      return parseEncryptionKey(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : 'invalid key' });
      return z.NEVER;
    }
  });

/** ENCRYPTION_KEY_PREVIOUS: during a key rotation, the old key(s), comma separated; read, never used to seal. */
const previousKeysField = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const keys: Buffer[] = [];
    const parts = value.split(',').map((part) => part.trim());
    for (const [index, part] of parts.entries()) {
      if (part === '') continue;
      try {
        keys.push(parseEncryptionKey(part));
      } catch (error) {
        const which = parts.length > 1 ? `key #${index + 1}: ` : '';
        ctx.addIssue({ code: 'custom', message: which + (error instanceof Error ? error.message : 'invalid key') });
        return z.NEVER;
      }
    }
    return keys;
  });

const schema = z.object({
  BOT_TOKEN: z
    .string({ error: 'required: the bot token from @BotFather, like 123456789:AAE...' })
    .trim()
    .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, { error: 'does not look like a bot token from @BotFather (digits, a colon, then 20+ letters)' }),
  TELEGRAM_API_ROOT: httpUrl('Telegram Bot API server').default('https://api.telegram.org'),
  RESELLER_API_URL: httpUrl('reseller top-up API, ending in /api/v1'),
  MARKETPLACE_API_URL: httpUrl('marketplace API'),
  GAMESHOP_API_URL: httpUrl('game shop API, ending in /api'),
  ENCRYPTION_KEY: encryptionKeyField,
  ENCRYPTION_KEY_PREVIOUS: previousKeysField,
  DATA_DIR: z.string().trim().min(1).default('./data'),
  ACCEPT_MISSING_DATA: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  ADMIN_IDS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const parts = value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      const bad = parts.filter((part) => !/^\d{1,15}$/.test(part));
      if (bad.length > 0) {
        ctx.addIssue({ code: 'custom', message: 'must be Telegram user ids separated by commas, like 12345,67890' });
        return z.NEVER;
      }
      return parts.map(Number);
    }),
  ADMIN_CHAT_ID: integerText('a Telegram chat id; groups are negative, like -1001234567890', -1e15, 1e15).optional(),
  PUBLIC_IP: ipAddress("must be this server's public IPv4 or IPv6 address (what providers must whitelist), like 203.0.113.7").optional(),
  WEBHOOK_URL: z
    .string()
    .trim()
    .refine((value) => /^https:\/\/[^\s]+$/i.test(value) && URL.canParse(value), {
      error: 'must be the public https:// URL Telegram should post updates to, like https://bot.example.com/telegram',
    })
    .optional(),
  WEBHOOK_SECRET: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{16,256}$/, { error: 'must be 16-256 characters of A-Z, a-z, 0-9, _ and -' })
    .optional(),
  PORT: integerText('the HTTP port for the webhook and health endpoint; 0 picks a free one', 0, 65535).default(3000),
  HEALTH_HOST: ipAddress(
    'must be the IP address the HTTP server (health, webhook) listens on: 127.0.0.1 (this machine only), 0.0.0.0 or :: (every interface)',
  ).default('127.0.0.1'),
  HEALTH_TOKEN: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]{24,256}$/, { error: 'must be 24-256 characters without spaces; generate one with `openssl rand -hex 24`' })
    .optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error'], { error: 'must be one of debug, info, warn, error' }).default('info'),
  DEFAULT_LOCALE: z.enum(supportedLocales, { error: 'must be id or en' }).default('id'),
  PROVIDER_TIMEOUT_MS: integerText('milliseconds to wait for a provider', 1000, 120000).default(15000),
  PENDING_HORIZON_HOURS: integerText('hours to keep re-checking a Pending transaction', 1, 24 * 14).default(24),
  RECHECK_FIRST_SECONDS: integerText('seconds between the re-checks of a Pending purchase in its first 2 minutes', 1, 120).default(10),
  GAMESHOP_CATALOGUE: z.string().trim().min(1).optional(),
  BACKUP_DIR: z.string().trim().min(1).default('./backups'),
  BACKUP_EVERY_HOURS: integerText('hours between scheduled backups; 0 turns them off', 0, 24 * 7).default(0),
  BACKUP_KEEP: integerText('how many scheduled backups to keep', 1, 1000).default(14),
  BROADCAST_RATE: integerText('broadcast messages per second: 1-30, or up to 1000 with BROADCAST_PAID=true', 1, 1000).default(25),
  BROADCAST_PAID: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  DOWNLINES: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  PRICE_WATCH_MINUTES: integerText(
    'minutes between two price-list checks of a watched reseller account (/pantau); 0 turns them off',
    0,
    24 * 60,
  ).default(10),
  TELEGRAM_START_TIMEOUT_MS: integerText('milliseconds one start-up call to Telegram may take', 100, 60000).default(8000),
  TELEGRAM_RETRY_MS: integerText('milliseconds before the first retry of an unanswered start-up call', 100, 60000).default(2000),
  CLAIM_LEASE_SECONDS: integerText(
    'seconds an instance sharing PostgreSQL holds what it took (a due check, a notice, an update) before another may take it over',
    5,
    3600,
  ).default(claimDefaults.leaseMs / 1000),
  DATABASE_POOL_SIZE: integerText(
    'PostgreSQL connections one instance may open; half of them, rounded down, hold chat locks, one the send claims',
    5,
    1000,
  ).default(defaultConnectionBudget),
  DATABASE_URL: z
    .string()
    .trim()
    .refine((value) => /^postgres(ql)?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), {
      error: 'must be a postgres:// URL, like postgres://kiosbot:password@db.example:5432/kiosbot',
    })
    .optional(),
});

type Parsed = z.output<typeof schema>;

export interface Config {
  botToken: string;
  telegramApiRoot: string;
  /** Start-up's getMe: per-attempt timeout and first retry pause (doubling up to 60 s). */
  telegramStart: { timeoutMs: number; retryMs: number };
  /** `retryDelayMs` is never read from the environment (default 300 ms); the tests shorten it. */
  providers: { resellerUrl: string; marketplaceUrl: string; gameshopUrl: string; timeoutMs: number; retryDelayMs?: number };
  encryptionKey: Buffer;
  /** Keys that may still open stored secrets during a key rotation (ENCRYPTION_KEY_PREVIOUS). */
  previousKeys: Buffer[];
  dataDir: string;
  /** ACCEPT_MISSING_DATA: start once although a piece of the data directory is missing, losing what it held. */
  acceptMissingData: boolean;
  adminIds: number[];
  adminChatId: number | undefined;
  publicIp: string | undefined;
  webhook: { url: string; secret: string } | undefined;
  /** DATABASE_URL: the store is PostgreSQL, shared by every instance, instead of DATA_DIR. */
  databaseUrl: string | undefined;
  /** DATABASE_POOL_SIZE: every PostgreSQL connection one instance may open (src/store/pg/budget.ts). */
  databasePoolSize: number;
  /** `leaseMs` (CLAIM_LEASE_SECONDS): how long a dead instance's claims stay its own before others take them. */
  claims: ClaimsConfig;
  port: number;
  /** Interface the HTTP server (health, webhook) listens on. */
  healthHost: string;
  /** Bearer token that unlocks the counts on GET /health; without it /health shows liveness only. */
  healthToken: string | undefined;
  logLevel: Parsed['LOG_LEVEL'];
  defaultLocale: Locale;
  pendingHorizonMs: number;
  /** Re-check delay of a Pending purchase during its first 2 minutes (later ones back off to 30 s, then 5 min). */
  recheckFirstMs: number;
  /** PRICE_WATCH_MINUTES in ms: how often each watched reseller account's price list is fetched; 0: off. */
  priceWatchMs: number;
  gameshopCataloguePath: string | undefined;
  /** Where backups go (`npm run backup`, scheduled ones); `everyMs` 0: no scheduled backups. */
  backups: { dir: string; everyMs: number; keep: number };
  /** Broadcast pace (BROADCAST_RATE per second) and whether copies are paid (`allow_paid_broadcast`, BROADCAST_PAID). */
  broadcast: { rate: number; paid: boolean };
  /** DOWNLINES: /downline, invite links, the wallet commands and purchases from the wallet answer (off by default: an upgraded bot grows no new commands unasked). */
  downlines: boolean;
}

/** Variables whose values must never be echoed in an error. */
const secretVariables = new Set([
  'BOT_TOKEN',
  'ENCRYPTION_KEY',
  'ENCRYPTION_KEY_PREVIOUS',
  'WEBHOOK_SECRET',
  'HEALTH_TOKEN',
  'DATABASE_URL',
]);

/** Parses the environment into a typed config. Pure. Throws one ConfigError naming every bad variable (secrets never quoted). */
export function createConfig(env: Record<string, string | undefined>): Config {
  const data = parseEnvironment(schema, env);
  if (data.DATABASE_URL && !data.WEBHOOK_URL) {
    // Telegram answers getUpdates to one caller at a time: a fleet sharing a database takes its
    // updates by webhook, behind a load balancer (README "Scaling out").
    throw new ConfigError([
      {
        variable: 'WEBHOOK_URL',
        problem:
          'required with DATABASE_URL: instances sharing PostgreSQL receive updates by webhook (Telegram serves long polling ' +
          'to one process only). Set WEBHOOK_URL and WEBHOOK_SECRET, or unset DATABASE_URL to run one process on DATA_DIR.',
      },
    ]);
  }
  if (data.WEBHOOK_URL && !data.WEBHOOK_SECRET) {
    throw new ConfigError([
      { variable: 'WEBHOOK_SECRET', problem: 'required when WEBHOOK_URL is set (16+ characters of A-Z, a-z, 0-9, _ and -)' },
    ]);
  }
  if (data.BROADCAST_RATE > 30 && data.BROADCAST_PAID !== 'true') {
    // Above about 30 per second Telegram allows paid broadcasts only.
    throw new ConfigError([
      { variable: 'BROADCAST_RATE', problem: 'above 30 messages per second needs BROADCAST_PAID=true (Telegram allows about 30 free)' },
    ]);
  }
  return {
    botToken: data.BOT_TOKEN,
    telegramApiRoot: data.TELEGRAM_API_ROOT,
    telegramStart: { timeoutMs: data.TELEGRAM_START_TIMEOUT_MS, retryMs: data.TELEGRAM_RETRY_MS },
    providers: {
      resellerUrl: data.RESELLER_API_URL,
      marketplaceUrl: data.MARKETPLACE_API_URL,
      gameshopUrl: data.GAMESHOP_API_URL,
      timeoutMs: data.PROVIDER_TIMEOUT_MS,
    },
    encryptionKey: data.ENCRYPTION_KEY,
    previousKeys: data.ENCRYPTION_KEY_PREVIOUS,
    dataDir: data.DATA_DIR,
    acceptMissingData: data.ACCEPT_MISSING_DATA === 'true',
    adminIds: data.ADMIN_IDS,
    adminChatId: data.ADMIN_CHAT_ID,
    publicIp: data.PUBLIC_IP,
    webhook: data.WEBHOOK_URL && data.WEBHOOK_SECRET ? { url: data.WEBHOOK_URL, secret: data.WEBHOOK_SECRET } : undefined,
    databaseUrl: data.DATABASE_URL,
    databasePoolSize: data.DATABASE_POOL_SIZE,
    claims: { leaseMs: data.CLAIM_LEASE_SECONDS * 1000 },
    port: data.PORT,
    healthHost: data.HEALTH_HOST,
    healthToken: data.HEALTH_TOKEN,
    logLevel: data.LOG_LEVEL,
    defaultLocale: data.DEFAULT_LOCALE,
    pendingHorizonMs: data.PENDING_HORIZON_HOURS * 3600_000,
    recheckFirstMs: data.RECHECK_FIRST_SECONDS * 1000,
    priceWatchMs: data.PRICE_WATCH_MINUTES * 60_000,
    gameshopCataloguePath: data.GAMESHOP_CATALOGUE,
    backups: { dir: data.BACKUP_DIR, everyMs: data.BACKUP_EVERY_HOURS * 3600_000, keep: data.BACKUP_KEEP },
    broadcast: { rate: data.BROADCAST_RATE, paid: data.BROADCAST_PAID === 'true' },
    downlines: data.DOWNLINES === 'true',
  };
}

/** Parses DATA_DIR and BACKUP_DIR like createConfig does (`npm run backup`). Pure. */
export function createDataConfig(env: Record<string, string | undefined>): { dataDir: string; backupDir: string } {
  const data = parseEnvironment(schema.pick({ DATA_DIR: true, BACKUP_DIR: true }), env);
  return { dataDir: data.DATA_DIR, backupDir: data.BACKUP_DIR };
}

/** Parses the keys too (`npm run rotate-key`, `npm run restore`), naming every bad variable at once. Pure. */
export function createKeyConfig(env: Record<string, string | undefined>) {
  const data = parseEnvironment(
    schema.pick({ ENCRYPTION_KEY: true, ENCRYPTION_KEY_PREVIOUS: true, DATA_DIR: true, BACKUP_DIR: true }),
    env,
  );
  return {
    encryptionKey: data.ENCRYPTION_KEY,
    previousKeys: data.ENCRYPTION_KEY_PREVIOUS,
    dataDir: data.DATA_DIR,
    backupDir: data.BACKUP_DIR,
  };
}

/** Parses the variables of `npm run migrate-store`: the keys and a required DATABASE_URL. Pure. */
export function createMigrateConfig(env: Record<string, string | undefined>) {
  const keys = createKeyConfig(env);
  const { DATABASE_URL: databaseUrl } = parseEnvironment(schema.pick({ DATABASE_URL: true }), env);
  if (!databaseUrl) {
    throw new ConfigError([
      {
        variable: 'DATABASE_URL',
        problem: 'required: the PostgreSQL database to copy into, like postgres://kiosbot:password@db.example:5432/kiosbot',
      },
    ]);
  }
  return { ...keys, databaseUrl };
}

/** Parses `env` with `shape`, or throws one ConfigError naming every bad variable (secrets never quoted). */
function parseEnvironment<S extends z.ZodObject>(shape: S, env: Record<string, string | undefined>): z.output<S> {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(shape.shape)) input[key] = optional(env[key]);
  const result = shape.safeParse(input);
  if (result.success) return result.data;
  const problems: Array<{ variable: string; problem: string }> = [];
  for (const issue of result.error.issues) {
    const variable = String(issue.path[0] ?? 'environment');
    if (problems.some((p) => p.variable === variable)) continue;
    const value = input[variable];
    let problem = issue.message;
    if (issue.code === 'invalid_type' && value === undefined && !problem.startsWith('required')) problem = `required: ${problem}`;
    if (secretVariables.has(variable) && value) problem = problem.split(value).join('[hidden]');
    problems.push({ variable, problem });
  }
  throw new ConfigError(problems);
}
