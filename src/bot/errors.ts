import { BotError, GrammyError, HttpError } from 'grammy';
import { StoreError, writeFailureFields, writeFailureOf, type StoreErrorCode } from '../store/errors.ts';
import type { BotContext } from './context.ts';

/** Errno codes of a connection that failed or dropped (Telegram, a provider, PostgreSQL). */
const connectionErrnos = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** The store's words for a database that went away (handled again, a purchase is still recorded once by its confirmation id). */
const passingStoreCodes: ReadonlySet<StoreErrorCode> = new Set(['outcome-unknown', 'unavailable', 'lock-lost']);

/**
 * Whether an update failed on a problem that passes by itself (data directory not writable,
 * Telegram unreachable or 5xx, a dropped connection), so handling it again can succeed. Anything
 * else is taken for the bot's own bug.
 */
export function isTemporaryFailure(error: unknown): boolean {
  let cause = error instanceof BotError ? error.error : error;
  for (let depth = 0; typeof cause === 'object' && cause !== null && depth < 5; depth += 1) {
    if (writeFailureOf(cause)) return true;
    if (cause instanceof StoreError && passingStoreCodes.has(cause.code)) return true;
    if (cause instanceof HttpError) return true;
    if (cause instanceof GrammyError) return cause.error_code >= 500 || cause.error_code === 429;
    const code = (cause as { code?: unknown }).code;
    // PostgreSQL's connection exceptions (class 08) and shutdowns (57P01-57P03).
    if (typeof code === 'string' && (connectionErrnos.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code))) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Last line of defence: logs the error (scrubbed by the logger) and tells the user something went
 * wrong, so a bug never looks like silence. A failure to answer is logged and swallowed.
 */
export async function handleBotError(error: BotError<BotContext>): Promise<void> {
  const ctx = error.ctx;
  const deps = ctx.deps;
  const cause = error.error;
  const fields = { updateId: ctx.update.update_id, userId: ctx.from?.id, error: cause };
  if (!deps) {
    // The error happened before the dependencies were attached; nothing else to do.
    console.error('kiosbot: error before dependencies were attached', cause instanceof Error ? cause.message : cause);
    return;
  }
  const writeFailure = writeFailureOf(cause);
  const temporary = isTemporaryFailure(cause);
  if (writeFailure)
    deps.logger.error('the data directory cannot be written; the update could not be handled', {
      ...fields,
      ...writeFailureFields(writeFailure),
      retried: ctx.handlingRetried === true,
    });
  else if (cause instanceof GrammyError)
    deps.logger.error('Telegram refused a request', { ...fields, method: cause.method, description: cause.description });
  else if (cause instanceof HttpError) deps.logger.error('could not reach Telegram', fields);
  else deps.logger.error('unhandled error while processing an update', fields);
  const summary = cause instanceof Error ? `${cause.name}: ${cause.message}`.slice(0, 300) : 'unknown error';
  // The same error again and again (a broken provider answer, a Telegram refusal) makes one line, then one count per window.
  deps.operatorFeed.report(`bot-error:${summary}`, (burst) =>
    deps.notices.operator('operator-bot-error', { summary }, `bot-error:${summary}`, burst),
  );
  try {
    // A temporary problem says so: whether the bot tries again by itself, or the user should.
    // (Inside the try: an error before the i18n middleware ran leaves the context without `t`.)
    const text = ctx.t(!temporary ? 'error-generic' : ctx.handlingRetried ? 'error-temporary-retrying' : 'error-temporary');
    // A tap's query may be answered already (a retried update): the chat gets the words then.
    const answered = ctx.callbackQuery
      ? await ctx.answerCallbackQuery({ text, show_alert: true }).then(
          () => true,
          () => false,
        )
      : false;
    if (!answered && ctx.chat?.type === 'private') await ctx.reply(text);
  } catch (replyError) {
    deps.logger.warn('could not tell the user about an error', { userId: ctx.from?.id, error: replyError });
  }
}
