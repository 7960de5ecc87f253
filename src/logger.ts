/** Structured JSON-line logger that never writes a secret. */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const levelRank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names whose values are always replaced, at any depth. */
const secretField = /(^|_|-)(api_?key|apikey|key|token|sign|signature|pin|secret|password|sealed|authorization|x-api-key)$/i;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger that adds `bindings` to every line. */
  child(bindings: Record<string, unknown>): Logger;
  /** Registers a value (e.g. a user's api key just read) to be masked wherever it appears. */
  addSecret(value: string): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Known secret values (bot token, encryption key) masked wherever they appear in a line. */
  secrets?: string[];
  /** Where lines go; defaults to stdout (warn and error to stderr). */
  write?: (line: string, level: LogLevel) => void;
}

const REDACTED = '[redacted]';
/** A bot token inside a Bot API URL, whichever token it is. */
const botUrlToken = /\/bot\d+:[\w-]+/g;

/** Replaces every secret in `text`, in the order given (a token before its own secret part), and any bot token in a Bot API URL. */
export function maskSecrets(text: string, secrets: Iterable<string>): string {
  let out = text.replace(botUrlToken, '/bot' + REDACTED);
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** A bot token: its part after the colon is the secret, masked on its own too (it outlives a split or URL-encoding). */
const botTokenShape = /^\d+:([\w-]{20,})$/;

/** The values to mask for one secret: itself and, for a bot token, its secret part. */
function secretForms(value: string): string[] {
  const part = botTokenShape.exec(value)?.[1];
  return (part ? [value, part] : [value]).filter((form) => form.length >= 6);
}

/**
 * Creates the logger. Every line is one JSON object: time, level, msg and the fields. Fields named
 * like secrets are masked, registered secret values are masked inside any string, a bot token in a
 * Telegram URL (`/bot123:abc/`) is masked, and Errors are reduced to name, code, message, a stack and their cause.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = new Set((options.secrets ?? []).flatMap(secretForms));
  const min = levelRank[options.level ?? 'info'];
  const write =
    options.write ??
    ((line: string, level: LogLevel) => {
      (level === 'warn' || level === 'error' ? process.stderr : process.stdout).write(line + '\n');
    });

  const maskString = (text: string) => maskSecrets(text, secrets);

  const scrub = (value: unknown, depth: number): unknown => {
    if (depth > 6) return '[deep]';
    if (typeof value === 'string') return maskString(value);
    if (value instanceof Error) {
      const out: Record<string, unknown> = { name: value.name, message: maskString(value.message) };
      if (value.stack) out.stack = maskString(value.stack.split('\n').slice(0, 6).join('\n'));
      if ('kind' in value) out.kind = (value as { kind: unknown }).kind;
      // What tells one network failure from another (ECONNRESET, UND_ERR_SOCKET, a store's `version`).
      const code: unknown = (value as { code?: unknown }).code;
      if (typeof code === 'string' || typeof code === 'number') out.code = typeof code === 'string' ? maskString(code) : code;
      if (value.cause !== undefined) out.cause = scrub(value.cause, depth + 1);
      return out;
    }
    if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = secretField.test(k) ? REDACTED : scrub(v, depth + 1);
      return out;
    }
    return value;
  };

  const make = (bindings: Record<string, unknown>): Logger => {
    const log = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
      if (levelRank[level] < min) return;
      const record = scrub({ ...bindings, ...fields }, 0) as Record<string, unknown>;
      write(JSON.stringify({ time: new Date().toISOString(), level, msg: maskString(message), ...record }), level);
    };
    return {
      debug: (m, f) => log('debug', m, f),
      info: (m, f) => log('info', m, f),
      warn: (m, f) => log('warn', m, f),
      error: (m, f) => log('error', m, f),
      child: (more) => make({ ...bindings, ...more }),
      addSecret: (value) => {
        for (const form of secretForms(value)) secrets.add(form);
      },
    };
  };
  return make({});
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger: Logger = createLogger({ level: 'error', write: () => {} });
