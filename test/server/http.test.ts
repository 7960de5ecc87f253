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

  it('GET /health answers with counts and nothing personal', async () => {
    world = await startWorld();
    server = await startHttpServer({ port: 0, host: '127.0.0.1', logger: world.app.logger, store: world.app.store });
    const answer = await fetch(`${server.url}/health`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true, users: 0, openPurchases: 0, queuedNotices: 0 });
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('webhook mode: Telegram posts updates with the secret and the bot answers; a wrong secret is refused', async () => {
    world = await startWorld({ polling: false });
    await world.app.bot.init();
    const secret = 'test-webhook-secret-1234';
    server = await startHttpServer({ port: 0, host: '127.0.0.1', logger: world.app.logger, store: world.app.store, webhook: { bot: world.app.bot, path: '/telegram', secret } });
    world.telegram.deliverTo(`${server.url}/telegram`, secret);
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    expect(reply.text).toContain('Halo Budi');

    const forged = await fetch(`${server.url}/telegram`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'wrong' },
      body: JSON.stringify({ update_id: 999, message: { message_id: 1, date: 0, chat: { id: budi.id, type: 'private' }, from: budi.user, text: '/start' } }),
    });
    expect(forged.status).toBe(401);
  });
});
