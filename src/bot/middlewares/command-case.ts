import type { MiddlewareFn } from 'grammy';
import type { BotContext } from '../context.ts';

/**
 * `/SALDO` means `/saldo`: grammY matches command names exactly, so a message's leading command is
 * lower-cased first. Only ASCII names, which keeps the other entities' offsets valid.
 */
export const lowerCaseCommands: MiddlewareFn<BotContext> = async (ctx, next) => {
  const message = ctx.update.message ?? ctx.update.edited_message;
  const text = message?.text;
  const entity = message?.entities?.[0];
  if (message && text !== undefined && entity?.type === 'bot_command' && entity.offset === 0) {
    const word = text.slice(0, entity.length);
    // `/CEK@KiosBot`: the @username is compared case-insensitively by grammY already.
    const name = word.split('@')[0] ?? word;
    if (/^\/[A-Za-z0-9_]+$/.test(name) && name !== name.toLowerCase()) {
      message.text = name.toLowerCase() + text.slice(name.length);
    }
  }
  await next();
};
