import type { MiddlewareFn } from 'grammy';
import type { I18n } from '@grammyjs/i18n';
import type { BotContext } from '../context.ts';
import { supportedLocales } from '../../domain.ts';
import { mainMenuButtons } from '../keyboards/main-menu.ts';

/**
 * A main-menu button is its command: in a private chat a message that is a menu label (in any
 * language, the old keyboard may still show) becomes that command (`💰 Saldo` → `/balance`) before
 * anyone sees it, so every rule about commands, inside flows too, holds for the buttons.
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
