import type { MiddlewareFn } from 'grammy';
import type { BotContext } from '../context.ts';
import type { Logger } from '../../logger.ts';

/** What an update asks for, as a log label (`/command`, `callback:<prefix>`, `text`, a kind): never the text, it may be a secret. */
export function routeOf(ctx: BotContext): string {
  const text = ctx.message?.text;
  if (text !== undefined) {
    const command = /^\/([A-Za-z0-9_]+)/.exec(text.trimStart())?.[1];
    return command ? `/${command.toLowerCase()}` : 'text';
  }
  const data = ctx.callbackQuery?.data;
  if (data !== undefined) return `callback:${data.split(/[:|]/)[0]?.slice(0, 32) ?? ''}`;
  const message = ctx.message ?? ctx.editedMessage;
  if (message) {
    const kind = ['photo', 'document', 'video', 'sticker', 'voice', 'contact', 'location', 'new_chat_members', 'left_chat_member'].find(
      (key) => key in message,
    );
    if (kind) return kind;
  }
  return updateTypeOf(ctx);
}

function updateTypeOf(ctx: BotContext): string {
  return Object.keys(ctx.update).find((key) => key !== 'update_id') ?? 'unknown';
}

/** One `debug` line per update once handled (or failed): id, type, chat, route and duration in ms. */
export function logUpdates(logger: Logger): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const started = performance.now();
    let failed = false;
    try {
      await next();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      logger.debug('update', {
        updateId: ctx.update.update_id,
        type: updateTypeOf(ctx),
        chatId: ctx.chat?.id,
        handler: routeOf(ctx),
        durationMs: Math.round(performance.now() - started),
        ...(failed ? { failed: true } : {}),
      });
    }
  };
}
