import diagnostics from 'node:diagnostics_channel';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { createTestDisk } from '../helpers/disk.ts';
import type { AppOptions } from '../../src/app.ts';
import { maxWebhookBodyBytes, startHttpServer, type HttpServer } from '../../src/server/http.ts';

describe('HTTP server: health and webhook', () => {
  let world: TestWorld;
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    await world.stop();
  });

  const healthToken = 'health-token-0123456789abcdef';
  const health = (headers: Record<string, string> = {}) => fetch(`${server!.url}/health`, { headers });

  it('GET /health without a configured token: liveness only, no counts, even with a bearer token', async () => {
    world = await startWorld();
    await world.app.db.users.upsert({ id: 5001, firstName: 'Budi' });
    server = await startHttpServer({ port: 0, logger: world.app.logger, db: world.app.db });
    const answer = await health();
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
    expect(await (await health({ authorization: `Bearer ${healthToken}` })).json()).toEqual({ ok: true });
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('GET /health with HEALTH_TOKEN: counts only with the right bearer token, 401 with a wrong one, liveness without', async () => {
    world = await startWorld();
    await world.app.db.users.upsert({ id: 5001, firstName: 'Budi' });
    await world.app.db.outbox.enqueue({ chatId: 5001, kind: 'test', payload: { type: 'send', text: 'hai' } });
    server = await startHttpServer({ port: 0, logger: world.app.logger, db: world.app.db, healthToken });

    const anonymous = await health();
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ ok: true });

    for (const wrong of [`Bearer ${healthToken}x`, `Bearer ${healthToken.slice(0, -1)}`, 'Bearer ', healthToken, `Basic ${healthToken}`]) {
      const refused = await health({ authorization: wrong });
      expect(refused.status, wrong).toBe(401);
      const body = await refused.text();
      expect(body).not.toContain('users');
      expect(body).not.toContain(healthToken);
    }

    const authorised = await health({ authorization: `Bearer ${healthToken}` });
    expect(authorised.status).toBe(200);
    expect(await authorised.json()).toEqual({ ok: true, users: 1, openPurchases: 0, queuedNotices: 1 });
  });

  it('GET /health while a shared database cannot be reached: still ok (alive), database degraded, no counts, no 500', async () => {
    world = await startWorld();
    // The store as the PostgreSQL engine reports it while the server is restarting: every query fails.
    const down = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    const db = {
      ...world.app.db,
      health: () => ({ reachable: false, connectionLosses: 3, locksLost: 1 }),
      users: { ...world.app.db.users, count: down },
    };
    server = await startHttpServer({ port: 0, logger: world.app.logger, db, healthToken });
    const anonymous = await health();
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ ok: true, database: 'degraded' });
    const authorised = await health({ authorization: `Bearer ${healthToken}` });
    expect(authorised.status).toBe(200);
    expect(await authorised.json()).toEqual({ ok: true, database: 'degraded', connectionLosses: 3, locksLost: 1 });
  });

  it('listens on 127.0.0.1 by default', async () => {
    world = await startWorld();
    server = await startHttpServer({ port: 0, logger: world.app.logger, db: world.app.db });
    expect(server.host).toBe('127.0.0.1');
    expect((await health()).status).toBe(200);
  });

  // Only on a machine with a non-loopback IPv4 address (CI and dev machines have one).
  const external = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && !address.internal && address.family === 'IPv4')?.address;
  it.skipIf(external === undefined)(
    "is not reachable on the machine's other addresses by default, and is with HEALTH_HOST=0.0.0.0",
    async () => {
      world = await startWorld();
      server = await startHttpServer({ port: 0, logger: world.app.logger, db: world.app.db });
      const port = new URL(server.url).port;
      await expect(fetch(`http://${external}:${port}/health`)).rejects.toThrow();
      await server.close();
      server = await startHttpServer({ port: 0, host: '0.0.0.0', logger: world.app.logger, db: world.app.db });
      expect((await fetch(`http://${external}:${new URL(server.url).port}/health`)).status).toBe(200);
    },
  );

  it('webhook mode: Telegram posts updates with the secret and the bot answers; a wrong secret is refused', async () => {
    world = await startWorld({ polling: false });
    await world.app.bot.init();
    const secret = 'test-webhook-secret-1234';
    server = await startHttpServer({
      port: 0,
      host: '127.0.0.1',
      logger: world.app.logger,
      db: world.app.db,
      webhook: { bot: world.app.bot, handle: world.app.updates.handle, path: '/telegram', secret, claims: world.app.updateClaims },
    });
    world.telegram.deliverTo(`${server.url}/telegram`, secret);
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    expect(reply.text).toContain('Halo Budi');

    const forged = await fetch(`${server.url}/telegram`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'wrong' },
      body: JSON.stringify({
        update_id: 999,
        message: { message_id: 1, date: 0, chat: { id: budi.id, type: 'private' }, from: budi.user, text: '/start' },
      }),
    });
    expect(forged.status).toBe(401);
  });

  const secret = 'test-webhook-secret-1234';
  /** The world's bot behind the webhook endpoint, with Telegram delivering to it; resolves the bot's handleUpdate spy. */
  const webhookWorld = async (app: AppOptions = {}) => {
    world = await startWorld({ polling: false, app });
    await world.app.bot.init();
    const handled = vi.spyOn(world.app.bot, 'handleUpdate');
    server = await startHttpServer({
      port: 0,
      logger: world.app.logger,
      db: world.app.db,
      webhook: {
        bot: world.app.bot,
        handle: world.app.updates.handle,
        path: '/telegram',
        secret,
        claims: world.app.updateClaims,
        unstored: world.app.unstored,
      },
    });
    world.telegram.deliverTo(`${server.url}/telegram`, secret);
    return handled;
  };
  const post = (body: string) =>
    fetch(`${server!.url}/telegram`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body,
    });

  it('webhook: a body over the limit gets 413 as soon as its length says so, and the bot never sees it', async () => {
    const handled = await webhookWorld();
    expect(maxWebhookBodyBytes).toBe(1024 * 1024);
    const update = {
      update_id: 5001,
      message: { message_id: 1, date: 0, chat: { id: 61, type: 'private', first_name: 'X' }, text: '/start' },
    };
    const padded = JSON.stringify(update).replace('{', `{${' '.repeat(maxWebhookBodyBytes)}`);
    const answer = await post(padded);
    expect(answer.status).toBe(413);
    expect(handled).not.toHaveBeenCalled();
    expect(await world.app.db.inbox.has(5001)).toBe(false);
    // Just under the limit is an ordinary update.
    const fits = JSON.stringify({ ...update, update_id: 5002 }).replace('{', `{${' '.repeat(maxWebhookBodyBytes - 200)}`);
    expect((await post(fits)).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('webhook: a body streamed without a length is cut off at the limit: 413 long before the sender is done', async () => {
    const handled = await webhookWorld();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const total = 256 * 1024 * 1024;
    let sent = 0;
    const status = await new Promise<{ status: number; sentWhenAnswered: number }>((resolve, reject) => {
      const req = request(`${server!.url}/telegram`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret, 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, sentWhenAnswered: sent });
        req.destroy();
      });
      req.on('error', (error) => (sent >= total ? reject(error) : undefined));
      const pump = () => {
        while (sent < total && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!req.destroyed) req.end();
      };
      req.write('{');
      pump();
    });
    expect(status.status).toBe(413);
    // The server stopped reading at about the limit; what the sender had written by then sits in socket buffers.
    expect(status.sentWhenAnswered).toBeLessThan(total / 4);
    expect(handled).not.toHaveBeenCalled();
  });

  it('webhook: a sender that reads its answer late, still uploading, gets the 413 (no reset throws it away)', async () => {
    // RFC 9112 §9.6: closing a socket with unread bytes sends a reset, and a reset discards what the
    // peer had received but not yet read. A busy sender reads late: here only once the server has
    // either closed its side (the reset is then on its way) or gone on reading the rest.
    const handled = await webhookWorld();
    const serverSide = new Promise<Socket>((resolve) => {
      const onStart = (message: unknown) => {
        diagnostics.unsubscribe('http.server.request.start', onStart);
        resolve((message as { request: IncomingMessage }).request.socket);
      };
      diagnostics.subscribe('http.server.request.start', onStart);
    });
    const { port } = new URL(server!.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.pause();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /telegram HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `X-Telegram-Bot-Api-Secret-Token: ${secret}\r\nContent-Length: ${8 * maxWebhookBodyBytes}\r\n\r\n{`,
    );
    // Four times the limit, queued at once: the kernel takes what it can while the sender reads nothing.
    for (let written = 0; written < 4 * maxWebhookBodyBytes; written += chunk.length) socket.write(chunk);
    const server413 = await serverSide;
    await new Promise<void>((resolve) => {
      server413.once('close', () => setImmediate(resolve));
      socket.once('drain', () => resolve());
    });
    const answer = await new Promise<string>((resolve) => {
      let read = '';
      socket.on('data', (data: Buffer) => {
        read += data.toString('latin1');
        if (read.includes(`body larger than ${maxWebhookBodyBytes} bytes`)) resolve(read);
      });
      for (const event of ['end', 'close', 'error']) socket.once(event, () => resolve(read));
      socket.resume();
    });
    socket.destroy();
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(handled).not.toHaveBeenCalled();
  });

  it('webhook: updates whose fields have the wrong types get 200 or 400, never 500, each logged once; the bot goes on serving', async () => {
    const handled = await webhookWorld();
    const from = { id: 77, is_bot: false, first_name: 'X' };
    const chat = { id: 77, type: 'private', first_name: 'X' };
    const message = { message_id: 1, date: 0, chat, from };
    const confused: Record<string, unknown>[] = [
      { message: { ...message, text: 123 } },
      { message: { ...message, text: { a: 1 } } },
      { message: { message_id: 1, date: 0, from, text: 'hi' } },
      { message: { ...message, chat: null, text: 'hi' } },
      { message: 'hello' },
      { message: [] },
      { message: { ...message, from: 'x', text: 'hi' } },
      { message: { ...message, chat: { ...chat, id: 'abc' }, text: 'hi' } },
      { message: { ...message, text: '/start', entities: 'x' } },
      { message: { ...message, text: '/start', entities: [{ type: 'bot_command', offset: 0, length: 'x' }] } },
      { message: { ...message, text: 'hi', reply_to_message: 'x' } },
      { callback_query: { id: 'c', from, chat_instance: '1', data: 5, message } },
      { callback_query: { id: 'c', chat_instance: '1', data: 'x' } },
      { inline_query: { id: 'i', query: 'x', offset: '' } },
      { my_chat_member: { chat, from, date: 0, old_chat_member: 5, new_chat_member: null } },
    ];
    for (const [i, body] of confused.entries()) {
      const answer = await post(JSON.stringify({ update_id: 7000 + i, ...body }));
      expect([200, 400], JSON.stringify(body)).toContain(answer.status);
    }
    for (const body of [
      '{',
      '[]',
      'null',
      '"x"',
      JSON.stringify({ update_id: 1.5, message }),
      JSON.stringify({ update_id: -1, message }),
    ]) {
      expect((await post(body)).status, body).toBe(400);
    }
    expect(handled).not.toHaveBeenCalled();
    const refusals = world.logs
      .map((line) => JSON.parse(line) as { msg: string; updateId?: number })
      .filter((l) => l.msg.startsWith('webhook update refused'));
    expect(refusals.map((l) => l.updateId)).toEqual(confused.map((_, i) => 7000 + i));
    expect(world.logs.filter((line) => line.includes('"level":"error"'))).toEqual([]);

    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    expect(reply.text).toContain('Halo Budi');
  });

  it('webhook: a handler that throws is reported like in polling (the user told, an error logged) and answered 200, not 500', async () => {
    await webhookWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    // A stored user whose account lookup fails: every update of theirs throws inside the bot.
    const failing = vi.spyOn(world.app.db.users, 'get').mockRejectedValue(new Error('disk on fire'));
    const statuses: number[] = [];
    const answer = await post(
      JSON.stringify({
        update_id: 8001,
        message: { message_id: 1, date: 0, chat: { id: budi.id, type: 'private', first_name: 'Budi' }, from: budi.user, text: '/start' },
      }),
    );
    statuses.push(answer.status);
    failing.mockRestore();
    expect(statuses).toEqual([200]);
    expect(world.logs.some((line) => line.includes('unhandled error while processing an update'))).toBe(true);
  });

  it('webhook: an update the read-only data directory cannot store is answered "cannot save, try again" with 200, never handled', async () => {
    const disk = createTestDisk();
    const handled = await webhookWorld({ storeWriteFile: disk.write });
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'en' });
    disk.setReadOnly(true);
    const update = {
      update_id: 8101,
      message: { message_id: 1, date: 0, chat: { id: budi.id, type: 'private', first_name: 'Budi' }, from: budi.user, text: '/start' },
    };
    expect((await post(JSON.stringify(update))).status).toBe(200);
    const told = await world.telegram.waitForBotMessage(budi);
    expect(told.text).toContain('cannot save anything right now');
    const line = world.logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.errno === 'EROFS');
    expect(line?.path).toEqual(expect.stringContaining(world.dataDir));

    // Delivered again once the disk works (Telegram missed the 200): still not handled.
    disk.setReadOnly(false);
    expect((await post(JSON.stringify(update))).status).toBe(200);
    expect(handled).not.toHaveBeenCalled();
  });
  it('close while a webhook POST is in flight: the POST is answered 200, then the keep-alive connections close at once', async () => {
    world = await startWorld({ polling: false });
    await world.app.bot.init();
    let release!: () => void;
    const handling = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    server = await startHttpServer({
      port: 0,
      logger: world.app.logger,
      db: world.app.db,
      webhook: {
        bot: world.app.bot,
        handle: async () => {
          started();
          await handling;
        },
        path: '/telegram',
        secret,
        claims: world.app.updateClaims,
      },
    });
    const agent = new Agent({ keepAlive: true });
    const { port } = new URL(server.url);
    /** One request on the keep-alive agent; resolves its status once the whole answer arrived. */
    const send = (method: string, path: string, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method, path, agent, headers: { 'x-telegram-bot-api-secret-token': secret } });
        req.once('response', (res) => res.resume().once('end', () => resolve(res.statusCode ?? 0)));
        req.once('error', reject);
        req.end(body);
      });
    // An idle keep-alive connection beside the one that carries the POST.
    expect(await send('GET', '/health')).toBe(200);
    const update = {
      update_id: 8201,
      message: { message_id: 1, date: 0, chat: { id: 71, type: 'private', first_name: 'X' }, text: '/start' },
    };
    const answered = send('POST', '/telegram', JSON.stringify(update));
    await inFlight;
    const closing = server.close();
    server = undefined;
    release();
    expect(await answered).toBe(200);
    // Without the close of idle connections the POST's connection idles for Node's keep-alive
    // timeout (5 s) before close resolves; the bound leaves a loaded machine most of that.
    const startedAt = performance.now();
    await closing;
    expect(performance.now() - startedAt).toBeLessThan(4000);
    agent.destroy();
  });
});
