import { GrammyError, HttpError, type BotError } from 'grammy';
import type { BotContext } from './context.ts';

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
  if (cause instanceof GrammyError)
    deps.logger.error('Telegram refused a request', { ...fields, method: cause.method, description: cause.description });
  else if (cause instanceof HttpError) deps.logger.error('could not reach Telegram', fields);
  else deps.logger.error('unhandled error while processing an update', fields);
  const summary = cause instanceof Error ? `${cause.name}: ${cause.message}`.slice(0, 300) : 'unknown error';
  // The same error again and again (a broken provider answer, a Telegram refusal) makes one line, then one count per window.
  deps.operatorFeed.report(`bot-error:${summary}`, (burst) =>
    deps.notices.operator('operator-bot-error', { summary }, `bot-error:${summary}`, burst),
  );
  try {
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: ctx.t('error-generic'), show_alert: true });
    else if (ctx.chat?.type === 'private') await ctx.reply(ctx.t('error-generic'));
  } catch (replyError) {
    deps.logger.warn('could not tell the user about an error', { userId: ctx.from?.id, error: replyError });
  }
}
