import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Bot, type ApiCallFn, type RawApi, type Transformer } from 'grammy';
import type { Update } from 'grammy/types';
import type { HandleUpdate } from '../../src/server/pipeline-stage.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InboxDb } from '../../src/store/db.ts';
import { openContractInbox, type ContractInbox } from '../helpers/contract-inbox.ts';
import { inboxFileName } from '../../src/store/inbox.ts';
import { readInboxLog } from '../../src/store/inbox-log.ts';
import { createVault } from '../../src/store/vault.ts';
import {
  claimGuard,
  createUpdateClaims,
  inboxGetUpdatesTransformer,
  markDoneAfterHandling,
  mayMoveMoney,
  replayInbox,
  runUpdatesInChatTurns,
} from '../../src/server/update-inbox.ts';
import { createLocalChatLocks } from '../../src/store/chat-locks.ts';
import { createClaimHolder } from '../../src/store/claim-holder.ts';
import { createLogger } from '../../src/logger.ts';
import { dataDirectoryOf, startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, eventually, waitForSummary } from '../helpers/buy.ts';
import { privateTextUpdate } from '../helpers/updates.ts';
import { startHttpServer, type HttpServer } from '../../src/server/http.ts';
import { enospc } from '../helpers/disk.ts';

const vault = createVault({ key: Buffer.alloc(32, 9) });
const privateText = (id: number, text = 'hi'): Update => privateTextUpdate(id, text, { id: 5, firstName: 'A' });
const groupText = (id: number): Update => ({
  update_id: id,
  message: {
    message_id: id,
    date: 0,
    chat: { id: -9, type: 'group', title: 'G' },
    from: { id: 5, is_bot: false, first_name: 'A' },
    text: 'hello',
  },
});
const tap = (id: number): Update => ({
  update_id: id,
  callback_query: { id: `q${id}`, chat_instance: 'c', from: { id: 5, is_bot: false, first_name: 'A' }, data: 'buy:ok:x' },
});

describe('getUpdates transformer of the inbox', () => {
  let dir: string;
  let opened: ContractInbox;
  let inbox: InboxDb;
  /** What the fake Telegram answers next, and every payload it was called with. */
  let answers: Update[][];
  let payloads: Array<Record<string, unknown>>;
  const prev = (method: string, payload: Record<string, unknown>) => {
    payloads.push({ method, ...payload });
    return Promise.resolve({ ok: true as const, result: method === 'getUpdates' ? (answers.shift() ?? []) : true });
  };
  // The fake answers every method alike: it stands in for grammY's per-method generic call
  // function, and the test's plain method names and payloads for the per-method types.
  const call = (transformer: Transformer, method: string, payload: Record<string, unknown>) =>
    transformer(prev as unknown as ApiCallFn, method as keyof RawApi, payload as never) as Promise<{ ok: true; result: Update[] }>;
  const idsOnDisk = async () => [...((await readInboxLog(path.join(dir, inboxFileName)))?.entries.keys() ?? [])].sort((a, b) => a - b);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-inbox-tf-'));
    opened = await openContractInbox(dir, vault);
    inbox = opened.inbox;
    answers = [];
    payloads = [];
  });
  afterEach(async () => {
    await opened.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps callback queries and private messages, not group messages', () => {
    expect([mayMoveMoney(privateText(1)), mayMoveMoney(tap(2)), mayMoveMoney(groupText(3))]).toEqual([true, true, false]);
  });

  it('writes the updates that may move money to disk before the runner gets them', async () => {
    const transformer = inboxGetUpdatesTransformer(inbox);
    answers.push([privateText(100, 'PIN'), groupText(101), tap(102)]);
    const answer = await call(transformer, 'getUpdates', { offset: 0, timeout: 30 });
    expect(answer.result.map((u) => u.update_id)).toEqual([100, 101, 102]);
    // Already on disk when the answer reaches the runner (which acknowledges it with its next call).
    expect(await idsOnDisk()).toEqual([100, 102]);
  });

  it('drops updates the inbox already holds and still moves the offset past them', async () => {
    await inbox.addUpdates([privateText(200), tap(201)]);
    const transformer = inboxGetUpdatesTransformer(inbox);
    // After a restart Telegram re-sends what was not acknowledged; the start replayed it already.
    answers.push([privateText(200), tap(201)], [privateText(202)]);
    const first = await call(transformer, 'getUpdates', { offset: 0 });
    expect(first.result).toEqual([]);
    // The runner saw nothing, so it asks with offset 0 again: the transformer acknowledges 200 and 201.
    const second = await call(transformer, 'getUpdates', { offset: 0 });
    expect(payloads[1]).toMatchObject({ method: 'getUpdates', offset: 202 });
    expect(second.result.map((u) => u.update_id)).toEqual([202]);
  });

  it('a later call forgets the done entries of all but one answer (getUpdates: at most 100), never one not done', async () => {
    const transformer = inboxGetUpdatesTransformer(inbox);
    const first = Array.from({ length: 100 }, (_, i) => privateText(300 + i));
    answers.push(first, [privateText(400), privateText(401)], []);
    await call(transformer, 'getUpdates', { offset: 0 });
    await call(transformer, 'getUpdates', { offset: 400 });
    // 300..399 and 401 handled; 400 still being handled.
    for (const update of [...first, privateText(401)]) void inbox.markDone(update.update_id);
    await opened.flush();
    await call(transformer, 'getUpdates', { offset: 402 });
    await opened.flush();
    // The newest 100 done ones stay to recognise a re-sent answer after a crash; 400 stays for the replay.
    expect(await idsOnDisk()).toEqual([...first.slice(1).map((u) => u.update_id), 400, 401]);
  });

  it('when the inbox cannot be written, the call fails and nothing is acknowledged', async () => {
    const broken: InboxDb = { ...inbox, has: () => Promise.resolve(false), addUpdates: () => Promise.reject(new Error('disk full')) };
    const transformer = inboxGetUpdatesTransformer(broken);
    answers.push([tap(400)], [tap(400)]);
    await expect(call(transformer, 'getUpdates', { offset: 0 })).rejects.toThrow('disk full');
    await expect(call(transformer, 'getUpdates', { offset: 0 })).rejects.toThrow('disk full');
    // The retry asked again from the same offset: update 400 stays with Telegram.
    expect(payloads.map((p) => p.offset)).toEqual([0, 0]);
  });

  it('leaves other methods alone', async () => {
    const transformer = inboxGetUpdatesTransformer(inbox);
    await call(transformer, 'sendMessage', { chat_id: 1, text: 'x' });
    expect(payloads).toEqual([{ method: 'sendMessage', chat_id: 1, text: 'x' }]);
  });
});

describe('one path for every update', () => {
  const botInfo = { id: 1, is_bot: true, first_name: 'K', username: 'k_bot' } as never;

  /** A bot whose handler records which updates run at once, with a store whose updates are all held by `owner`. */
  const fleetBot = (elapsed: () => number = () => 0) => {
    const bot = new Bot('1:test', { botInfo });
    const running = new Set<number>();
    const overlaps: number[][] = [];
    const handled: number[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    bot.use(async (ctx) => {
      running.add(ctx.update.update_id);
      if (running.size > 1) overlaps.push([...running]);
      if (ctx.update.update_id === 10) await gate;
      handled.push(ctx.update.update_id);
      running.delete(ctx.update.update_id);
    });
    const holder = createClaimHolder({ instanceId: 'b', leaseMs: 5000, renew: () => Promise.resolve(), elapsed });
    const claims = createUpdateClaims(holder, { track: true });
    const done = new Set<number>();
    const inbox = {
      holds: (id: number, owner: string) => Promise.resolve(!done.has(id) && owner === holder.lease().owner),
      markDone: (id: number) => Promise.resolve(void done.add(id)),
      claimUpdatesForReplay: () => Promise.resolve({ updates: [tap(11)], givenUp: [] }),
      earlierOpen: () => Promise.resolve(false),
    };
    // The pipeline's fleet stages, around the bot (update-pipeline.ts composes them the same way).
    const handle: HandleUpdate = runUpdatesInChatTurns(
      { chatLocks: createLocalChatLocks(), inbox },
      claims,
    )(
      markDoneAfterHandling(inbox, { claimOf: (id) => claims.take(id), again: (update) => handle(update) })((update) =>
        bot.handleUpdate(update),
      ),
    );
    return { handle, claims, holder, inbox, overlaps, handled, release, done };
  };

  it('a replayed update waits for the live update of the same chat and runs after it, never beside it', async () => {
    const { handle, claims, holder, inbox, overlaps, handled, release } = fleetBot();
    const liveTap = {
      ...tap(10),
      callback_query: {
        ...tap(10).callback_query!,
        message: { message_id: 1, date: 0, chat: { id: 5, type: 'private', first_name: 'A' } },
      },
    } as Update;
    claims.record(10, holder.lease().owner);
    const live = handle(liveTap);
    const replay = replayInbox(handle, inbox, createLogger({ level: 'error', write: () => undefined }), claims);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handled).toEqual([]);
    release();
    await Promise.all([live, replay]);
    expect(handled).toEqual([10, 11]);
    expect(overlaps).toEqual([]);
  });

  it('a later update of a chat waits while an earlier one of the same chat is held elsewhere, then runs after it', async () => {
    const holder = createClaimHolder({ instanceId: 'b', leaseMs: 5000, renew: () => Promise.resolve() });
    const claims = createUpdateClaims(holder, { track: true });
    // Update 30 of chat 5 reached another instance, which stored it and is handling it still.
    const openElsewhere = new Set([30]);
    const inbox = {
      holds: () => Promise.resolve(true),
      earlierOpen: (chatId: number, updateId: number) => Promise.resolve(chatId === 5 && [...openElsewhere].some((id) => id < updateId)),
    };
    const bot = new Bot('1:test', { botInfo });
    const handled: number[] = [];
    bot.use((ctx) => void handled.push(ctx.update.update_id));
    const handle = runUpdatesInChatTurns({ chatLocks: createLocalChatLocks(), inbox }, claims, { orderPollMs: 5 })((update) =>
      bot.handleUpdate(update),
    );
    claims.record(31, holder.lease().owner);
    const later = handle(tap(31));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(handled).toEqual([]);
    openElsewhere.delete(30);
    await later;
    expect(handled).toEqual([31]);
  });

  it('an update another handler finished while this one waited for the chat is not handled again', async () => {
    const { handle, claims, holder, handled, done } = fleetBot();
    claims.record(12, holder.lease().owner);
    done.add(12);
    await handle(tap(12));
    expect(handled).toEqual([]);
  });

  it('a process paused past its lease sends nothing for the update it was handling', async () => {
    let clock = 0;
    const holder = createClaimHolder({ instanceId: 'a', leaseMs: 5000, renew: () => Promise.resolve(), elapsed: () => clock });
    const claims = createUpdateClaims(holder, { track: true });
    const sent: string[] = [];
    const bot = new Bot('1:test', { botInfo });
    bot.api.config.use(() => {
      sent.push('sendMessage');
      return Promise.resolve({ ok: true, result: true } as never);
    });
    bot.api.config.use(claimGuard(holder));
    let resume: () => void = () => undefined;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    bot.on('callback_query', async (ctx) => {
      await ctx.api.sendMessage(5, 'before');
      await paused;
      await ctx.api.sendMessage(5, 'after the pause');
    });
    const inbox = { holds: () => Promise.resolve(true), markDone: () => Promise.resolve(false), earlierOpen: () => Promise.resolve(false) };
    const handle = runUpdatesInChatTurns({ chatLocks: createLocalChatLocks(), inbox }, claims)((update) => bot.handleUpdate(update));
    claims.record(20, holder.lease().owner);
    const handling = handle(tap(20));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual(['sendMessage']);
    // Stopped for three leases: no heartbeat ran meanwhile.
    clock += 15_000;
    resume();
    await expect(handling).rejects.toThrow(/claim on this update moved/);
    expect(sent).toEqual(['sendMessage']);
  });
});

describe('done marks', () => {
  it('a done mark that cannot be written (disk full) is written again until it lands', async () => {
    vi.useFakeTimers();
    try {
      const bot = new Bot('1:test', { botInfo: { id: 1, is_bot: true, first_name: 'K', username: 'k_bot' } as never });
      bot.on('message', () => undefined);
      const marked: number[] = [];
      let full = true;
      const inbox = {
        markDone: (id: number) => {
          if (full) return Promise.reject(enospc('/data/inbox.json'));
          marked.push(id);
          return Promise.resolve();
        },
      };
      const lines: string[] = [];
      const handle = markDoneAfterHandling(inbox, {
        logger: createLogger({ level: 'info', write: (line) => lines.push(line) }),
        again: () => Promise.resolve(),
      })((update) => bot.handleUpdate(update));
      await handle(privateText(500));
      await vi.advanceTimersByTimeAsync(5000);
      expect(marked).toEqual([]);
      expect(lines.join('\n')).toContain('the disk holding the data directory is full');
      full = false;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(marked).toEqual([500]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('inbox with the real bot', () => {
  let world: TestWorld;
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await world.stop();
  });

  it('a quick-buy stored but not handled before a crash is handled at the next start, in order, and marked done', async () => {
    world = await startWorld({ polling: false, sandbox: { reseller: { instant: true } } });
    await world.app.bot.init();
    const user = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    await world.app.services.credentials.verifyAndSave(user.id, 'reseller', {
      apiId: 'DEMO-RESELLER',
      apiKey: 'demo-key-7f3a91c2e8b54d06',
    });
    const chat = { id: user.id, type: 'private' as const, first_name: 'Sari' };
    const message = (id: number, text: string): Update => ({
      update_id: id,
      message: {
        message_id: id,
        date: 0,
        chat,
        from: user.user,
        text,
        ...(text.startsWith('/') ? { entities: [{ type: 'bot_command' as const, offset: 0, length: text.length }] } : {}),
      },
    });
    // Stored out of order; the replay goes by update id.
    await world.app.db.inbox.addUpdates([message(9002, 'TSEL10.081234567890'), message(9001, '/saldo')]);

    expect(await world.app.replayInbox()).toBe(2);
    const [balance, summary] = world.telegram.botMessages(user).slice(-2);
    expect(balance?.text).toContain('Rp');
    expect(summary?.buttons.flat()).toContain('✅ Konfirmasi');
    expect(await world.app.db.inbox.pendingIds()).toEqual([]);
    // Nothing left for the next start.
    expect(await world.app.replayInbox()).toBe(0);
  });

  it('webhook: the update is in the inbox before it is handled; a re-delivery is answered 200 and not handled again', async () => {
    world = await startWorld({ polling: false });
    await world.app.bot.init();
    const secret = 'test-webhook-secret-1234';
    const heldWhenHandled: boolean[] = [];
    const handle = world.app.bot.handleUpdate.bind(world.app.bot);
    world.app.bot.handleUpdate = async (update, envelope) => {
      heldWhenHandled.push(await world.app.db.inbox.has(update.update_id));
      return handle(update, envelope);
    };
    server = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      logger: world.app.logger,
      db: world.app.db,
      webhook: { bot: world.app.bot, handle: world.app.updates.handle, path: '/telegram', secret, claims: world.app.updateClaims },
    });
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const update = {
      update_id: 777,
      message: { message_id: 1, date: 0, chat: { id: budi.id, type: 'private', first_name: 'Budi' }, from: budi.user, text: '/start' },
    };
    const post = (secretToken: string) =>
      fetch(`${server!.url}/telegram`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secretToken },
        body: JSON.stringify(update),
      });

    expect((await post('wrong-secret-000000000')).status).toBe(401);
    expect(await world.app.db.inbox.has(777)).toBe(false);

    expect((await post(secret)).status).toBe(200);
    expect(heldWhenHandled).toEqual([true]);
    expect(world.telegram.botMessages(budi)).toHaveLength(1);

    // Telegram did not get the 200 (say) and delivers it again.
    expect((await post(secret)).status).toBe(200);
    expect(heldWhenHandled).toEqual([true]);
    expect(world.telegram.botMessages(budi)).toHaveLength(1);
  });

  it('a Confirm tap whose handling fails on a full disk is not marked done, is handled again, and buys once', async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } }, app: { handlingRetryDelaysMs: [50, 50] } });
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    // The disk is full for the conversation's last write (its end) once: the handling fails there.
    const conversations = world.app.db.conversations;
    const remove = conversations.delete.bind(conversations);
    let failures = 0;
    conversations.delete = (key) => (failures++ === 0 ? Promise.reject(enospc('/data/kiosbot.json')) : remove(key));
    const query = budi.tap(summary, '✅ Konfirmasi');
    const id = () => world.telegram.updates.find((u) => u.callback_query?.id === query.id)?.update_id ?? -1;
    // Handled again: the purchase is found recorded under its confirmation, and checked, not bought again.
    await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'sudah tercatat', timeoutMs: 5000 });
    await eventually(async () => !(await world.app.db.inbox.pendingIds()).includes(id()), 3000);
    const bought = world.sandbox.received.filter((request) => request.service === 'reseller' && request.path === '/transaction');
    expect(new Set(bought.map((request) => (request.body as { ref_id?: string }).ref_id)).size).toBe(1);
    // The conversation is over (its end was written on the second run): no old summary waits for a tap.
    expect(await world.app.db.conversations.read(`${budi.id}:${budi.id}`)).toBeUndefined();
  });

  it('an update failing on a temporary problem is tried a bounded number of times, then marked done and the user told to try again', async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } }, app: { handlingRetryDelaysMs: [50, 50] } });
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    let tries = 0;
    world.app.db.conversations.delete = () => {
      tries += 1;
      return Promise.reject(enospc('/data/kiosbot.json'));
    };
    const query = budi.tap(summary, '✅ Konfirmasi');
    const id = () => world.telegram.updates.find((u) => u.callback_query?.id === query.id)?.update_id ?? -1;
    await eventually(async () => tries >= 3 && !(await world.app.db.inbox.pendingIds()).includes(id()), 5000);
    // Marked done after the last try: nothing is scheduled any more, and the bot is idle.
    await world.idle();
    expect(tries, 'the first run and two retries, no more').toBe(3);
    const told = world.telegram.botMessages(budi).filter((message) => message.text?.includes('gangguan sementara'));
    expect(told.length).toBeGreaterThanOrEqual(1);
    const bought = world.sandbox.received.filter((request) => request.service === 'reseller' && request.path === '/transaction');
    expect(new Set(bought.map((request) => (request.body as { ref_id?: string }).ref_id)).size).toBe(1);
    // The operator reads what is wrong with the data directory, not a generic error.
    expect(world.logs.join('\n')).toContain('the disk holding the data directory is full');
  });

  it('long polling through the runner: a tap is in the inbox, then marked done once handled', async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    const query = budi.tap(summary, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'Sukses' });
    const id = world.telegram.updates.find((u) => u.callback_query?.id === query.id)?.update_id ?? -1;
    expect(await world.app.db.inbox.has(id)).toBe(true);
    await eventually(async () => !(await world.app.db.inbox.pendingIds()).includes(id), 3000).catch(() => undefined);
    await dataDirectoryOf(world.app).flush();
    expect(await world.app.db.inbox.pendingIds()).not.toContain(id);
  });
});
