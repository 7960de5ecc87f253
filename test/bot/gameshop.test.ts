import { describe, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import {
  ChatDriver,
  answerOrder,
  english,
  freeFire,
  inWorld,
  indonesian,
  shopper,
  startOrder,
  storedOrder,
  urlButtons,
  withCatalogue,
} from '../helpers/gameshop.ts';

/*
 * /games, /pesanan and the order scenarios that are about what happens around an order (500,
 * double tap, payment reminder, English, the QR fallback). Tests run concurrently, each in a world
 * of its own.
 */

const reminderText = 'Pengingat pembayaran';
const reminders = (world: TestWorld, user: { id: number }) =>
  world.telegram.botMessages(user.id).filter((m) => m.text?.includes(reminderText));

describe.concurrent('game shop (/games, /pesanan) and orders end to end', () => {
  // --- full orders ---------------------------------------------------------------------------------

  it('reminds once ten minutes before the payment expires, also across restarts', ({ expect }) => {
    let clock = Date.parse('2025-01-31T06:00:00Z');
    return inWorld(
      {
        ...withCatalogue,
        jobs: true,
        app: { now: () => new Date(clock), outboxLimits: { perChatMs: 20 } },
        sandbox: { gameshop: { now: () => clock, expiresInMs: 60 * 60_000 } },
      },
      async (world) => {
        const { driver, first } = await startOrder(world);
        const summary = await answerOrder(driver, first, freeFire);
        await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');
        const [order] = world.sandbox.gameshop.orders();
        const orderId = order!.orderId;
        const [queued] = (await world.app.db.outbox.list()).filter((item) => item.dedupeKey === `order-reminder:${orderId}`);
        expect(queued?.notBefore).toBe('2025-01-31T06:50:00.000Z');

        // Restart before it is due: the reminder is in the store, nothing is sent yet.
        await world.restart();
        clock += 49 * 60_000;
        world.app.outbox.kick();
        await world.app.outbox.drain();
        expect(reminders(world, driver.user)).toHaveLength(0);

        clock += 60_000 + 1;
        world.app.outbox.kick();
        const reminder = await world.telegram.waitForBotMessage(driver.user, { textIncludes: reminderText });
        expect(reminder.text).toContain(orderId);
        expect(reminder.text).toContain('31 Jan 2025 14.00 WIB');
        expect(reminder.text).toContain('Free Fire — 70 Diamonds × 1');
        expect(urlButtons(reminder)).toEqual([{ text: '💳 Bayar', url: order!.data.payment_url }]);

        // Later passes and another restart never send it again.
        await world.restart();
        clock += 5 * 60_000;
        world.app.outbox.kick();
        await world.app.outbox.drain();
        await world.telegram.waitForIdle();
        expect(reminders(world, driver.user)).toHaveLength(1);
        expect(await world.app.db.outbox.list()).toHaveLength(0);
      },
    );
  });

  it('says a 500 leaves the outcome unknown, does not retry and records nothing', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      world.sandbox.inject({
        service: 'gameshop',
        path: '/order',
        fault: { kind: 'status', status: 500, body: { success: false, message: 'Server Error' } },
      });
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, freeFire);
      const answer = await driver.tap(summary, indonesian.confirm, 'tidak diketahui');
      expect(answer.text).toContain('mungkin sudah dibuat, mungkin juga belum');
      expect(answer.text).toContain('cek dulu');
      await world.telegram.waitForIdle();
      expect(world.sandbox.received.filter((r) => r.service === 'gameshop' && r.path === '/order')).toHaveLength(1);
      expect(await world.app.db.gameOrders.listByUser(driver.user.id)).toHaveLength(0);
      expect(summary.buttons).toEqual([]);
    }));

  it('creates one order when Confirm is tapped twice', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, freeFire);
      const firstTap = driver.user.tap(summary, '✅ Pesan sekarang');
      const secondTap = driver.user.tap(summary, '✅ Pesan sekarang');
      await world.telegram.waitForBotMessage(driver.user, { after: summary, textIncludes: 'Pesanan dibuat' });
      const second = await world.telegram.waitForCallbackAnswer(secondTap);
      await world.telegram.waitForCallbackAnswer(firstTap);
      await world.telegram.waitForIdle();
      const [order] = world.sandbox.gameshop.orders();
      expect(world.sandbox.gameshop.orders()).toHaveLength(1);
      expect(second.text).toContain(order?.orderId);
      expect(await world.app.db.gameOrders.listByUser(driver.user.id)).toHaveLength(1);
      expect(world.telegram.botMessages(driver.user).filter((m) => m.text?.includes('Pesanan dibuat'))).toHaveLength(1);
    }));

  it('speaks English, and gives the QR link when Telegram refuses the QR photo', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      world.telegram.injectError({
        method: 'sendPhoto',
        errorCode: 400,
        description: 'Bad Request: wrong file identifier/HTTP URL specified',
      });
      const { driver, first } = await startOrder(world, '/order', 'en');
      expect(first.text).toContain('Which game');
      const summary = await answerOrder(driver, first, { ...freeFire, promo: 'HEMAT10' }, english);
      expect(summary.text).toContain('Order now?');
      const created = await driver.tap(summary, english.confirm, 'Order created');
      expect(created.text).toContain('Price breakdown');
      expect(created.text).toContain('Promo discount (HEMAT10)');
      expect(created.text).toContain('I will remind you 10 minutes before the deadline.');
      expect(urlButtons(created).map((b) => b.text)).toEqual(['💳 Pay']);
      const [order] = world.sandbox.gameshop.orders();
      const fallback = await world.telegram.waitForBotMessage(driver.user, { after: created, textIncludes: 'cannot be shown here' });
      expect(fallback.text).toContain(order?.data.qr_url);
      // Nothing broke: the bot still answers.
      const orders = await driver.send('/orders', 'Your game orders');
      expect(orders.text).toContain(order?.orderId);
    }));

  // --- /games ----------------------------------------------------------------------------------

  it('/games lists the popular games first, then every category', ({ expect }) =>
    inWorld({}, async (world) => {
      const budi = await shopper(world);
      const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/games') });
      const text = list.text ?? '';
      expect(text).toContain('Populer');
      for (const category of ['MOBA', 'Battle Royale', 'RPG', 'FPS', 'Voucher'])
        expect(text.indexOf(category)).toBeGreaterThan(text.indexOf('Populer'));
      expect(text.indexOf('Mobile Legends')).toBeLessThan(text.indexOf('MOBA'));
      expect(text).toContain('Genshin Impact');
      expect(text).not.toContain('Arena of Valor');
      expect(list.buttons).toEqual([
        ['🔥 Mobile Legends: Bang Bang', '🔥 Free Fire'],
        ['🔥 PUBG Mobile', '🔥 Honor of Kings'],
        ['📂 MOBA (2)', '📂 Battle Royale (2)'],
        ['📂 RPG (2)', '📂 FPS (2)'],
        ['📂 Voucher (1)'],
      ]);
      // The alias works too.
      const again = await world.telegram.waitForBotMessage(budi, { after: budi.send('/game') });
      expect(again.text).toBe(list.text);
    }));

  it('opens a category, goes back, and starts an order with the tapped game', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const budi = await shopper(world);
      const driver = new ChatDriver(world, budi);
      const list = await driver.send('/games');
      const overview = list.text;
      await driver.tapOnly(list, 'RPG');
      await world.telegram.waitFor(() => list.text?.includes('Honkai') && !list.text.includes('Free Fire'));
      expect(list.buttons).toEqual([['Genshin Impact', 'Honkai: Star Rail'], ['« Kembali']]);
      await driver.tapOnly(list, 'Kembali');
      await world.telegram.waitFor(() => list.text === overview);

      const product = await driver.tap(list, 'Free Fire', 'Pilih produk');
      expect(product.text).toContain('Free Fire');
      expect(product.buttons.flat()).toContain('70 Diamonds — Rp 9.500');
      // The game was not asked for: the order started with it.
      expect(world.telegram.botMessages(budi).some((m) => m.text?.includes('Mau top up game apa'))).toBe(false);
    }));

  it('/games asks to connect the game shop first', ({ expect }) =>
    inWorld({}, async (world) => {
      const siti = world.telegram.createUser({ firstName: 'Siti', languageCode: 'id' });
      const reply = await world.telegram.waitForBotMessage(siti, { after: siti.send('/games') });
      expect(reply.text).toContain('/connect');
      const order = await world.telegram.waitForBotMessage(siti, { after: siti.send('/pesan') });
      expect(order.text).toContain('/connect');
    }));

  // --- catalogue problems --------------------------------------------------------------------------

  it('logs an unusable catalogue once, naming the file, and asks for numeric ids meanwhile', ({ expect }) =>
    inWorld({ env: { GAMESHOP_CATALOGUE: '/nonexistent/kiosbot/catalogue.json' } }, async (world) => {
      const budi = await shopper(world);
      const driver = new ChatDriver(world, budi);
      const product = await driver.send('/pesan free-fire');
      expect(product.text).toContain('Tidak ada yang rusak');
      expect(product.text).toContain('ID produk');
      await driver.send('/batal', 'Dibatalkan');
      await driver.send('/pesan genshin-impact', 'ID produk');
      const errors = world.logs.filter((line) => line.includes('/nonexistent/kiosbot/catalogue.json') && line.includes('"error"'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('does not exist');
    }));

  // --- /pesanan --------------------------------------------------------------------------------------

  it('/pesanan lists the user’s own orders newest first, ten per page', ({ expect }) =>
    inWorld({}, async (world) => {
      const budi = await shopper(world);
      const siti = await shopper(world, 'Siti');
      const driver = new ChatDriver(world, budi);
      expect((await driver.send('/pesanan')).text).toContain('Belum ada pesanan game');
      for (let n = 1; n <= 12; n++) await world.app.db.gameOrders.save(storedOrder(budi.id, n, 120 - n));
      await world.app.db.gameOrders.save(storedOrder(siti.id, 99, 0));

      const page = await driver.send('/pesanan', 'Pesanan game Anda');
      const text = page.text ?? '';
      expect(text).toContain('halaman 1');
      expect(text.indexOf('INV-20250131-0012TEST')).toBeLessThan(text.indexOf('INV-20250131-0011TEST'));
      expect(text).toContain('INV-20250131-0003TEST');
      expect(text).not.toContain('INV-20250131-0002TEST');
      expect(text).not.toContain('0099TEST');
      expect(text).toContain('Free Fire — 70 Diamonds × 1');
      expect(page.buttons.flat()).toContain('Berikutnya ›');

      await driver.tapOnly(page, 'Berikutnya');
      await world.telegram.waitFor(() => page.text?.includes('halaman 2'));
      expect(page.text).toContain('INV-20250131-0002TEST');
      expect(page.text).toContain('INV-20250131-0001TEST');
      expect(page.text).not.toContain('INV-20250131-0003TEST');
      expect(page.buttons.flat()).toContain('‹ Sebelumnya');
      expect(page.buttons.flat()).not.toContain('Berikutnya ›');
    }));
});
