/**
 * Start-up's first call to Telegram (`getMe`, through `bot.init`), retried until the Bot API
 * answers: an unreachable or silent API root is reported within the attempt timeout (which root,
 * what to check) and retried with a log line each time, backing off; a token Telegram rejects
 * stops start-up instead (retrying cannot fix it).
 */
import { GrammyError, HttpError, type Bot } from 'grammy';
import type { Logger } from './logger.ts';

export interface TelegramStartOptions {
  apiRoot: string;
  /** How long one getMe may take before it counts as unanswered. */
  timeoutMs: number;
  /** First pause between attempts; doubles after each failure up to 60 s. */
  retryMs: number;
  logger: Logger;
  /** Aborts the waiting (the process is stopping). */
  signal?: AbortSignal;
}

/** Telegram answered, but refused the token: start-up cannot continue. */
export class BotTokenRejectedError extends Error {
  constructor(apiRoot: string, description: string) {
    super(
      `the Telegram Bot API at ${apiRoot} rejected BOT_TOKEN (${description}); check BOT_TOKEN (from @BotFather) and TELEGRAM_API_ROOT`,
    );
    this.name = 'BotTokenRejectedError';
  }
}

/** Pause after the n-th (1-based) failed attempt. */
export function retryDelay(n: number, retryMs: number): number {
  return Math.min(retryMs * 2 ** (n - 1), 60_000);
}

function reasonOf(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs / 1000} s`;
  if (error instanceof GrammyError) return `${error.error_code} ${error.description}`;
  const inner = error instanceof HttpError ? error.error : error;
  const cause = inner instanceof Error && inner.cause instanceof Error ? inner.cause : undefined;
  const code = cause && 'code' in cause ? String(cause.code) : undefined;
  return code ?? (inner instanceof Error ? inner.message : String(inner));
}

/** Resolves once `bot.init` succeeded; throws BotTokenRejectedError on 401/404, or the abort reason. */
export async function initBotWithRetry(bot: { init: Bot['init'] }, options: TelegramStartOptions): Promise<void> {
  const { apiRoot, timeoutMs, retryMs, logger, signal } = options;
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    const attemptSignal = AbortSignal.timeout(timeoutMs);
    try {
      await bot.init((signal ? AbortSignal.any([signal, attemptSignal]) : attemptSignal) as Parameters<Bot['init']>[0]);
      if (attempt > 1) logger.info('reached the Telegram Bot API', { apiRoot, attempts: attempt });
      return;
    } catch (error) {
      signal?.throwIfAborted();
      if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404))
        throw new BotTokenRejectedError(apiRoot, `${error.error_code} ${error.description}`);
      const delay = retryDelay(attempt, retryMs);
      logger.error(
        `cannot reach the Telegram Bot API at ${apiRoot} (${reasonOf(error, attemptSignal.aborted, timeoutMs)}); ` +
          `check TELEGRAM_API_ROOT, the network (firewall, proxy, DNS) and BOT_TOKEN; retrying in ${delay / 1000} s (attempt ${attempt})`,
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }
}
