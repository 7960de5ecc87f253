/**
 * The last line of defence for secrets in the process output: whatever is written to stdout or
 * stderr (our logger, a library's own `console.error`, a crash trace) has every form of the
 * configured secrets (`outputSecrets`) and any Bot API URL's token replaced with `[redacted]`.
 */
import { inspect } from 'node:util';
import type { Api } from 'grammy';
import { maskSecrets, type Logger } from './logger.ts';
import { writeFailureFields, writeFailureOf } from './store/errors.ts';
import { parseEncryptionKey } from './store/vault.ts';

/** Shorter values are not masked: they would match ordinary text. */
const minSecretLength = 6;

/** A stream whose `write` can be wrapped (process.stdout, process.stderr, or a test double). */
export interface WritableLike {
  write: (...args: never[]) => boolean;
}

/**
 * Every form in which the secrets of `env` could show up in text, longest first: the bot token, its
 * part after the colon and its URL-encoded form; WEBHOOK_SECRET, HEALTH_TOKEN and DATABASE_URL's
 * password; the encryption keys as written and, if valid, as base64, base64url and hex.
 */
export function outputSecrets(env: Record<string, string | undefined>): string[] {
  const forms = new Set<string>();
  const token = env.BOT_TOKEN?.trim();
  if (token) {
    forms.add(token);
    forms.add(encodeURIComponent(token));
    const colon = token.indexOf(':');
    if (colon >= 0) forms.add(token.slice(colon + 1));
  }
  for (const name of ['WEBHOOK_SECRET', 'HEALTH_TOKEN']) {
    const value = env[name]?.trim();
    if (value) forms.add(value);
  }
  // A database URL's password, as written in it (percent-encoded) and decoded.
  const databaseUrl = env.DATABASE_URL?.trim();
  if (databaseUrl && URL.canParse(databaseUrl)) {
    const { password } = new URL(databaseUrl);
    if (password) {
      forms.add(password);
      try {
        forms.add(decodeURIComponent(password));
      } catch {
        // Not valid percent-encoding: masked as written.
      }
    }
  }
  const keyTexts = [env.ENCRYPTION_KEY ?? '', ...(env.ENCRYPTION_KEY_PREVIOUS ?? '').split(',')].map((text) => text.trim());
  for (const keyText of keyTexts.filter((text) => text !== '')) {
    forms.add(keyText);
    try {
      const key = parseEncryptionKey(keyText);
      for (const form of [key.toString('base64'), key.toString('base64url'), key.toString('hex'), key.toString('hex').toUpperCase()])
        forms.add(form);
    } catch {
      // Not a valid key: config validation stops the process; its text is masked as written.
    }
  }
  // Longest first, so a token goes before its own secret part.
  return [...forms].filter((form) => form.length >= minSecretLength).sort((a, b) => b.length - a.length);
}

/**
 * Wraps the `write` of each stream (default stdout and stderr) so nothing written through it can
 * contain one of `secrets` (strings and UTF-8 byte chunks; other arguments pass through). Returns
 * a function that restores the original writes. A crash bypasses these streams: see `printCrashesMasked`.
 */
export function installOutputGuard(secrets: readonly string[], streams: WritableLike[] = [process.stdout, process.stderr]): () => void {
  const restores = streams.map((stream) => {
    // The stream's own write, called with whatever arguments the caller passed (masked).
    const original = stream.write as (...args: unknown[]) => boolean;
    const guarded = function (this: unknown, chunk: unknown, ...rest: unknown[]): boolean {
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : undefined;
      // A byte chunk becomes a string: drop an encoding argument meant for the original chunk.
      const args = text !== undefined && typeof chunk !== 'string' && typeof rest[0] === 'string' ? rest.slice(1) : rest;
      const masked = text === undefined ? chunk : maskSecrets(text, secrets);
      return original.call(stream, masked, ...args);
    };
    stream.write = guarded;
    return () => {
      stream.write = original;
    };
  });
  return () => {
    for (const restore of restores) restore();
  };
}

/**
 * Reports failed `getUpdates` calls through the logger, for the runner started with `silent: true`
 * (its raw error's URL holds the token); it retries on its own, and an aborted poll is not
 * reported. One that failed because the update inbox could not be written names the data directory.
 */
export function logPollingErrors(api: Api, logger: Logger): void {
  api.config.use(async (prev, method, payload, signal) => {
    try {
      return await prev(method, payload, signal);
    } catch (error) {
      if (method === 'getUpdates' && !(signal as AbortSignal | undefined)?.aborted) {
        const failure = writeFailureOf(error);
        if (failure)
          logger.error(
            'the data directory cannot be written, so the updates Telegram sent cannot be stored: nobody gets an answer until it can (Telegram keeps the updates; retrying)',
            writeFailureFields(failure),
          );
        else logger.warn('fetching updates from Telegram failed; retrying (check the network and TELEGRAM_API_ROOT)', { error });
      }
      throw error;
    }
  });
}

/**
 * Node prints an uncaught exception (and an unhandled rejection, which becomes one) straight to
 * file descriptor 2, past the guarded stderr stream. This prints it through stderr instead, masked,
 * and exits with code 1 as Node would.
 */
export function printCrashesMasked(secrets: readonly string[]): void {
  process.on('uncaughtException', (error, origin) => {
    process.stderr.write(`${maskSecrets(`kiosbot crashed (${origin}): ${inspect(error)}`, secrets)}\n`);
    process.exit(1);
  });
}
