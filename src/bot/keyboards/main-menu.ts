import { Keyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { CommandName } from '../commands.ts';

/**
 * The main menu's buttons, row by row: the label's locale key and the command a tap runs. A tap
 * sends the label as text; `menuButtons` (bot/middlewares/menu-buttons.ts) turns it into that
 * command, in whichever language the label is, and so does a former label (`formerKeys`) still on
 * an older keyboard.
 */
export const mainMenuButtons: ReadonlyArray<ReadonlyArray<{ key: string; command: CommandName; formerKeys?: readonly string[] }>> = [
  [
    { key: 'menu-balance', command: 'balance' },
    { key: 'menu-buy', command: 'buy' },
  ],
  [
    { key: 'menu-prices', command: 'prices' },
    { key: 'menu-history', command: 'history' },
  ],
  [
    { key: 'menu-status', command: 'status' },
    // Once labelled ⚙️ Akun, which read like /akun (the marketplace account): old keyboards still work.
    { key: 'menu-settings', command: 'settings', formerKeys: ['menu-settings-former'] },
  ],
];

/** The main menu: a persistent, resized reply keyboard, for private chats only. */
export function createMainMenuKeyboard(t: TranslateFunction): Keyboard {
  const keyboard = new Keyboard(mainMenuButtons.map((row) => row.map(({ key }) => Keyboard.text(t(key)))));
  return keyboard.resized().persistent();
}
