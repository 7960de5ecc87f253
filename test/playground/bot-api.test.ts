import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Bot, GrammyError, InlineKeyboard, InputFile, webhookCallback, type BotError, type Context } from 'grammy';
import { conversations, createConversation, type Conversation, type ConversationFlavor } from '@grammyjs/conversations';
import { autoRetry } from '@grammyjs/auto-retry';
import { run } from '@grammyjs/runner';
import { startBotApi, type BotApiEmulator, type BotApiServerOptions } from '../../tools/playground/bot-api.ts';

// ---------------------------------------------------------------- fixtures

type BotCtx = ConversationFlavor<Context>;

const running: Array<() => Promise<void>> = [];

afterEach(async () => {
  // Stop bots before the emulator, then the emulator: nothing may stay open.
  while (running.length) await running.pop()!();
});

/** Starts an emulator that is closed after the test. */
async function emulator(options: BotApiServerOptions = {}): Promise<BotApiEmulator> {
  const api = await startBotApi(options);
  running.push(() => api.close());
  return api;
}

/** A grammY bot wired to the emulator like production would be (apiRoot + botInfo). */
function botFor(api: BotApiEmulator): { bot: Bot<BotCtx>; errors: BotError<BotCtx>[]; start: () => void } {
  const bot = new Bot<BotCtx>(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
  const errors: BotError<BotCtx>[] = [];
  bot.catch((error) => void errors.push(error));
  const start = () => {
    void bot.start({ timeout: 30 });
    running.push(() => bot.stop());
  };
  return { bot, errors, start };
}

/** Calls a method over raw HTTP and returns Telegram's envelope. */
async function raw(
  api: BotApiEmulator,
  method: string,
  body?: unknown,
  init: RequestInit = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${api.apiRoot}/bot${api.token}/${method}`, {
    method: 'POST',
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    ...init,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The GrammyError a promise rejects with. */
async function grammyError(promise: Promise<unknown>): Promise<GrammyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrammyError);
  return error as GrammyError;
}

// ---------------------------------------------------------------- a real grammY bot

describe('grammY bot against the emulator (long polling)', () => {
  it('answers /start with a reply the emulator stores as Telegram would', async () => {
    const api = await emulator();
    const { bot, errors, start } = botFor(api);
    bot.command('start', (ctx) => ctx.reply(`Halo ${ctx.from?.first_name}! Payload: ${ctx.match || '-'}`));
    start();

    const budi = api.createUser({ firstName: 'Budi', username: 'budi', languageCode: 'id' });
    const sent = budi.send('/start ref42');
    expect(sent.message.entities).toEqual([{ type: 'bot_command', offset: 0, length: 6 }]);

    const reply = await api.waitForBotMessage(budi, { after: sent, textIncludes: 'Halo Budi' });
    expect(reply.text).toBe('Halo Budi! Payload: ref42');
    expect(reply.message.from).toMatchObject({ id: api.botInfo.id, is_bot: true, username: api.botInfo.username });
    expect(reply.message.chat).toEqual({ id: budi.id, type: 'private', first_name: 'Budi', username: 'budi' });
    expect(reply.messageId).toBe(sent.messageId + 1);
    expect(api.messages(budi).map((m) => [m.fromBot, m.text])).toEqual([
      [false, '/start ref42'],
      [true, 'Halo Budi! Payload: ref42'],
    ]);
    const call = api.callsTo('sendMessage')[0]!;
    expect(call.params).toMatchObject({ chat_id: budi.id, text: 'Halo Budi! Payload: ref42' });
    expect(call.response).toMatchObject({ ok: true, result: { message_id: reply.messageId } });
    await api.waitForIdle();
    expect(errors).toEqual([]);
  });

  it('captures calls made inside a conversations v2 conversation (fresh Api, same apiRoot)', async () => {
    const api = await emulator();
    const { bot, errors, start } = botFor(api);
    bot.use(conversations());
    bot.use(
      createConversation(async (conversation: Conversation<BotCtx, Context>, ctx: Context) => {
        await ctx.reply('Nomor HP tujuan?', { reply_markup: { force_reply: true } });
        const answer = await conversation.waitFor(':text');
        await answer.reply(`Nomor tujuan: ${answer.msg.text}`);
      }, 'ask-phone'),
    );
    bot.command('beli', (ctx) => ctx.conversation.enter('ask-phone'));
    start();

    const siti = api.createUser({ firstName: 'Siti' });
    const command = siti.send('/beli');
    const question = await api.waitForBotMessage(siti, { after: command, textIncludes: 'Nomor HP' });
    const answer = siti.send('081234567890');
    // A client replies to a force_reply question automatically.
    expect(answer.message.reply_to_message?.message_id).toBe(question.messageId);
    const done = await api.waitForBotMessage(siti, { after: answer });
    expect(done.text).toBe('Nomor tujuan: 081234567890');
    expect(api.callsTo('sendMessage').map((c) => c.params.text)).toEqual(['Nomor HP tujuan?', 'Nomor tujuan: 081234567890']);
    expect(errors).toEqual([]);
  });

  it('taps an inline button: callback query answered, message edited (keyboard dropped unless resent)', async () => {
    const api = await emulator();
    const { bot, errors, start } = botFor(api);
    bot.command('menu', (ctx) =>
      ctx.reply('Pilih menu', {
        reply_markup: new InlineKeyboard().text('💰 Saldo', 'menu:balance').url('Bantuan', 'https://example.com/help'),
      }),
    );
    bot.callbackQuery('menu:balance', async (ctx) => {
      await ctx.answerCallbackQuery({ text: 'Memuat saldo…' });
      await ctx.editMessageText('Saldo: <b>Rp 10.000</b>', { parse_mode: 'HTML' });
    });
    start();

    const user = api.createUser({ firstName: 'Andi' });
    user.send('/menu');
    const menu = await api.waitForBotMessage(user, { textIncludes: 'Pilih menu' });
    expect(menu.buttons).toEqual([['💰 Saldo', 'Bantuan']]);
    expect(() => user.tap(menu, 'Bantuan')).toThrow(/not a callback button/);
    expect(() => user.tap(menu, 'Nope')).toThrow(/no button "Nope".*"💰 Saldo" \(menu:balance\)/);

    const query = user.tap(menu, '💰 Saldo');
    expect(query.data).toBe('menu:balance');
    const answer = await api.waitForCallbackAnswer(query);
    expect(answer).toMatchObject({ text: 'Memuat saldo…', showAlert: false });
    await api.waitFor(() => menu.editedAt !== undefined);
    expect(menu.text).toBe('Saldo: Rp 10.000');
    expect(menu.message.entities).toEqual([{ type: 'bold', offset: 7, length: 9 }]);
    expect(menu.message.edit_date).toBeTypeOf('number');
    expect(menu.buttons).toEqual([]);
    expect(menu.history.map((m) => m.text)).toEqual(['Pilih menu']);

    // A second answer to the same query is too late, as on Telegram.
    const again = await grammyError(bot.api.answerCallbackQuery(query.id));
    expect(again.description).toBe('Bad Request: query is too old and response timeout expired or query ID is invalid');
    // Same content again is "not modified".
    const same = await grammyError(bot.api.editMessageText(user.id, menu.messageId, 'Saldo: <b>Rp 10.000</b>', { parse_mode: 'HTML' }));
    expect(same.description).toMatch(/^Bad Request: message is not modified: /);
    expect(errors).toEqual([]);
  });

  it('deleteMessage marks the message deleted; unknown or already deleted messages answer 400', async () => {
    const api = await emulator();
    const { bot, errors, start } = botFor(api);
    bot.command('connect', async (ctx) => {
      await ctx.deleteMessage(); // the pasted secret must disappear from the chat
      await ctx.reply('Kunci disimpan, pesanmu sudah dihapus.');
    });
    start();

    const user = api.createUser({ firstName: 'Rina' });
    const secret = user.send('/connect KEY-123');
    await api.waitForBotMessage(user, { after: secret });
    expect(api.message(user, secret.messageId)).toMatchObject({ deleted: true, text: '/connect KEY-123' });
    expect(secret.deletedAt).toBeTypeOf('number');
    expect(api.messages(user).map((m) => m.deleted)).toEqual([true, false]);

    const twice = await grammyError(bot.api.deleteMessage(user.id, secret.messageId));
    expect(twice).toMatchObject({ error_code: 400, description: 'Bad Request: message to delete not found' });
    const unknown = await grammyError(bot.api.deleteMessage(user.id, 999));
    expect(unknown.description).toBe('Bad Request: message to delete not found');
    expect(errors).toEqual([]);
  });

  it('receives my_chat_member when a user blocks the bot; sends then answer 403', async () => {
    const api = await emulator();
    const { bot, start } = botFor(api);
    const statuses: string[] = [];
    bot.on('my_chat_member', (ctx) => void statuses.push(ctx.myChatMember.new_chat_member.status));
    start();

    const user = api.createUser({ firstName: 'Dewi' });
    api.blockBot(user);
    await api.waitFor(() => statuses.length === 1);
    expect(statuses).toEqual(['kicked']);
    const error = await grammyError(bot.api.sendMessage(user.id, 'Transaksi sukses'));
    expect(error).toMatchObject({ error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    expect(api.botMessages(user)).toEqual([]);

    // Writing to the bot again restarts it.
    user.send('/start');
    await api.waitFor(() => statuses.length === 2);
    expect(statuses).toEqual(['kicked', 'member']);
    await expect(bot.api.sendMessage(user.id, 'Selamat datang kembali')).resolves.toMatchObject({ text: 'Selamat datang kembali' });
  });

  it('group migration: the bot sees migrate_to_chat_id; sends to the old id answer 400 with it', async () => {
    const api = await emulator();
    const { bot, start } = botFor(api);
    const migrations: Array<number | undefined> = [];
    bot.on('message:migrate_to_chat_id', (ctx) => void migrations.push(ctx.message.migrate_to_chat_id));
    start();

    const owner = api.createUser({ firstName: 'Owner' });
    const group = api.createGroup({ title: 'Reseller Jaya', members: [owner] });
    await expect(bot.api.sendMessage(group.id, 'Notifikasi')).resolves.toMatchObject({ chat: { id: group.id, type: 'group' } });

    const supergroup = api.migrateGroup(group);
    expect(supergroup.type).toBe('supergroup');
    expect(supergroup.id).toBeLessThan(-1_000_000_000_000);
    await api.waitFor(() => migrations.length === 1);
    expect(migrations).toEqual([supergroup.id]);

    const error = await grammyError(bot.api.sendMessage(group.id, 'Notifikasi'));
    expect(error).toMatchObject({
      error_code: 400,
      description: 'Bad Request: group chat was upgraded to a supergroup chat',
      parameters: { migrate_to_chat_id: supergroup.id },
    });
    await expect(bot.api.sendMessage(supergroup.id, 'Notifikasi')).resolves.toMatchObject({
      chat: { id: supergroup.id, type: 'supergroup' },
    });
  });

  it('groups: privacy mode hides plain text, commands arrive as /cmd@bot, adding the bot sends my_chat_member', async () => {
    const api = await emulator({ botUsername: 'kios_bot' });
    const { bot, start } = botFor(api);
    const seen: string[] = [];
    bot.on('message:text', (ctx) => void seen.push(ctx.message.text));
    bot.on('my_chat_member', (ctx) => void seen.push(`status:${ctx.myChatMember.new_chat_member.status}`));
    bot.on('message:new_chat_members', () => void seen.push('joined'));
    start();

    const owner = api.createUser({ firstName: 'Owner' });
    const member = api.createUser({ firstName: 'Member' });
    const group = api.createGroup({ title: 'Grup', members: [owner, member], bot: 'none' });
    api.addBotToGroup(group, { by: owner });
    const hidden = member.send('halo semua', { chat: group });
    const command = member.send('/saldo', { chat: group });
    expect(command.text).toBe('/saldo@kios_bot');
    await api.waitFor(() => seen.includes('/saldo@kios_bot'));
    await api.waitForIdle();
    expect(seen).toEqual(['status:member', 'joined', '/saldo@kios_bot']);
    expect(api.messages(group).map((m) => m.messageId)).toContain(hidden.messageId);

    api.removeBotFromGroup(group, { by: owner });
    await api.waitFor(() => seen.includes('status:kicked'));
    const error = await grammyError(bot.api.sendMessage(group.id, 'x'));
    expect(error).toMatchObject({ error_code: 403, description: 'Forbidden: bot was kicked from the group chat' });
  });

  it('works with @grammyjs/runner and stops cleanly', async () => {
    const api = await emulator();
    const bot = new Bot<BotCtx>(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    bot.on('message:text', (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
    const runner = run(bot);
    running.push(async () => {
      if (runner.isRunning()) await runner.stop();
    });
    const users = [api.createUser({ firstName: 'R1' }), api.createUser({ firstName: 'R2' })];
    const sent = users.map((u, i) => u.send(`pesan ${i}`));
    const replies = await Promise.all(users.map((u, i) => api.waitForBotMessage(u, { after: sent[i] })));
    expect(replies.map((r) => r.text)).toEqual(['echo: pesan 0', 'echo: pesan 1']);
    await runner.stop();
    // The aborted long poll is noticed when its socket closes.
    await api.waitFor(() => !api.polling);
  });

  it('delivers updates to a webhook (grammY webhookCallback) with the secret token header', async () => {
    const api = await emulator();
    const bot = new Bot<BotCtx>(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    bot.command('start', (ctx) => ctx.reply('via webhook'));
    const secrets: Array<string | undefined> = [];
    const handler = webhookCallback(bot, 'http', { secretToken: 's3cret' });
    const server: Server = createServer((req, res) => {
      secrets.push(req.headers['x-telegram-bot-api-secret-token'] as string | undefined);
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push(() => new Promise((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;

    await bot.api.setWebhook(url, { secret_token: 's3cret' });
    expect(await bot.api.getWebhookInfo()).toMatchObject({ url, pending_update_count: 0 });
    const conflict = await grammyError(bot.api.getUpdates());
    expect(conflict.error_code).toBe(409);

    const user = api.createUser({ firstName: 'Web' });
    const sent = user.send('/start');
    const reply = await api.waitForBotMessage(user, { after: sent });
    expect(reply.text).toBe('via webhook');
    expect(secrets).toEqual(['s3cret']);
    await api.waitForIdle();
    expect(api.webhook).toMatchObject({ url, delivering: true, lastErrorMessage: undefined });
  });
});

// ---------------------------------------------------------------- faults and limits

describe('fault injection and limits', () => {
  it('inject429: grammY error carries retry_after; auto-retry waits it out and succeeds', async () => {
    const api = await emulator();
    const user = api.createUser({ firstName: 'Tono' });
    const plain = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    api.inject429({ method: 'sendMessage', chatId: user, times: 1, retryAfter: 7 });
    const error = await grammyError(plain.api.sendMessage(user.id, 'Halo'));
    expect(error).toMatchObject({ error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } });
    expect(api.calls.at(-1)).toMatchObject({ injected: 'fault', status: 429 });
    await expect(plain.api.sendMessage(user.id, 'Halo')).resolves.toMatchObject({ text: 'Halo' });

    const retrying = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    retrying.api.config.use(autoRetry({ maxRetryAttempts: 2, maxDelaySeconds: 5 }));
    api.inject429({ method: 'sendMessage', times: 1, retryAfter: 1 });
    await expect(retrying.api.sendMessage(user.id, 'Sabar')).resolves.toMatchObject({ text: 'Sabar' });
    const [limited, retried] = api.callsTo('sendMessage').slice(-2);
    expect(limited!.status).toBe(429);
    expect(retried!.status).toBe(200);
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(950);
  });

  it('enforceLimits: a second message to a private chat within 1 s answers 429', async () => {
    let clock = 1_700_000_000_000;
    const api = await emulator({ enforceLimits: true, now: () => clock });
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const a = api.createUser({ firstName: 'A' });
    const b = api.createUser({ firstName: 'B' });

    await bot.api.sendMessage(a.id, 'satu');
    clock += 999;
    const error = await grammyError(bot.api.sendMessage(a.id, 'dua'));
    expect(error).toMatchObject({ error_code: 429, parameters: { retry_after: 1 } });
    expect(api.calls.at(-1)?.injected).toBe('limit');
    await bot.api.sendMessage(b.id, 'ke chat lain boleh');
    clock += 1;
    await bot.api.sendMessage(a.id, 'dua');
    expect(api.sendTimes(a)).toEqual([1_700_000_000_000, 1_700_000_001_000]);
    expect(api.maxSendsInWindow(a, 1000)).toBe(1);
    expect(api.maxSendsInWindow('all', 1000)).toBe(2);
  });

  it('enforceLimits: 20 per minute per group and 30 per second overall', async () => {
    let clock = 1_700_000_000_000;
    const api = await emulator({ enforceLimits: true, now: () => clock });
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const owner = api.createUser({ firstName: 'O' });
    const group = api.createGroup({ title: 'G', members: [owner] });
    for (let i = 0; i < 20; i += 1) {
      await bot.api.sendMessage(group.id, `pesan ${i}`);
      clock += 1000;
    }
    const error = await grammyError(bot.api.sendMessage(group.id, 'kebanyakan'));
    expect(error.error_code).toBe(429);
    expect(error.parameters.retry_after).toBe(40);
    expect(api.maxSendsInWindow(group, 60_000)).toBe(20);

    const users = Array.from({ length: 31 }, (_, i) => api.createUser({ firstName: `U${i}` }));
    clock += 60_000;
    for (const user of users.slice(0, 30)) await bot.api.sendMessage(user.id, 'broadcast');
    const global = await grammyError(bot.api.sendMessage(users[30]!.id, 'broadcast'));
    expect(global.error_code).toBe(429);
  });

  it('deliverTo: retries a failing webhook and executes a method returned in the response body', async () => {
    const api = await emulator();
    const user = api.createUser({ firstName: 'W' });
    const received: Array<{ secret: string | undefined; body: { update_id: number; message?: { text?: string } } }> = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ secret: req.headers['x-telegram-bot-api-secret-token'] as string | undefined, body: JSON.parse(body) as never });
        if (received.length === 1) {
          res.writeHead(500).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: 'sendMessage', chat_id: user.id, text: 'balasan webhook' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push(() => new Promise((resolve) => server.close(() => resolve())));

    expect(() => api.deliverTo('https://example.com/hook')).toThrow(/not on loopback/);
    api.deliverTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, 'rahasia');
    const sent = user.send('halo');
    const reply = await api.waitForBotMessage(user, { after: sent });
    expect(reply.text).toBe('balasan webhook');
    expect(received.map((r) => [r.secret, r.body.message?.text])).toEqual([
      ['rahasia', 'halo'],
      ['rahasia', 'halo'],
    ]);
    expect(received[0]!.body.update_id).toBe(received[1]!.body.update_id);
    expect(api.webhook?.lastErrorMessage).toBe('Wrong response from the webhook: 500 Internal Server Error');
    expect(api.calls.at(-1)).toMatchObject({ method: 'sendMessage', via: 'webhook-reply', status: 200 });
    await api.waitForIdle();
  });

  it('injectError answers any Telegram error for a matching method', async () => {
    const api = await emulator();
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const user = api.createUser({ firstName: 'X' });
    const undo = api.injectError({ method: 'sendmessage', times: Infinity, errorCode: 502, description: 'Bad Gateway' });
    expect((await grammyError(bot.api.sendMessage(user.id, 'a'))).error_code).toBe(502);
    expect((await grammyError(bot.api.sendMessage(user.id, 'a'))).error_code).toBe(502);
    undo();
    await expect(bot.api.sendMessage(user.id, 'a')).resolves.toBeTruthy();
  });
});

// ---------------------------------------------------------------- validation like Telegram

describe('validation', () => {
  it('rejects empty text, too-long text, bad callback data, unknown chats and bad HTML like Telegram', async () => {
    const api = await emulator();
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const user = api.createUser({ firstName: 'V' });

    const cases: Array<[Promise<unknown>, number, string]> = [
      [bot.api.sendMessage(user.id, ''), 400, 'Bad Request: message text is empty'],
      [bot.api.sendMessage(user.id, '   \n'), 400, 'Bad Request: message text is empty'],
      [bot.api.sendMessage(user.id, 'x'.repeat(4097)), 400, 'Bad Request: message is too long'],
      [
        bot.api.sendMessage(user.id, 'ok', { reply_markup: new InlineKeyboard().text('Beli', 'x'.repeat(65)) }),
        400,
        'Bad Request: BUTTON_DATA_INVALID',
      ],
      [
        bot.api.sendMessage(user.id, 'ok', { reply_markup: { inline_keyboard: [[{ text: 'no action' } as never]] } }),
        400,
        'Bad Request: text buttons are unallowed in the inline keyboard',
      ],
      [bot.api.sendMessage(123, 'x'), 400, 'Bad Request: chat not found'],
      [
        bot.api.sendMessage(user.id, 'a <b>b', { parse_mode: 'HTML' }),
        400,
        `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
      ],
      [
        bot.api.sendMessage(user.id, 'Saldo Rp 10.000', { parse_mode: 'MarkdownV2' }),
        400,
        `Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'`,
      ],
      [bot.api.editMessageText(user.id, 42, 'x'), 400, 'Bad Request: message to edit not found'],
      [bot.api.answerCallbackQuery('123'), 400, 'Bad Request: query is too old and response timeout expired or query ID is invalid'],
    ];
    for (const [promise, code, description] of cases) {
      const error = await grammyError(promise);
      expect({ code: error.error_code, description: error.description }).toEqual({ code, description });
    }
    // 4096 characters are fine; 64 bytes of callback data too.
    await expect(bot.api.sendMessage(user.id, 'x'.repeat(4096))).resolves.toBeTruthy();
    await expect(
      bot.api.sendMessage(user.id, 'ok', { reply_markup: new InlineKeyboard().text('Beli', 'x'.repeat(64)) }),
    ).resolves.toBeTruthy();
    await expect(bot.api.sendMessage(user.id, 'Saldo Rp 10\\.000 *ok*', { parse_mode: 'MarkdownV2' })).resolves.toMatchObject({
      text: 'Saldo Rp 10.000 ok',
      entities: [{ type: 'bold', offset: 16, length: 2 }],
    });

    const stranger = api.createUser({ firstName: 'S', startedBot: false });
    const cannot = await grammyError(bot.api.sendMessage(stranger.id, 'promo'));
    expect(cannot).toMatchObject({ error_code: 403, description: "Forbidden: bot can't initiate conversation with a user" });
    await expect(api.waitForBotMessage(stranger, { timeoutMs: 30 })).rejects.toThrow(
      /no bot message in chat \d+ within 30 ms\. Pending updates: 0\. Last calls:\n {2}[\s\S]*-> 403 Forbidden: bot can't initiate/,
    );

    const unknown = await raw(api, 'sendTelepathy', { chat_id: user.id });
    expect(unknown).toEqual({ status: 404, json: { ok: false, error_code: 404, description: 'Not Found: method not found' } });
    expect(api.calls.at(-1)?.method).toBe('sendTelepathy');
    const wrongToken = await fetch(`${api.apiRoot}/bot1:wrong/getMe`);
    expect(wrongToken.status).toBe(401);
  });

  it('accepts urlencoded and multipart params (reply_markup as a JSON string, uploads via InputFile)', async () => {
    const api = await emulator();
    const user = api.createUser({ firstName: 'F' });
    const form = new URLSearchParams({
      chat_id: String(user.id),
      text: 'form',
      reply_markup: JSON.stringify({ inline_keyboard: [[{ text: 'Ya', callback_data: 'yes' }]] }),
      protect_content: 'true',
    });
    const response = await raw(api, 'sendMessage', undefined, { body: form });
    expect(response.json).toMatchObject({
      ok: true,
      result: { text: 'form', has_protected_content: true, reply_markup: { inline_keyboard: [[{ text: 'Ya' }]] } },
    });
    expect(api.calls.at(-1)?.params).toMatchObject({
      chat_id: user.id,
      protect_content: true,
      reply_markup: { inline_keyboard: [[{ callback_data: 'yes' }]] },
    });

    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const photo = await bot.api.sendPhoto(user.id, new InputFile(png, 'qris.png'), { caption: 'Scan QRIS <i>ini</i>', parse_mode: 'HTML' });
    expect(photo.caption).toBe('Scan QRIS ini');
    expect(photo.caption_entities).toEqual([{ type: 'italic', offset: 10, length: 3 }]);
    expect(photo.photo?.at(-1)?.file_size).toBe(png.length);
    // The file_id can be sent again; a URL is accepted without being fetched.
    await expect(bot.api.sendPhoto(user.id, photo.photo.at(-1)!.file_id)).resolves.toBeTruthy();
    await expect(bot.api.sendDocument(user.id, 'https://example.com/invoice.pdf')).resolves.toMatchObject({
      document: { file_name: 'invoice.pdf' },
    });
    const badFile = await grammyError(bot.api.sendPhoto(user.id, 'not-a-file-id'));
    expect(badFile.description).toBe('Bad Request: wrong file identifier/HTTP URL specified');
  });

  it('stores commands per scope and language, menu button, copyMessage and reactions', async () => {
    const api = await emulator();
    const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
    const user = api.createUser({ firstName: 'C' });
    expect(await bot.api.getMe()).toEqual(api.botInfo);
    await bot.api.setMyCommands([{ command: 'saldo', description: 'Cek saldo' }]);
    await bot.api.setMyCommands([{ command: 'balance', description: 'Check balance' }], { language_code: 'en' });
    await bot.api.setMyCommands([{ command: 'broadcast', description: 'Siarkan' }], { scope: { type: 'chat', chat_id: user.id } });
    expect(await bot.api.getMyCommands()).toEqual([{ command: 'saldo', description: 'Cek saldo' }]);
    expect(await bot.api.getMyCommands({ language_code: 'en' })).toEqual([{ command: 'balance', description: 'Check balance' }]);
    expect(api.myCommands({ type: 'chat', chat_id: user.id })).toEqual([{ command: 'broadcast', description: 'Siarkan' }]);
    expect((await grammyError(bot.api.setMyCommands([{ command: 'Bad Command', description: 'x' }]))).description).toBe(
      'Bad Request: BOT_COMMAND_INVALID',
    );
    await bot.api.deleteMyCommands({ language_code: 'en' });
    expect(await bot.api.getMyCommands({ language_code: 'en' })).toEqual([]);
    await expect(bot.api.setChatMenuButton({ menu_button: { type: 'commands' } })).resolves.toBe(true);

    const original = await bot.api.sendMessage(user.id, 'Struk #1', { entities: [{ type: 'bold', offset: 0, length: 5 }] });
    const copy = await bot.api.copyMessage(user.id, user.id, original.message_id);
    expect(api.message(user, copy.message_id)?.message).toMatchObject({
      text: 'Struk #1',
      entities: [{ type: 'bold', offset: 0, length: 5 }],
    });
    await bot.api.setMessageReaction(user.id, original.message_id, [{ type: 'emoji', emoji: '👍' }]);
    expect(api.message(user, original.message_id)?.botReactions).toEqual([{ type: 'emoji', emoji: '👍' }]);
    await expect(bot.api.sendChatAction(user.id, 'typing')).resolves.toBe(true);
    expect(await bot.api.getChat(user.id)).toMatchObject({ id: user.id, type: 'private', first_name: 'C' });
    expect(await bot.api.getChatMember(user.id, user.id)).toMatchObject({ status: 'member' });
  });
});

// ---------------------------------------------------------------- getUpdates semantics

describe('getUpdates', () => {
  it('confirms by offset, honours limit, long-polls until an update arrives, and ends on close', async () => {
    const api = await emulator();
    const user = api.createUser({ firstName: 'P' });
    user.send('satu');
    user.send('dua');
    const first = await raw(api, 'getUpdates', { limit: 1 });
    const firstUpdates = first.json.result as Array<{ update_id: number; message: { text: string } }>;
    expect(firstUpdates.map((u) => u.message.text)).toEqual(['satu']);
    // Not confirmed yet: asked again, it comes again.
    const both = (await raw(api, 'getUpdates', {})).json.result as typeof firstUpdates;
    expect(both.map((u) => u.message.text)).toEqual(['satu', 'dua']);
    const rest = (await raw(api, 'getUpdates', { offset: both[0]!.update_id + 1 })).json.result as typeof firstUpdates;
    expect(rest.map((u) => u.message.text)).toEqual(['dua']);

    // Long poll: answered as soon as an update arrives, not after the timeout.
    const offset = both[1]!.update_id + 1;
    const started = Date.now();
    const polling = raw(api, 'getUpdates', { offset, timeout: 20 });
    await api.waitFor(() => api.polling);
    user.send('tiga');
    const third = (await polling).json.result as typeof firstUpdates;
    expect(third.map((u) => u.message.text)).toEqual(['tiga']);
    expect(Date.now() - started).toBeLessThan(2000);

    // allowed_updates filters (and drops) other types.
    api.blockBot(user);
    const filtered = (await raw(api, 'getUpdates', { offset: third[0]!.update_id + 1, allowed_updates: ['message'] })).json
      .result as unknown[];
    expect(filtered).toEqual([]);

    // A pending long poll ends promptly (empty) when the emulator closes.
    const hanging = raw(api, 'getUpdates', { timeout: 50 });
    await api.waitFor(() => api.polling);
    const closedAt = Date.now();
    await api.close();
    expect((await hanging).json).toEqual({ ok: true, result: [] });
    expect(Date.now() - closedAt).toBeLessThan(1000);
  });

  it('a newer getUpdates ends an older one with 409 Conflict', async () => {
    const api = await emulator();
    const older = raw(api, 'getUpdates', { timeout: 30 });
    await api.waitFor(() => api.polling);
    const newer = await raw(api, 'getUpdates', { timeout: 0 });
    expect(newer.json).toEqual({ ok: true, result: [] });
    expect((await older).json).toMatchObject({ ok: false, error_code: 409 });
  });
});

describe('network delay', () => {
  it('adds a round trip to each call: half before it arrives (and is counted), half before its answer', async () => {
    // Each half trip waits until the test lets it go.
    const trips: Array<{ ms: number; go: () => void }> = [];
    const api = await emulator({ networkWait: (ms) => new Promise<void>((go) => trips.push({ ms, go })) });
    const user = api.createUser({ firstName: 'Budi' });
    api.setNetworkDelay(120);
    let answered = false;
    const answer = raw(api, 'sendMessage', { chat_id: user.id, text: 'halo' }).then((result) => ((answered = true), result));
    await api.waitFor(() => trips.length === 1);
    // On its way there: not arrived, not counted, no message yet.
    expect(trips[0]!.ms).toBe(60);
    expect(api.callsTo('sendMessage')).toEqual([]);
    trips[0]!.go();
    await api.waitFor(() => trips.length === 2);
    // Arrived and handled; the answer is on its way back.
    expect(api.callsTo('sendMessage')).toHaveLength(1);
    expect(api.messages(user).map((m) => m.text)).toEqual(['halo']);
    expect(answered).toBe(false);
    trips[1]!.go();
    expect((await answer).json).toMatchObject({ ok: true });
    // Off again: no more waits.
    api.setNetworkDelay(0);
    await raw(api, 'getMe');
    expect(trips).toHaveLength(2);
  });
});
