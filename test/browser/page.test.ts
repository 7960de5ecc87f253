/**
 * The playground's chat page in real headless Chromium, against the playground as `npm run
 * playground` starts it (a first user ready): the message box, the language of new users,
 * copy_text buttons.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Bot } from 'grammy';
import { startPlayground } from '../../tools/playground/playground.ts';
import type { BotApiEmulator, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { launchChromium, openChat, type ChatPage } from './chat-page.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

let api: BotApiEmulator;
let firstUser: EmulatedUser;
let chat: ChatPage | undefined;
afterEach(async () => {
  await chat?.context.close();
  chat = undefined;
  await api?.close();
});

async function open(): Promise<ChatPage> {
  ({ api, firstUser } = await startPlayground());
  chat = await openChat(browser, `${api.url}/`);
  return chat;
}

const userTexts = (userId: number) =>
  api
    .messages(userId)
    .filter((m) => !m.fromBot)
    .map((m) => m.message.text);

describe('playground page', () => {
  it('starts as the first user: /start goes out at once', async () => {
    const page = await open();
    await page.sendText('/start');
    await api.waitFor(() => userTexts(firstUser.id).includes('/start'));
    await page.waitForText('/start', { fromBot: false });
  });

  it('Enter sends, Shift+Enter adds a line to the same message', async () => {
    const page = await open();
    await page.sendText('TSEL10.081234567890\nXL5.081711111111');
    await api.waitFor(() => userTexts(firstUser.id).length === 1);
    expect(userTexts(firstUser.id)).toEqual(['TSEL10.081234567890\nXL5.081711111111']);
  });

  it('a new user gets the language chosen in the form (language_code of their updates)', async () => {
    const page = await open();
    await page.page.fill('#newUser input[name="firstName"]', 'Ann');
    await page.page.selectOption('#newUser select[name="languageCode"]', 'en');
    await page.page.click('#newUser button');
    await page.page.locator('#user option:checked', { hasText: 'Ann' }).waitFor({ state: 'attached' });
    await page.sendText('/start');
    const update = await api.waitFor(() => api.updates.find((u) => u.message?.from?.first_name === 'Ann'));
    expect(update.message?.from?.language_code).toBe('en');
    expect(update.message?.text).toBe('/start');
  });

  it('a copy_text button copies its text to the clipboard', async () => {
    const page = await open();
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    await bot.api.sendMessage(firstUser.id, 'Kode bayar VA', {
      reply_markup: { inline_keyboard: [[{ text: 'Salin kode', copy_text: { text: 'VA-8812345' } }]] },
    });
    await page.waitForText('Kode bayar VA', { fromBot: true });
    await page.tapButton('Salin kode');
    await expect.poll(() => page.page.evaluate<string>('navigator.clipboard.readText()')).toBe('VA-8812345');
    await page.page.locator('#toast', { hasText: 'VA-8812345' }).waitFor();
  });
});
