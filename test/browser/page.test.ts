/**
 * The playground's chat page in real headless Chromium, against the playground as `npm run
 * playground` starts it (a first user ready): the current chat on first paint and after a reload,
 * the message box, the language of new users, copy_text buttons, documents that download, photos
 * sent from the page, inline queries, and the view kept at the bottom when a photo loads.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { createCanvas } from '@napi-rs/canvas';
import { Bot, InputFile } from 'grammy';
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

/** The bot's side, driven by hand: calls the emulator like the real bot does. */
const botApi = () => new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } }).api;

/** A PNG photo of `size`×`size` pixels, one colour. */
function pngPhoto(size: number, colour = '#3a7'): Buffer {
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  context.fillStyle = colour;
  context.fillRect(0, 0, size, size);
  return canvas.toBuffer('image/png');
}

/** Whether the message list is scrolled to its end. */
const atBottom = (page: ChatPage) =>
  page.page.evaluate<boolean>('(b => b.scrollHeight - b.scrollTop - b.clientHeight < 2)(document.getElementById("messages"))');

/** The natural width of a bubble's image once it has loaded (0 before). */
const loadedWidth = (bubble: Locator) =>
  bubble.locator('img').evaluate((img: { complete: boolean; naturalWidth: number }) => (img.complete ? img.naturalWidth : 0));

const userTexts = (userId: number) =>
  api
    .messages(userId)
    .filter((m) => !m.fromBot)
    .map((m) => m.message.text);

/** The page's scroll and image load on a loaded machine (4 test workers on 2 cores) take longer than expect.poll's 1 s. */
const pageSettles = { timeout: 10_000 };

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

  it('shows the current chat at once on opening the page and after a reload', async () => {
    ({ api, firstUser } = await startPlayground());
    await botApi().sendMessage(firstUser.id, 'Halo Budi, saldo Anda Rp 50.000');
    chat = await openChat(browser, `${api.url}/`);
    // Nothing changes in the chat meanwhile: what shows is the page's first answer, not a later one.
    await chat.waitForText('saldo Anda Rp 50.000', { fromBot: true, timeoutMs: 3000 });
    expect(await chat.page.locator('#title').textContent()).toContain('@kiosbot_test_bot');

    await chat.page.reload();
    await chat.waitForText('saldo Anda Rp 50.000', { fromBot: true, timeoutMs: 3000 });
  });

  it('a document the bot sent downloads with its content', async () => {
    const page = await open();
    const csv = 'time,ref,product\n2025-01-02 10:00,KB-1,Telkomsel 10.000\n';
    await botApi().sendDocument(firstUser.id, new InputFile(Buffer.from(csv), 'kiosbot-2025-01-01-2025-01-31.csv'), {
      caption: '1 transaksi',
    });
    const bubble = await page.waitForText('1 transaksi', { fromBot: true });
    const [download] = await Promise.all([
      page.page.waitForEvent('download'),
      bubble.getByRole('link', { name: /kiosbot-2025-01-01-2025-01-31\.csv/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('kiosbot-2025-01-01-2025-01-31.csv');
    expect(await readFile(await download.path(), 'utf8')).toBe(csv);
  });

  it('sends a photo picked on the page, with the typed caption; the bot can copy it back', async () => {
    const page = await open();
    const photo = pngPhoto(64, '#c33');
    await page.page.locator('#text').fill('bukti transfer');
    await page.page.locator('#photo').setInputFiles({ name: 'bukti.png', mimeType: 'image/png', buffer: photo });
    const update = await api.waitFor(() => api.updates.find((u) => u.message?.photo));
    expect(update.message?.caption).toBe('bukti transfer');
    expect(update.message?.from?.id).toBe(firstUser.id);
    await expect.poll(() => page.page.locator('#text').inputValue()).toBe('');

    // The file id works for the bot, e.g. to copy the photo (what /broadcast in reply to it does).
    const fileId = update.message!.photo!.at(-1)!.file_id;
    await botApi().copyMessage(firstUser.id, firstUser.id, update.message!.message_id, { caption: 'salinan' });
    const copy = await page.waitForText('salinan', { fromBot: true });
    await expect.poll(() => loadedWidth(copy)).toBe(64);
    expect(await copy.locator('img').getAttribute('src')).toContain(encodeURIComponent(fileId));
  });

  it('an inline query typed as @bot query shows the results; choosing one sends its card', async () => {
    const page = await open();
    await page.page.locator('#text').pressSequentially('@kiosbot_test_bot tsel 10');
    const update = await api.waitFor(() => api.updates.find((u) => u.inline_query?.query === 'tsel 10'));
    expect(update.inline_query).toMatchObject({ query: 'tsel 10', chat_type: 'sender', from: { id: firstUser.id } });
    await botApi().answerInlineQuery(update.inline_query!.id, [
      {
        type: 'article',
        id: 'TSEL10',
        title: 'Telkomsel 10.000',
        description: 'Rp 10.500 · tersedia',
        input_message_content: { message_text: '<b>Telkomsel 10.000</b>\nRp 10.500', parse_mode: 'HTML' },
      },
    ]);
    await page.page.locator('#inline').getByText('Rp 10.500 · tersedia').click();

    const chosen = await api.waitFor(() => api.updates.find((u) => u.message?.via_bot));
    expect(chosen.message?.text).toBe('Telkomsel 10.000\nRp 10.500');
    const card = await page.waitForText('Telkomsel 10.000', { fromBot: false });
    expect(await card.locator('b').textContent()).toBe('Telkomsel 10.000');
    await expect.poll(() => page.page.locator('#text').inputValue()).toBe('');
    // The typed query itself never went out as a message.
    expect(userTexts(firstUser.id)).toEqual(['Telkomsel 10.000\nRp 10.500']);
  });

  it('stays at the bottom of the chat when a photo arrives and loads', async () => {
    const page = await open();
    for (let n = 1; n <= 30; n++) await botApi().sendMessage(firstUser.id, `Baris ${n}`);
    await page.waitForText('Baris 30', { fromBot: true });
    await expect.poll(() => atBottom(page), pageSettles).toBe(true);

    await botApi().sendPhoto(firstUser.id, new InputFile(pngPhoto(400), 'qr.png'), { caption: 'QRIS' });
    const bubble = await page.waitForText('QRIS', { fromBot: true });
    await expect.poll(() => loadedWidth(bubble), pageSettles).toBe(400);
    await expect.poll(() => atBottom(page), pageSettles).toBe(true);
  });
});
