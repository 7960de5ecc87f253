import { describe, it } from 'vitest';
import { answerOrder, codeTexts, freeFire, inWorld, indonesian, startOrder, urlButtons, withCatalogue } from '../helpers/gameshop.ts';
import { formatRupiah } from '../../src/text/format.ts';
import { wibIn } from '../helpers/wib.ts';
import { isPng, photoBytes } from '../helpers/qr-image.ts';

/*
 * The order conversation through the real bot against the sandbox shop. Tests run concurrently,
 * each in a world of its own. More order scenarios (500, double tap, reminder, English) are in
 * gameshop.test.ts, to keep each file short.
 */

describe.concurrent('order conversation (/pesan)', () => {
  it('orders with promo HEMAT10 and QRIS: breakdown, Pay button and the QR photo drawn from the QRIS string', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const { driver, first } = await startOrder(world);
      expect(first.text).toContain('Mau top up game apa');
      // Popular games first.
      expect(first.buttons.flat()[0]).toContain('🔥');
      const summary = await answerOrder(driver, first, { ...freeFire, promo: 'HEMAT10', nickname: 'BudiGG' });
      expect(summary.text).toContain('Free Fire');
      expect(summary.text).toContain('70 Diamonds (ID 201)');
      expect(summary.text).toContain('QRIS (ID 1)');
      expect(summary.text).toContain('98765432');
      expect(summary.text).toContain('HEMAT10');
      expect(summary.text).toContain('BudiGG');
      expect(world.sandbox.gameshop.orders()).toHaveLength(0);

      const created = await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');
      const [order] = world.sandbox.gameshop.orders();
      expect(world.sandbox.gameshop.orders()).toHaveLength(1);
      expect(order?.request).toMatchObject({
        game: 'free-fire',
        product_id: 201,
        payment_method_id: 1,
        id: '98765432',
        promo_code: 'HEMAT10',
        nickname: 'BudiGG',
        quantity: 1,
      });
      const data = order!.data;
      expect(data.pricing.promo_discount).toBe(950);
      expect(codeTexts(created)).toContain(data.order_id);
      // The QRIS string is drawn as a QR (test/bot/order-payment.test.ts), not printed.
      expect(created.text).not.toContain(data.payment_code);
      expect(created.text).toContain('Belum dibayar');
      expect(created.text).toContain(`Harga satuan: ${formatRupiah(9500)} × 1`);
      expect(created.text).toContain(`Diskon promo (HEMAT10): −${formatRupiah(950)}`);
      expect(created.text).toContain(`Biaya pembayaran: ${formatRupiah(data.pricing.payment_fee)}`);
      expect(created.text).toContain(`Kode unik: ${formatRupiah(data.pricing.unique_code)}`);
      expect(created.text).toContain(`Total bayar: ${formatRupiah(data.total_price)}`);
      expect(created.text).toContain(wibIn('id', data.expired_at));
      expect(urlButtons(created)).toEqual([{ text: '💳 Bayar', url: data.payment_url }]);
      // The summary keeps its content, without buttons.
      expect(summary.buttons).toEqual([]);

      const photo = await world.telegram.waitForBotMessage(driver.user, { after: created, where: (m) => m.method === 'sendPhoto' });
      expect(world.telegram.callsTo('sendPhoto')).toHaveLength(1);
      expect(isPng(await photoBytes(world, photo))).toBe(true);
      expect(photo.text).toContain(data.order_id);
      // Stored for /pesanan, with its reminder queued in the same write.
      const stored = await world.app.db.gameOrders.get(data.order_id);
      expect(stored).toMatchObject({
        userId: driver.user.id,
        game: 'free-fire',
        productName: '70 Diamonds',
        paymentName: 'QRIS',
        totalPrice: data.total_price,
      });
      expect((await world.app.db.outbox.list()).filter((item) => item.dedupeKey === `order-reminder:${data.order_id}`)).toHaveLength(1);
    }));

  it('asks Mobile Legends for the Zone ID separately and sends id and server as separate fields', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const { driver, first } = await startOrder(world, '/pesan mobile-legends');
      expect(first.text).toContain('Mobile Legends: Bang Bang');
      let question = await driver.tap(first, '86 Diamonds');
      question = await driver.tap(question, 'BCA');
      expect(question.text).toContain('User ID');
      expect(question.text).toContain('Zone ID');
      // The id with the zone glued on is refused with a hint.
      question = await driver.send('12345678 (2345)', 'tanpa Zone ID');
      question = await driver.send('12345678', 'Zone ID');
      question = await driver.send('2345', 'WhatsApp');
      question = await driver.send('+62 812-3456-7890');
      question = await driver.tap(question, 'Lewati');
      question = await driver.tap(question, 'Lewati');
      question = await driver.tap(question, 'Lewati');
      const summary = await driver.tap(question, '2', 'Ringkasan pesanan');
      expect(summary.text).toContain('Zone ID: 2345');
      expect(summary.text).toContain('081234567890');
      expect(summary.text).toContain(`Perkiraan subtotal: ${formatRupiah(44_000)}`);
      await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');
      const [order] = world.sandbox.gameshop.orders();
      expect(order?.request).toMatchObject({
        id: '12345678',
        server: '2345',
        game: 'mobile-legends',
        product_id: 104,
        payment_method_id: 2,
        quantity: 2,
        whatsapp: '081234567890',
      });
      // A virtual account has no QR.
      expect(world.telegram.callsTo('sendPhoto')).toHaveLength(0);
    }));

  it('shows a 422 per field and asks again for just that field, then orders', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      world.sandbox.inject({
        service: 'gameshop',
        path: '/order',
        fault: {
          kind: 'status',
          status: 422,
          body: { message: 'The whatsapp field is invalid.', errors: { whatsapp: ['The whatsapp format is invalid.'] } },
        },
      });
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, freeFire);
      const refused = await driver.tap(summary, indonesian.confirm, 'menolak beberapa isian');
      expect(refused.text).toContain('WhatsApp: The whatsapp format is invalid.');
      const ask = await world.telegram.waitForBotMessage(driver.user, { after: refused });
      expect(ask.text).toContain('nomor WhatsApp');
      const again = await driver.send('0857 1111 2222', 'Ringkasan pesanan');
      expect(again.text).toContain('085711112222');
      // Only the WhatsApp question came between the refusal and the new summary.
      const between = world.telegram
        .botMessages(driver.user)
        .filter((m) => m.messageId > refused.messageId && m.messageId < again.messageId);
      expect(between.map((m) => m.messageId)).toEqual([ask.messageId]);
      await driver.tap(again, indonesian.confirm, 'Pesanan dibuat');
      expect(world.sandbox.gameshop.orders()).toHaveLength(1);
      expect(world.sandbox.gameshop.orders()[0]?.request).toMatchObject({ whatsapp: '085711112222', id: '98765432' });
    }));

  it('without a catalogue asks for numeric ids, and explains a product of another game', ({ expect }) =>
    inWorld({}, async (world) => {
      const { driver, first } = await startOrder(world);
      const productQuestion = await driver.tap(first, 'Free Fire');
      expect(productQuestion.text).toContain('Tidak ada yang rusak');
      expect(productQuestion.text).toContain('ID produk');
      expect(productQuestion.buttons).toEqual([]);
      // 101 is a Mobile Legends product.
      const summary = await answerOrder(driver, productQuestion, {
        ...freeFire,
        game: undefined,
        catalogue: false,
        product: '101',
        method: '1',
        server: 'skip',
      });
      expect(summary.text).toContain('ID 101');
      const explained = await driver.tap(summary, indonesian.confirm, 'bukan produk Free Fire');
      expect(explained.text).toContain('ID produk');
      const again = await driver.send('201', 'Ringkasan pesanan');
      await driver.tap(again, indonesian.confirm, 'Pesanan dibuat');
      expect(world.sandbox.gameshop.orders().map((o) => o.request)).toEqual([
        expect.objectContaining({ game: 'free-fire', product_id: 201 }),
      ]);
      // The optional server was skipped, so it was not sent.
      expect(world.sandbox.gameshop.orders()[0]?.request).not.toHaveProperty('server');
    }));

  it('explains an invalid promo and orders without it when asked', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, { ...freeFire, promo: 'NGAWUR' });
      const refused = await driver.tap(summary, indonesian.confirm, 'tidak berlaku');
      expect(refused.text).toContain('NGAWUR');
      expect(refused.buttons.flat()).toEqual(['✅ Pesan tanpa promo', '🎟️ Ganti kode promo', '❌ Batal']);
      expect(world.sandbox.gameshop.orders()).toHaveLength(0);
      const created = await driver.tap(refused, 'tanpa promo', 'Pesanan dibuat');
      expect(created.text).not.toContain('Diskon promo');
      const [order] = world.sandbox.gameshop.orders();
      expect(world.sandbox.gameshop.orders()).toHaveLength(1);
      expect(order?.request).not.toHaveProperty('promo_code');
    }));

  it('ends on /batal in the middle and lets other commands work again', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const { driver, first } = await startOrder(world);
      const productQuestion = await driver.tap(first, 'Free Fire');
      const methodQuestion = await driver.tap(productQuestion, '70 Diamonds');
      const cancelled = await driver.send('/batal', 'Dibatalkan');
      expect(cancelled.text).toContain('/help');
      // A late tap on the old question orders nothing.
      const query = await driver.tapOnly(methodQuestion, 'QRIS');
      expect((await world.telegram.waitForCallbackAnswer(query)).text).toContain('tidak berlaku');
      const answer = await driver.send('98765432');
      expect(answer.text).toContain('/help');
      expect(world.sandbox.gameshop.orders()).toHaveLength(0);
    }));
});
