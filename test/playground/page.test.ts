import { afterEach, describe, expect, it } from 'vitest';
import { Bot, InlineKeyboard, InputFile } from 'grammy';
import QRCode from 'qrcode';
import { startBotApi, type BotApiEmulator } from '../../tools/playground/bot-api.ts';
import { startPlayground } from '../../tools/playground/playground.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function emulator(): Promise<BotApiEmulator> {
  const api = await startBotApi();
  cleanup.push(() => api.close());
  return api;
}

async function post(api: BotApiEmulator, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${api.url}/playground/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('chat page', () => {
  it('GET / serves the self-contained HTML page', async () => {
    const api = await emulator();
    const response = await fetch(`${api.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('/playground/state');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import|\burl\(/i);
  });

  it('drives a real bot through the page API: create user, send, see the keyboard, tap, see the edit', async () => {
    const api = await emulator();
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    bot.command('start', (ctx) => ctx.reply('Menu', { reply_markup: new InlineKeyboard().text('Saldo', 'bal') }));
    bot.callbackQuery('bal', async (ctx) => {
      await ctx.answerCallbackQuery({ text: 'Sebentar…' });
      await ctx.editMessageText('Saldo Rp 5.000');
    });
    void bot.start();
    cleanup.push(() => bot.stop());

    const created = await post(api, 'users', { firstName: 'Budi', username: '@budi' });
    const userId = created.json.id as number;
    expect(api.userHandle(userId).user).toMatchObject({ first_name: 'Budi', username: 'budi' });
    await post(api, 'send', { userId, chatId: userId, text: '/start' });
    const menu = await api.waitForBotMessage(userId, { textIncludes: 'Menu' });

    const stateUrl = `${api.url}/playground/state?user=${userId}&chat=${userId}`;
    const state = (await (await fetch(stateUrl)).json()) as {
      version: number;
      chat: { messages: Array<{ id: number; text: string; buttons: unknown; edited: boolean }> };
    };
    expect(state.chat.messages.map((m) => m.text)).toEqual(['/start', 'Menu']);
    expect(state.chat.messages[1]!.buttons).toEqual([[{ text: 'Saldo', data: 'bal' }]]);

    // The page long-polls with its version and is answered when something changes.
    const next = fetch(`${stateUrl}&version=${api.version}`).then(
      (r) => r.json() as Promise<typeof state & { answers: Array<{ text: string }> }>,
    );
    expect((await post(api, 'tap', { userId, chatId: userId, messageId: menu.messageId, button: 'bal' })).status).toBe(200);
    await api.waitFor(() => menu.editedAt);
    await next;
    const after = (await (await fetch(stateUrl)).json()) as typeof state & { answers: Array<{ text: string }> };
    expect(after.chat.messages[1]).toMatchObject({ text: 'Saldo Rp 5.000', edited: true, buttons: [] });
    expect(after.answers.map((a) => a.text)).toEqual(['Sebentar…']);

    const bad = await post(api, 'tap', { userId, chatId: userId, messageId: menu.messageId, button: 'bal' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/no button "bal"/);
  });

  it('shows a copy_text button as one that copies its text to the clipboard', async () => {
    const api = await emulator();
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const user = api.createUser({ firstName: 'Budi' });
    await bot.api.sendMessage(user.id, 'Struk', { reply_markup: new InlineKeyboard().copyText('📋 Salin SN', '12345678901234567890') });
    const state = (await (await fetch(`${api.url}/playground/state?user=${user.id}&chat=${user.id}`)).json()) as {
      chat: { messages: Array<{ buttons: unknown }> };
    };
    expect(state.chat.messages[0]!.buttons).toEqual([[{ text: '📋 Salin SN', copy: '12345678901234567890' }]]);
    const html = await (await fetch(`${api.url}/`)).text();
    expect(html).toContain('data-copy');
    expect(html).toContain('navigator.clipboard.writeText');
  });

  it('shows a photo the bot uploaded (multipart) and a copy-text button', async () => {
    const api = await emulator();
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const png = await QRCode.toBuffer('7001212345678901', { type: 'png' });
    bot.command('start', (ctx) =>
      ctx.replyWithPhoto(new InputFile(png, 'qr.png'), {
        caption: 'Scan',
        reply_markup: new InlineKeyboard().copyText('📋 Salin kode', '7001212345678901'),
      }),
    );
    void bot.start();
    cleanup.push(() => bot.stop());

    const userId = (await post(api, 'users', { firstName: 'Budi' })).json.id as number;
    await post(api, 'send', { userId, chatId: userId, text: '/start' });
    await api.waitForBotMessage(userId, { textIncludes: 'Scan' });
    const state = (await (await fetch(`${api.url}/playground/state?user=${userId}&chat=${userId}`)).json()) as {
      chat: { messages: Array<{ text: string; photo?: string; buttons: unknown }> };
    };
    const shown = state.chat.messages[1]!;
    expect(shown.buttons).toEqual([[{ text: '📋 Salin kode', copy: '7001212345678901' }]]);
    const file = await fetch(`${api.url}/playground/file/${encodeURIComponent(shown.photo ?? '')}`);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    // The page copies such a button's text instead of sending a tap.
    expect(await (await fetch(`${api.url}/`)).text()).toContain('data-copy');
  });

  it('the playground starts with a first user, so /start works at once', async () => {
    const { api, firstUser } = await startPlayground();
    cleanup.push(() => api.close());
    const state = (await (await fetch(`${api.url}/playground/state`)).json()) as { users: Array<{ id: number }> };
    expect(state.users.map((u) => u.id)).toEqual([firstUser.id]);
    expect(firstUser.user.language_code).toBe('id');
  });

  it("a user's note (who they are) reaches the page with the user, never the bot's updates", async () => {
    const { api, firstUser } = await startPlayground({}, { note: 'upline · reseller' });
    cleanup.push(() => api.close());
    const second = api.createUser({ firstName: 'Sari', note: 'downline of Budi · Silver' });
    const state = (await (await fetch(`${api.url}/playground/state`)).json()) as { users: Array<{ id: number; note?: string }> };
    expect(state.users.map((u) => [u.id, u.note])).toEqual([
      [firstUser.id, 'upline · reseller'],
      [second.id, 'downline of Budi · Silver'],
    ]);
    second.send('/start');
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const [update] = await bot.api.getUpdates({ timeout: 0 });
    expect(JSON.stringify(update)).not.toContain('downline of');
    // With two users the page shows a switch button per user.
    expect(await (await fetch(`${api.url}/`)).text()).toContain('id="userSwitch"');
  });

  it('a user created with a language sends updates with that language_code', async () => {
    const api = await emulator();
    const created = await post(api, 'users', { firstName: 'Ann', languageCode: 'en' });
    const userId = created.json.id as number;
    await post(api, 'send', { userId, chatId: userId, text: 'hi' });
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const updates = await bot.api.getUpdates({ timeout: 0 });
    expect(updates.at(-1)?.message?.from?.language_code).toBe('en');
  });

  it('the page has a multi-line message box, a language choice for new users and copy buttons', async () => {
    const api = await emulator();
    const html = await (await fetch(`${api.url}/`)).text();
    expect(html).toMatch(/<textarea[^>]+id="text"/);
    expect(html).toMatch(/<select name="languageCode"[^>]*>\s*<option value="id"[^>]*>[^<]*<\/option>\s*<option value="en"/);
    expect(html).toContain('data-copy');
    expect(html).toContain('navigator.clipboard');
  });

  it('copy_text buttons reach the page with the text to copy', async () => {
    const api = await emulator();
    const user = api.createUser({ firstName: 'Budi' });
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    await bot.api.sendMessage(user.id, 'Kode bayar', {
      reply_markup: { inline_keyboard: [[{ text: 'Salin kode', copy_text: { text: 'VA-8812345' } }]] },
    });
    const state = (await (await fetch(`${api.url}/playground/state?user=${user.id}&chat=${user.id}`)).json()) as {
      chat: { messages: Array<{ buttons: unknown }> };
    };
    expect(state.chat.messages[0]!.buttons).toEqual([[{ text: 'Salin kode', copy: 'VA-8812345' }]]);
  });
});
