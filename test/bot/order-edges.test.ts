import { describe, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { answerOrder, freeFire, inWorld, indonesian, startOrder, withCatalogue } from '../helpers/gameshop.ts';
import { advanceWallClock } from '../helpers/wall-clock.ts';

/*
 * Order conversation edges through the real bot against the sandbox shop: 404s from the shop, the
 * optional e-mail, and a late answer after the step timed out. Each test runs in a world of its own.
 */

/** What the sandbox shop received on POST /order, as parsed JSON bodies. */
const orderRequests = (world: TestWorld) =>
  world.sandbox.received.filter((r) => r.service === 'gameshop' && r.path === '/order').map((r) => r.body as Record<string, unknown>);

const notFound = (message: string) => ({
  kind: 'status' as const,
  status: 404,
  body: { success: false, message, error_code: 'NOT_FOUND', errors: {} },
});

describe.concurrent('order conversation (/pesan): 404s and the e-mail', () => {
  it('a 404 for the game ends with a clear message and orders nothing', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      world.sandbox.inject({ service: 'gameshop', path: '/order', fault: notFound('Game tidak ditemukan') });
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, freeFire);
      const answer = await driver.tap(summary, indonesian.confirm, 'tidak mengenal game');
      expect(answer.text).toContain('Free Fire');
      expect(answer.text).toContain('Game tidak ditemukan');
      expect(answer.text).toContain('Tidak ada yang dipesan');
      expect(answer.text).toContain('/games');
      await world.telegram.waitForIdle();
      // Sent once, not retried; nothing stored, nothing created.
      expect(orderRequests(world)).toHaveLength(1);
      expect(orderRequests(world)[0]).not.toHaveProperty('email');
      expect(world.sandbox.gameshop.orders()).toHaveLength(0);
      expect(await world.app.db.gameOrders.listByUser(driver.user.id)).toHaveLength(0);
      expect(world.telegram.botMessages(driver.user).some((m) => m.text?.includes('Pesanan dibuat'))).toBe(false);
    }));

  it('a 404 for the product says so and asks for the product again, then orders', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      world.sandbox.inject({ service: 'gameshop', path: '/order', fault: notFound('Produk tidak ditemukan') });
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, freeFire);
      const again = await driver.tap(summary, indonesian.confirm, 'tidak mengenal produk');
      expect(again.text).toContain('Produk tidak ditemukan');
      expect(world.sandbox.gameshop.orders()).toHaveLength(0);
      const second = await driver.tap(again, '70 Diamonds', indonesian.summary);
      await driver.tap(second, indonesian.confirm, 'Pesanan dibuat');
      expect(orderRequests(world)).toHaveLength(2);
      expect(world.sandbox.gameshop.orders()).toHaveLength(1);
      expect(world.sandbox.gameshop.orders()[0]?.request).toMatchObject({ game: 'free-fire', product_id: 201, id: '98765432' });
    }));

  it('sends the optional e-mail to the shop and shows it in the summary', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, { ...freeFire, email: 'budi@contoh.com' });
      expect(summary.text).toContain('Email: budi@contoh.com');
      await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');
      expect(orderRequests(world)).toHaveLength(1);
      expect(orderRequests(world)[0]).toMatchObject({ email: 'budi@contoh.com', id: '98765432', game: 'free-fire' });
      expect(world.sandbox.gameshop.orders()[0]?.request).toMatchObject({ email: 'budi@contoh.com' });
    }));
});

describe('order conversation (/pesan): a late answer', () => {
  it('after the step timed out is not acted on: the bot says the step ended and to start again with /pesan', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const { driver, first } = await startOrder(world);
      let question = await driver.tap(first, 'Free Fire');
      question = await driver.tap(question, '70 Diamonds');
      question = await driver.tap(question, 'QRIS');
      expect(question.text).toContain('Kirim');
      await world.idle();
      advanceWallClock(16 * 60_000); // the step times out (15 minutes)

      const reply = await driver.send('98765432');
      expect(reply.text).toContain('sudah berakhir');
      expect(reply.text).toContain('Mulai lagi dengan /pesan');
      // The next would-be answer is not taken as the WhatsApp number either.
      const next = await driver.send('081234567890');
      expect(next.text).not.toContain('Ringkasan pesanan');
      expect(next.text).not.toContain('Lewati');
      await world.telegram.waitForIdle();
      expect(orderRequests(world)).toHaveLength(0);
      expect(await world.app.db.gameOrders.listByUser(driver.user.id)).toHaveLength(0);
    }));
});
