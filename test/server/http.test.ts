import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { startHttpServer, type HttpServer } from '../../src/server/http.ts';

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
    await world.app.store.users.upsert({ id: 5001, firstName: 'Budi' });
    server = await startHttpServer({ port: 0, logger: world.app.logger, db: world.app.db });
    const answer = await health();
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
    expect(await (await health({ authorization: `Bearer ${healthToken}` })).json()).toEqual({ ok: true });
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('GET /health with HEALTH_TOKEN: counts only with the right bearer token, 401 with a wrong one, liveness without', async () => {
    world = await startWorld();
    await world.app.store.users.upsert({ id: 5001, firstName: 'Budi' });
    await world.app.store.outbox.enqueue({ chatId: 5001, kind: 'test', payload: { type: 'send', text: 'hai' } });
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
      webhook: { bot: world.app.bot, path: '/telegram', secret, lease: world.app.updateLease },
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
});
