import type { MiddlewareFn } from 'grammy';
import type { I18n } from '@grammyjs/i18n';
import type { BotContext } from '../context.ts';
import { supportedLocales } from '../../domain.ts';
import { mainMenuButtons } from '../keyboards/main-menu.ts';

/**
 * A tap on a main-menu button does exactly what its command does: in a private chat, a message
 * whose whole text is a menu label (in any language: a user who switched language may still have
 * the old keyboard) is rewritten into that command (`💰 Saldo` → `/balance`) before anyone sees
 * it. So every rule about commands holds for the buttons too: the features answer them, and inside
 * a flow they are information commands (answered, then the question is asked again) or leave it.
 * Groups never get the menu, so there the labels stay plain text.
 */
export function createMenuButtons(i18n: Pick<I18n, 't'>): MiddlewareFn<BotContext> {
  const commandByLabel = new Map<string, string>();
  for (const { key, command, formerKeys = [] } of mainMenuButtons.flat()) {
    for (const label of [key, ...formerKeys]) {
      for (const locale of supportedLocales) commandByLabel.set(i18n.t(locale, label), command);
    }
  }
  return async (ctx, next) => {
    const message = ctx.update.message;
    const command = message?.text === undefined ? undefined : commandByLabel.get(message.text.trim());
    if (message && command !== undefined && ctx.chat?.type === 'private') {
      message.text = `/${command}`;
      message.entities = [{ type: 'bot_command', offset: 0, length: command.length + 1 }];
    }
    await next();
  };
}
