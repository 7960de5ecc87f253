/**
 * The outbox against the Bot API emulator over loopback, with a real store in a temp directory:
 * delivery once and in order, Telegram's limits, 429/403/migration/edit errors, back-off, restart.
 */
import { dbOf } from '../store/helpers.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Api } from 'grammy';
import { autoRetry } from '@grammyjs/auto-retry';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { htmlParseMode } from '../../src/text/html.ts';
import { createOutbox, type Outbox, type OutboxOptions } from '../../src/notify/outbox.ts';
import type { OutboxPayload } from '../../src/notify/payload.ts';
import { startBotApi, type BotApiEmulator, type BotApiOptions, type ChatRef } from '../../tools/playground/bot-api.ts';
import { hotFileName, type Store } from '../../src/store/store.ts';
import { createTempDirs, openTestStore } from '../store/helpers.ts';
import { stringContaining } from '../helpers/matchers.ts';
import { testClock } from '../helpers/settlement.ts';
import { createClaimHolder } from '../../src/store/claim-holder.ts';
import { createRateGate } from '../../src/notify/rate-gate.ts';
import { createFleetGate } from '../../src/notify/fleet-gate.ts';
import { createLocalSendSlots } from '../../src/store/send-slots.ts';
import { createTestDisk, type TestDisk } from '../helpers/disk.ts';

/** Short windows so a test of the pacing runs in about a second. */
const fastLimits = { perChatMs: 25, perGroupPerMinute: 8, groupWindowMs: 300, globalPerSecond: 10, globalWindowMs: 100 };
const fastRetry = { baseMs: 20, maxMs: 100 };

const dirs = createTempDirs();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  dirs.cleanup();
});

interface Setup {
  telegram: BotApiEmulator;
  store: Store;
  dataDir: string;
  logs: Array<{ level: string; msg: string } & Record<string, unknown>>;
  api: Api;
  /** Creates (not starts) an outbox on the current store; stopped after the test. */
  outbox(options?: Partial<OutboxOptions>): Outbox;
  /** Closes the store and opens it again from disk (a restart). */
  reopen(): Promise<Store>;
}

async function setup(telegramOptions: BotApiOptions = {}, disk?: TestDisk): Promise<Setup> {
  const telegram = await startBotApi(telegramOptions);
  const dataDir = dirs.make();
  let { store } = await openTestStore(dataDir, disk ? { writeFile: disk.write } : {});
  const logs: Setup['logs'] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(JSON.parse(line) as Setup['logs'][number]) });
  const api = new Api(telegram.token, { apiRoot: telegram.apiRoot });
  const outboxes: Outbox[] = [];
  cleanups.push(async () => {
    await Promise.all(outboxes.map((outbox) => outbox.stop()));
    await store.close();
    await telegram.close();
  });
  return {
    telegram,
    get store() {
      return store;
    },
    dataDir,
    logs,
    api,
    outbox(options = {}) {
      const outbox = createOutbox({ api, db: dbOf(store), logger, limits: fastLimits, retry: fastRetry, ...options });
      outboxes.push(outbox);
      return outbox;
    },
    async reopen() {
      await store.close();
      ({ store } = await openTestStore(dataDir));
      return store;
    },
  };
}

const send = (text: string, extra: Partial<Extract<OutboxPayload, { type: 'send' }>> = {}): OutboxPayload => ({
  type: 'send',
  text,
  ...extra,
});

async function enqueueTexts(store: Store, chatId: number, texts: string[], kind = 'test'): Promise<void> {
  for (const text of texts) await store.outbox.enqueue({ chatId, kind, payload: send(text) });
}

const botTexts = (telegram: BotApiEmulator, chat: ChatRef) => telegram.botMessages(chat).map((m) => m.text);
const sendCalls = (telegram: BotApiEmulator, chat: ChatRef) => {
  const id = typeof chat === 'number' ? chat : chat.id;
  return telegram.calls.filter((c) => c.method === 'sendMessage' && Number(c.params.chat_id) === id);
};
const range = (n: number, label: string) => Array.from({ length: n }, (_, i) => `${label} #${i + 1}`);

describe('outbox delivery', () => {
  it('delivers 50 messages to 5 users and 30 to a group once each, in order per chat, within the limits', async () => {
    const s = await setup();
    const users = ['Budi', 'Siti', 'Agus', 'Dewi', 'Rina'].map((firstName) => s.telegram.createUser({ firstName }));
    const group = s.telegram.createGroup({ title: 'Konter Budi', members: users });
    // Interleaved, as settlements of many users would arrive.
    const writes: Array<Promise<unknown>> = [];
    for (let i = 1; i <= 30; i++) {
      if (i <= 10)
        for (const user of users)
          writes.push(s.store.outbox.enqueue({ chatId: user.id, kind: 'test', payload: send(`${user.user.first_name} #${i}`) }));
      writes.push(s.store.outbox.enqueue({ chatId: group.id, kind: 'group', payload: send(`group #${i}`) }));
    }
    await Promise.all(writes);
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 8000 });

    for (const user of users) {
      expect(botTexts(s.telegram, user)).toEqual(range(10, user.user.first_name));
      expect(sendCalls(s.telegram, user)).toHaveLength(10);
      expect(s.telegram.maxSendsInWindow(user, fastLimits.perChatMs)).toBe(1);
    }
    expect(botTexts(s.telegram, group)).toEqual(range(30, 'group'));
    expect(sendCalls(s.telegram, group)).toHaveLength(30);
    expect(s.telegram.maxSendsInWindow(group, fastLimits.perChatMs)).toBe(1);
    expect(s.telegram.maxSendsInWindow(group, fastLimits.groupWindowMs)).toBeLessThanOrEqual(fastLimits.perGroupPerMinute);
    expect(s.telegram.maxSendsInWindow('all', fastLimits.globalWindowMs)).toBeLessThanOrEqual(fastLimits.globalPerSecond);
    expect(s.store.outbox.size()).toBe(0);
  });

  it("keeps Telegram's real limits: at most 1 message per second per chat", async () => {
    const s = await setup({ enforceLimits: true });
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const siti = s.telegram.createUser({ firstName: 'Siti' });
    const group = s.telegram.createGroup({ title: 'Konter', members: [budi] });
    await enqueueTexts(s.store, budi.id, range(3, 'budi'));
    await enqueueTexts(s.store, siti.id, range(2, 'siti'));
    await enqueueTexts(s.store, group.id, range(2, 'group'));
    const outbox = s.outbox({ limits: {}, retry: {} });
    outbox.start();
    await outbox.drain({ timeoutMs: 5000 });

    expect(botTexts(s.telegram, budi)).toEqual(range(3, 'budi'));
    expect(botTexts(s.telegram, siti)).toEqual(range(2, 'siti'));
    expect(botTexts(s.telegram, group)).toEqual(range(2, 'group'));
    for (const chat of [budi, siti, group]) expect(s.telegram.maxSendsInWindow(chat, 1000)).toBe(1);
    // The emulator enforces the limits too: it never had to refuse a message.
    expect(s.telegram.calls.filter((c) => c.status === 429)).toEqual([]);
  });

  it('sends photos with a caption, inline keyboards and silent messages', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const keyboard = { inline_keyboard: [[{ text: 'Cek status', callback_data: 'status:1' }]] };
    await s.store.outbox.enqueue({
      chatId: budi.id,
      kind: 'promo',
      payload: send('<b>Promo</b>', { parseMode: 'HTML', photo: 'https://example.com/promo.png', replyMarkup: keyboard }),
    });
    await s.store.outbox.enqueue({
      chatId: budi.id,
      kind: 'note',
      payload: send('Lihat https://example.com', { linkPreview: false, silent: true }),
    });
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    const [photo, note] = s.telegram.botMessages(budi);
    expect(photo?.method).toBe('sendPhoto');
    expect(photo?.text).toBe('Promo');
    expect(photo?.buttons).toEqual([['Cek status']]);
    expect(note?.text).toBe('Lihat https://example.com');
    const call = s.telegram.callsTo('sendMessage').at(-1);
    expect(call?.params).toMatchObject({ disable_notification: true, link_preview_options: { is_disabled: true } });
  });

  it('waits out a 429 for that chat only, then delivers once; nothing is dropped', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const siti = s.telegram.createUser({ firstName: 'Siti' });
    s.telegram.inject429({ method: 'sendMessage', chatId: budi, times: 1, retryAfter: 1 });
    await enqueueTexts(s.store, budi.id, range(2, 'budi'));
    await enqueueTexts(s.store, siti.id, range(2, 'siti'));
    const outbox = s.outbox();
    outbox.start();

    // While waiting, the item stays queued with its wait recorded (so a restart keeps waiting).
    const waiting = await vi.waitFor(() => {
      const item = s.store.outbox.list().find((i) => i.attempts === 1);
      if (!item) throw new Error('no item waiting yet');
      return item;
    });
    expect(waiting).toMatchObject({ chatId: budi.id, payload: { text: 'budi #1' } });
    expect(Date.parse(waiting.notBefore ?? '')).toBeGreaterThan(Date.now() + 500);
    await outbox.drain({ timeoutMs: 4000 });

    expect(botTexts(s.telegram, budi)).toEqual(range(2, 'budi'));
    expect(botTexts(s.telegram, siti)).toEqual(range(2, 'siti'));
    const calls = sendCalls(s.telegram, budi);
    expect(calls.map((c) => c.status)).toEqual([429, 200, 200]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1000);
    // Siti was not held up by Budi's 429.
    expect(Math.max(...s.telegram.sendTimes(siti))).toBeLessThan(calls[1]!.at);
    expect(s.store.outbox.size()).toBe(0);
  });

  it('marks a user who blocked the bot inactive, drops their items, and still serves the others', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const siti = s.telegram.createUser({ firstName: 'Siti' });
    for (const user of [budi, siti]) await s.store.users.upsert({ id: user.id, firstName: user.user.first_name });
    s.telegram.blockBot(budi);
    await enqueueTexts(s.store, budi.id, range(2, 'budi'));
    await enqueueTexts(s.store, siti.id, range(2, 'siti'));
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    expect(s.store.users.get(budi.id)?.active).toBe(false);
    expect(s.store.users.get(siti.id)?.active).toBe(true);
    expect(botTexts(s.telegram, budi)).toEqual([]);
    expect(botTexts(s.telegram, siti)).toEqual(range(2, 'siti'));
    expect(s.store.outbox.size()).toBe(0);
  });

  it('calls onBlocked for a group that removed the bot and drops its items', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const group = s.telegram.createGroup({ title: 'Konter', members: [budi] });
    s.telegram.removeBotFromGroup(group, { by: budi });
    await enqueueTexts(s.store, group.id, ['lunas']);
    const onBlocked = vi.fn();
    const outbox = s.outbox({ onBlocked });
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    expect(onBlocked).toHaveBeenCalledWith(group.id);
    expect(s.store.outbox.size()).toBe(0);
  });

  it('follows a group that became a supergroup: every queued item goes to the new id, in order', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const group = s.telegram.createGroup({ title: 'Konter', type: 'group', members: [budi] });
    const supergroup = s.telegram.migrateGroup(group);
    await enqueueTexts(s.store, group.id, range(3, 'group'));
    const onMigrated = vi.fn();
    const outbox = s.outbox({ onMigrated });
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    expect(onMigrated).toHaveBeenCalledTimes(1);
    expect(onMigrated).toHaveBeenCalledWith(group.id, supergroup.id);
    expect(botTexts(s.telegram, supergroup)).toEqual(range(3, 'group'));
    expect(s.store.outbox.size()).toBe(0);
  });
});

describe('outbox edits', () => {
  it('edits the message the user saw', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const pending = await s.api.sendMessage(budi.id, '⏳ Pending');
    await s.store.outbox.enqueue({
      chatId: budi.id,
      kind: 'settlement-edit',
      payload: { type: 'edit', messageId: pending.message_id, text: '✅ <b>Sukses</b>', parseMode: 'HTML' },
    });
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    const message = s.telegram.message(budi, pending.message_id);
    expect(message?.text).toBe('✅ Sukses');
    expect(message?.editedAt).toBeDefined();
    expect(s.telegram.botMessages(budi)).toHaveLength(1);
    expect(s.store.outbox.size()).toBe(0);
  });

  it('drops an edit of a deleted message without holding up the queue; sendIfGone sends it instead', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const first = await s.api.sendMessage(budi.id, '⏳ Pending 1');
    const second = await s.api.sendMessage(budi.id, '⏳ Pending 2');
    await s.api.deleteMessage(budi.id, first.message_id);
    await s.api.deleteMessage(budi.id, second.message_id);
    await s.store.outbox.enqueue({
      chatId: budi.id,
      kind: 'edit',
      payload: { type: 'edit', messageId: first.message_id, text: 'Sukses 1' },
    });
    await s.store.outbox.enqueue({
      chatId: budi.id,
      kind: 'edit',
      payload: { type: 'edit', messageId: second.message_id, text: 'Sukses 2', sendIfGone: true },
    });
    await enqueueTexts(s.store, budi.id, ['after']);
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    expect(
      s.telegram
        .botMessages(budi)
        .filter((m) => !m.deleted)
        .map((m) => m.text),
    ).toEqual(['Sukses 2', 'after']);
    expect(s.telegram.callsTo('editMessageText').map((c) => c.status)).toEqual([400, 400]);
    expect(s.store.outbox.size()).toBe(0);
    expect(s.logs.some((line) => line.msg.startsWith('edit not applied'))).toBe(true);
  });

  it('treats "message is not modified" as done', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const message = await s.api.sendMessage(budi.id, 'Sukses');
    await s.store.outbox.enqueue({
      chatId: budi.id,
      kind: 'edit',
      payload: { type: 'edit', messageId: message.message_id, text: 'Sukses' },
    });
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });
    expect(s.store.outbox.size()).toBe(0);
    expect(s.telegram.callsTo('editMessageText')).toHaveLength(1);
  });
});

describe('outbox replies', () => {
  it('sends a message as a reply to an earlier one, and still sends it when that one is gone', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const receipt = await s.api.sendMessage(budi.id, 'Struk');
    const gone = await s.api.sendMessage(budi.id, 'Struk lama');
    await s.api.deleteMessage(budi.id, gone.message_id);
    await s.store.outbox.enqueue({ chatId: budi.id, kind: 'settlement', payload: send('✅ Sukses', { replyTo: receipt.message_id }) });
    await s.store.outbox.enqueue({ chatId: budi.id, kind: 'settlement', payload: send('✅ Sukses lagi', { replyTo: gone.message_id }) });
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    const [ping, orphan] = s.telegram.botMessages(budi).filter((m) => m.text?.startsWith('✅'));
    expect(ping?.message.reply_to_message?.message_id).toBe(receipt.message_id);
    expect(orphan?.text).toBe('✅ Sukses lagi');
    expect(orphan?.message.reply_to_message).toBeUndefined();
    expect(s.store.outbox.size()).toBe(0);
  });
});

describe('outbox failures and restarts', () => {
  it('warns when its Api has a retrying transformer (auto-retry would wait out 429s twice), not for the HTML parse-mode transformer', async () => {
    const s = await setup();
    const warnings = () => s.logs.filter((line) => line.level === 'warn' && line.msg.includes('transformers'));
    const html = new Api(s.telegram.token, { apiRoot: s.telegram.apiRoot });
    html.config.use(htmlParseMode);
    s.outbox({ api: html });
    expect(warnings()).toHaveLength(0);
    const retrying = new Api(s.telegram.token, { apiRoot: s.telegram.apiRoot });
    retrying.config.use(htmlParseMode, autoRetry());
    s.outbox({ api: retrying });
    expect(warnings()).toHaveLength(1);
  });

  it('retries network-side failures (5xx) with back-off and delivers once', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    s.telegram.injectError({ method: 'sendMessage', chatId: budi, times: 2, errorCode: 502, description: 'Bad Gateway' });
    await enqueueTexts(s.store, budi.id, range(2, 'budi'));
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    expect(botTexts(s.telegram, budi)).toEqual(range(2, 'budi'));
    expect(sendCalls(s.telegram, budi).map((c) => c.status)).toEqual([502, 502, 200, 200]);
    expect(s.logs.filter((line) => line.msg.startsWith('sending a notification failed')).map((line) => line.attempts)).toEqual([1, 2]);
  });

  it('retries when Telegram cannot be reached at all', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    await enqueueTexts(s.store, budi.id, ['budi #1']);
    // Nothing listens on port 9 of loopback: every request fails on the network.
    const outbox = s.outbox({
      api: new Api(s.telegram.token, { apiRoot: 'http://127.0.0.1:9' }),
      retry: { ...fastRetry, giveUpAfterMs: 60_000 },
    });
    outbox.start();
    await vi.waitFor(() => expect(s.store.outbox.list()[0]?.attempts).toBeGreaterThanOrEqual(2));
    await outbox.stop();
    const [item] = s.store.outbox.list();
    expect(item).toMatchObject({ payload: { text: 'budi #1' } });
    expect(item?.failingSince).toBeDefined();

    // Back on the real server: the same item goes out once.
    const next = s.outbox();
    next.start();
    await next.drain({ timeoutMs: 3000 });
    expect(botTexts(s.telegram, budi)).toEqual(['budi #1']);
  });

  it('gives up on an item that keeps failing past giveUpAfterMs, with an error log, and moves on', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    s.telegram.injectError({ method: 'sendMessage', chatId: budi, times: Infinity, errorCode: 500, description: 'Internal Server Error' });
    await enqueueTexts(s.store, budi.id, ['doomed']);
    const outbox = s.outbox({ retry: { ...fastRetry, giveUpAfterMs: 150 } });
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });
    expect(s.store.outbox.size()).toBe(0);
    expect(s.logs.find((line) => line.msg.startsWith('giving up'))).toMatchObject({ level: 'error', chatId: budi.id });

    s.telegram.clearFaults();
    await enqueueTexts(s.store, budi.id, ['next']);
    outbox.kick();
    await outbox.drain({ timeoutMs: 3000 });
    expect(botTexts(s.telegram, budi)).toEqual(['next']);
  });

  it('drops malformed items and messages Telegram refuses, without blocking the chat', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    await s.store.outbox.enqueue({ chatId: budi.id, kind: 'bad', payload: { type: 'shout', text: 'hi' } });
    await s.store.outbox.enqueue({ chatId: budi.id, kind: 'bad-html', payload: send('<b>unclosed', { parseMode: 'HTML' }) });
    await enqueueTexts(s.store, budi.id, ['fine']);
    const outbox = s.outbox();
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });

    expect(botTexts(s.telegram, budi)).toEqual(['fine']);
    expect(s.store.outbox.size()).toBe(0);
    expect(s.logs.find((line) => line.kind === 'bad')).toMatchObject({ level: 'error' });
    expect(s.logs.find((line) => line.kind === 'bad-html')).toMatchObject({
      level: 'warn',
      description: stringContaining("can't parse entities"),
    });
  });

  it('sends an item scheduled for later when it is due, without holding up the chat', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    // The outbox's wall clock is the test's: the reminder is due when the test says so, however
    // slowly the machine runs until then.
    const clock = testClock();
    await s.store.outbox.enqueue({
      chatId: budi.id,
      kind: 'reminder',
      payload: send('reminder'),
      notBefore: new Date(clock.now().getTime() + 60_000).toISOString(),
    });
    await enqueueTexts(s.store, budi.id, ['now']);
    const outbox = s.outbox({ now: clock.now });
    outbox.start();
    await outbox.drain({ timeoutMs: 3000 });
    expect(botTexts(s.telegram, budi)).toEqual(['now']);
    expect(s.store.outbox.size()).toBe(1);

    clock.advance(59_000);
    outbox.kick();
    await outbox.drain({ timeoutMs: 3000 });
    expect(botTexts(s.telegram, budi)).toEqual(['now']);

    clock.advance(1_000);
    outbox.kick();
    await s.telegram.waitForBotMessage(budi, { textIncludes: 'reminder', timeoutMs: 3000 });
    await outbox.drain({ timeoutMs: 3000 });
    expect(botTexts(s.telegram, budi)).toEqual(['now', 'reminder']);
    expect(s.store.outbox.size()).toBe(0);
  });

  it('resumes after a restart: queued items are delivered once, a 429 wait is kept', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    const siti = s.telegram.createUser({ firstName: 'Siti' });
    const first = s.outbox();
    first.start();
    await enqueueTexts(s.store, budi.id, ['budi #1']);
    first.kick();
    await first.drain({ timeoutMs: 3000 });

    // Budi's next message hits a 429. Then the process stops.
    s.telegram.inject429({ method: 'sendMessage', chatId: budi, times: 1, retryAfter: 1 });
    await enqueueTexts(s.store, budi.id, ['budi #2', 'budi #3']);
    first.kick();
    await vi.waitFor(() => expect(s.store.outbox.list().some((i) => i.attempts === 1)).toBe(true));
    await first.stop();
    const stoppedAt = Date.now();
    // Siti's are queued after the outbox stopped (a settlement written during the shutdown). Queued
    // while it ran, they would be taken by its next pass - the one that follows the 429's record
    // reaching the disk, which on a loaded machine comes after the check above saw it in memory.
    await enqueueTexts(s.store, siti.id, range(2, 'siti'));
    expect(botTexts(s.telegram, siti)).toEqual([]);

    const store = await s.reopen();
    expect(store.outbox.size()).toBe(4);
    const second = s.outbox({ db: dbOf(store) });
    second.start();
    await second.drain({ timeoutMs: 4000 });

    expect(botTexts(s.telegram, budi)).toEqual(range(3, 'budi'));
    expect(botTexts(s.telegram, siti)).toEqual(range(2, 'siti'));
    const budiCalls = sendCalls(s.telegram, budi);
    expect(budiCalls.map((c) => c.status)).toEqual([200, 429, 200, 200]);
    // The wait Telegram asked for outlived the restart.
    expect(budiCalls[2]!.at - budiCalls[1]!.at).toBeGreaterThanOrEqual(1000);
    expect(budiCalls[2]!.at).toBeGreaterThanOrEqual(stoppedAt);
    expect(store.outbox.size()).toBe(0);
  });

  it('never has more than maxUnrecorded sends whose removal is not on disk (what a kill -9 could repeat)', async () => {
    const s = await setup();
    const users = Array.from({ length: 30 }, (_, i) => s.telegram.createUser({ firstName: `User ${i}` }));
    for (const user of users) await s.store.outbox.enqueue({ chatId: user.id, kind: 'test', payload: send(`hai ${user.id}`) });
    const bound = 3;
    // Before each request: the chats already sent to whose item is still in the file on disk, plus this one.
    const started = new Set<number>();
    const unrecordedAtEachSend: number[] = [];
    const api = new Api(s.telegram.token, { apiRoot: s.telegram.apiRoot });
    api.config.use(async (prev, method, payload, signal) => {
      if (method === 'sendMessage') {
        const chatId = Number((payload as { chat_id: number }).chat_id);
        const onDisk = JSON.parse(readFileSync(path.join(s.dataDir, hotFileName), 'utf8')) as {
          outbox: Record<string, { chatId: number }>;
        };
        const pending = new Set(Object.values(onDisk.outbox).map((item) => item.chatId));
        started.add(chatId);
        unrecordedAtEachSend.push([...started].filter((id) => pending.has(id)).length);
      }
      return prev(method, payload, signal);
    });
    const lifted = { perChatMs: 0, perGroupPerMinute: 1000, globalPerSecond: 1000 };
    const outbox = s.outbox({ api, limits: lifted, maxUnrecorded: bound });
    outbox.start();
    await outbox.drain({ timeoutMs: 10_000 });

    for (const user of users) expect(botTexts(s.telegram, user)).toEqual([`hai ${user.id}`]);
    expect(unrecordedAtEachSend).toHaveLength(30);
    expect(Math.max(...unrecordedAtEachSend)).toBeLessThanOrEqual(bound);
    // The bound was actually reached (sends overlap), so the check above is not vacuous.
    expect(Math.max(...unrecordedAtEachSend)).toBe(bound);
  });

  it('a removal that cannot be written (disk full) stops sending: nothing is sent twice, at most maxUnrecorded sends go unrecorded, all goes out once the disk works', async () => {
    const disk = createTestDisk();
    const s = await setup({}, disk);
    const users = Array.from({ length: 30 }, (_, i) => s.telegram.createUser({ firstName: `User ${i}` }));
    for (const user of users) await s.store.outbox.enqueue({ chatId: user.id, kind: 'test', payload: send(`hai ${user.id}`) });
    const bound = 3;
    /** Sends whose item was still in the file on disk when the disk filled up, plus those made after. */
    const onDisk = () =>
      new Set(
        Object.values(
          (JSON.parse(readFileSync(path.join(s.dataDir, hotFileName), 'utf8')) as { outbox: Record<string, { chatId: number }> }).outbox,
        ).map((item) => item.chatId),
      );
    const api = new Api(s.telegram.token, { apiRoot: s.telegram.apiRoot });
    api.config.use(async (prev, method, payload, signal) => {
      // The disk fills up right before the fifth message.
      if (method === 'sendMessage' && s.telegram.callsTo('sendMessage').length === 4) disk.setFull(true);
      return prev(method, payload, signal);
    });
    const lifted = { perChatMs: 0, perGroupPerMinute: 1000, globalPerSecond: 1000 };
    const outbox = s.outbox({ api, limits: lifted, maxUnrecorded: bound });
    outbox.start();
    // The removals are written again and again while the disk is full.
    await s.telegram.waitFor(() => disk.failed.length >= 8, { timeoutMs: 10_000 });
    const sentWhileFull = s.telegram.callsTo('sendMessage').map((call) => Number(call.params.chat_id));
    expect(new Set(sentWhileFull).size, 'no message is sent twice').toBe(sentWhileFull.length);
    // What a kill -9 now would send again: the chats sent to whose item is still on disk.
    const pending = onDisk();
    expect(sentWhileFull.filter((chatId) => pending.has(chatId)).length).toBeLessThanOrEqual(bound);
    expect(s.logs).toContainEqual(
      expect.objectContaining({ level: 'error', msg: stringContaining('no message is sent until it can be recorded'), errno: 'ENOSPC' }),
    );

    disk.setFull(false);
    await outbox.drain({ timeoutMs: 10_000 });
    for (const user of users) expect(botTexts(s.telegram, user)).toEqual([`hai ${user.id}`]);
    expect(s.store.outbox.size()).toBe(0);
    expect(s.logs).toContainEqual(expect.objectContaining({ level: 'info', msg: 'recording works again; sending resumes' }));
  });

  it('an instance paused past its claim while waiting for a send slot sends nothing when it wakes; the item goes out once when the claim is taken again', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    await enqueueTexts(s.store, budi.id, ['Sukses: TSEL10']);
    // The process's own clock: the pause shows as a gap in it, as a SIGSTOP or a long GC would.
    let elapsed = 0;
    const holder = createClaimHolder({ instanceId: 'a', leaseMs: 100, renew: () => Promise.resolve(), elapsed: () => elapsed });
    let paused = true;
    // A fleet's gate whose first shared slot comes only after the pause: it outlasts the lease, and the claim is gone on waking.
    const slots = createLocalSendSlots();
    const outbox = s.outbox({
      claims: holder,
      gate: createFleetGate({
        local: createRateGate({ limits: fastLimits }),
        slots: {
          reserve: (...args: Parameters<typeof slots.reserve>) => {
            if (paused) elapsed += 1000;
            paused = false;
            return slots.reserve(...args);
          },
        },
        limits: { perSecond: 10, perChatMs: 25, perGroupPerMinute: 8 },
      }),
    });
    outbox.start();
    await vi.waitFor(() =>
      expect(s.logs.map((l) => l.msg)).toContain(
        'claim on a notification lost before it was sent (this instance was paused past its lease): not sent here',
      ),
    );
    expect(sendCalls(s.telegram, budi)).toHaveLength(0);
    // The item is still queued: the heartbeat takes a new token and the next claim of it sends it, once.
    await holder.beat();
    outbox.kick();
    await outbox.drain({ timeoutMs: 8000 });
    expect(botTexts(s.telegram, budi)).toEqual(['Sukses: TSEL10']);
  });

  it('stop() waits for the call in flight and leaves the rest queued', async () => {
    const s = await setup();
    const budi = s.telegram.createUser({ firstName: 'Budi' });
    await enqueueTexts(s.store, budi.id, range(3, 'budi'));
    const outbox = s.outbox({ limits: { ...fastLimits, perChatMs: 10_000 } });
    outbox.start();
    await s.telegram.waitFor(() => s.telegram.callsTo('sendMessage').length === 1);
    await outbox.stop();
    expect(botTexts(s.telegram, budi)).toEqual(['budi #1']);
    expect(s.store.outbox.list().map((i) => (i.payload as { text: string }).text)).toEqual(['budi #2', 'budi #3']);
    await expect(outbox.drain()).rejects.toThrow(/not running/);
  });
});
