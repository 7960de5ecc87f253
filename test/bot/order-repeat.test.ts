import { describe, it } from 'vitest';
import { ChatDriver, answerOrder, freeFire, inWorld, indonesian, shopper, withCatalogue } from '../helpers/gameshop.ts';

/*
 * A repeat order: the player id, server / zone and WhatsApp number of the user's last order of
 * the game are offered as one tap, and survive a restart of the bot.
 */

describe.concurrent('repeat game orders', () => {
  it('offers the last User ID (Zone ID) and WhatsApp of the game after a restart, and orders with them when tapped', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const budi = await shopper(world);
      const driver = new ChatDriver(world, budi);
      // First order: everything typed.
      let question = await driver.send('/pesan mobile-legends');
      question = await driver.tap(question, '86 Diamonds');
      question = await driver.tap(question, 'BCA');
      expect(question.buttons).toEqual([]);
      question = await driver.send('12345678', 'Zone ID');
      question = await driver.send('2001', 'WhatsApp');
      expect(question.buttons).toEqual([]);
      question = await driver.send('081234567890');
      for (let i = 0; i < 3; i++) question = await driver.tap(question, indonesian.skip);
      let summary = await driver.tap(question, '1', 'Ringkasan pesanan');
      await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');

      await world.restart();

      // Second order: one tap each, and no Zone ID question.
      question = await driver.send('/pesan mobile-legends');
      question = await driver.tap(question, '86 Diamonds');
      question = await driver.tap(question, 'BCA');
      expect(question.text).toContain('User ID');
      expect(question.buttons.flat()).toEqual(['Pakai 12345678 (2001)']);
      question = await driver.tap(question, 'Pakai 12345678', 'WhatsApp');
      expect(question.buttons.flat()).toEqual(['Pakai 081234567890']);
      question = await driver.tap(question, 'Pakai 0812');
      expect(question.text).toContain('Nickname');
      for (let i = 0; i < 3; i++) question = await driver.tap(question, indonesian.skip);
      summary = await driver.tap(question, '1', 'Ringkasan pesanan');
      expect(summary.text).toContain('User ID: 12345678');
      expect(summary.text).toContain('Zone ID: 2001');
      await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');
      const requests = world.sandbox.gameshop.orders().map((order) => order.request);
      expect(requests).toHaveLength(2);
      expect(requests[1]).toMatchObject({ game: 'mobile-legends', id: '12345678', server: '2001', whatsapp: '081234567890' });
      // No question about the Zone ID in the second order.
      const zoneQuestions = world.telegram.botMessages(budi).filter((m) => m.text?.startsWith('🌐'));
      expect(zoneQuestions).toHaveLength(1);
    }));

  it('a new id can still be typed (then the zone is asked); another game offers only the WhatsApp number', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const budi = await shopper(world);
      const driver = new ChatDriver(world, budi);
      const first = await driver.send('/pesan free-fire');
      const summary = await answerOrder(driver, first, { ...freeFire, game: undefined });
      await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');

      // Mobile Legends was never ordered: no id to offer, but the WhatsApp number is the same person's.
      // (The QR photo of the first order may still be on its way: wait for the product question.)
      let question = await driver.send('/pesan mobile-legends', 'Pilih produk');
      question = await driver.tap(question, '86 Diamonds');
      question = await driver.tap(question, 'BCA');
      expect(question.buttons).toEqual([]);
      question = await driver.send('55555555', 'Zone ID');
      question = await driver.send('3003', 'WhatsApp');
      expect(question.buttons.flat()).toEqual(['Pakai 081234567890']);
      await driver.send('/batal', 'Dibatalkan');

      // Free Fire again: its id is offered; typing another one is taken instead.
      question = await driver.send('/pesan free-fire');
      question = await driver.tap(question, '70 Diamonds');
      question = await driver.tap(question, 'QRIS');
      expect(question.buttons.flat()).toEqual(['Pakai 98765432']);
      question = await driver.send('11112222', 'WhatsApp');
      question = await driver.send('085711112222');
      for (let i = 0; i < 3; i++) question = await driver.tap(question, indonesian.skip);
      const again = await driver.tap(question, '1', 'Ringkasan pesanan');
      await driver.tap(again, indonesian.confirm, 'Pesanan dibuat');
      expect(world.sandbox.gameshop.orders()[1]?.request).toMatchObject({ id: '11112222', whatsapp: '085711112222' });
      // The newest order is what is offered next time.
      question = await driver.send('/pesan free-fire', 'Pilih produk');
      question = await driver.tap(question, '70 Diamonds');
      question = await driver.tap(question, 'QRIS');
      expect(question.buttons.flat()).toEqual(['Pakai 11112222']);
    }));
});
