import { describe, it } from 'vitest';
import type { InlineKeyboardButton } from 'grammy/types';
import type { EmulatedMessage } from '../../tools/playground/bot-api.ts';
import {
  ChatDriver,
  answerOrder,
  codeTexts,
  english,
  freeFire,
  inWorld,
  indonesian,
  shopper,
  startOrder,
  storedOrder,
  withCatalogue,
} from '../helpers/gameshop.ts';
import { isPng, photoBytes, pngShowsQrOf } from '../helpers/qr-image.ts';
import { formatRupiah } from '../../src/text/format.ts';
import type { GameOrderRecord } from '../../src/store/records/game-orders.ts';

/*
 * How a created order shows its payment: the QR drawn by the bot from the QRIS string (the shop's
 * qr_url is never needed), a virtual-account number to copy, statuses in the user's language.
 */

/** The shop's URLs point at a port nothing listens on: a QR picture fetched from there never shows. */
const nowhere = { ...withCatalogue, sandbox: { gameshop: { publicUrl: 'http://127.0.0.1:9/nowhere' } } };

const copyButtons = (message: EmulatedMessage) =>
  (message.inlineKeyboard?.inline_keyboard ?? [])
    .flat()
    .flatMap((button: InlineKeyboardButton) => ('copy_text' in button ? [{ text: button.text, copy: button.copy_text.text }] : []));

describe.concurrent('payment of a created order', () => {
  it('draws the QRIS QR itself and sends it as a photo; the long QRIS string is not printed', ({ expect }) =>
    inWorld(nowhere, async (world) => {
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, freeFire);
      const created = await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');
      const [order] = world.sandbox.gameshop.orders();
      const data = order!.data;
      expect(data.payment_code.length).toBeGreaterThan(100);
      expect(data.qr_url).toContain('127.0.0.1:9');

      expect(created.text).not.toContain(data.payment_code);
      expect(created.text).not.toContain('000201');
      expect(created.text).toContain('QRIS');
      expect(created.text).toContain('Status pembayaran: Belum dibayar');
      expect(created.text).not.toContain('UNPAID');
      expect(copyButtons(created)).toEqual([]);

      const photo = await world.telegram.waitForBotMessage(driver.user, { after: created, where: (m) => m.method === 'sendPhoto' });
      const png = await photoBytes(world, photo);
      expect(isPng(png)).toBe(true);
      expect(pngShowsQrOf(png, data.payment_code)).toBe(true);
      // Uploaded, not fetched from the shop's qr_url.
      expect(JSON.stringify(world.telegram.callsTo('sendPhoto').map((call) => call.params))).not.toContain(data.qr_url);
      expect(photo.text).toContain(data.order_id);
      expect(photo.text).toContain(formatRupiah(data.total_price));
      expect(photo.text).toContain('GAMESHOP SANDBOX');
      expect(photo.text).not.toContain(data.payment_code);
    }));

  it('shows a virtual-account number as code with a copy button, and no QR', ({ expect }) =>
    inWorld(nowhere, async (world) => {
      const { driver, first } = await startOrder(world);
      const summary = await answerOrder(driver, first, { ...freeFire, method: 'BCA' });
      const created = await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');
      const data = world.sandbox.gameshop.orders()[0]!.data;
      expect(data.payment_code).toMatch(/^\d{16}$/);
      expect(codeTexts(created)).toContain(data.payment_code);
      expect(copyButtons(created)).toEqual([{ text: '📋 Salin kode', copy: data.payment_code }]);
      await world.telegram.waitForIdle();
      expect(world.telegram.callsTo('sendPhoto')).toHaveLength(0);
    }));

  it('speaks English: status, caption, and a way to pay when the photo cannot be sent', ({ expect }) =>
    inWorld(nowhere, async (world) => {
      const { driver, first } = await startOrder(world, '/order', 'en');
      const summary = await answerOrder(driver, first, freeFire, english);
      const created = await driver.tap(summary, english.confirm, 'Order created');
      expect(created.text).toContain('Payment status: Unpaid');
      const data = world.sandbox.gameshop.orders()[0]!.data;
      const photo = await world.telegram.waitForBotMessage(driver.user, { after: created, where: (m) => m.method === 'sendPhoto' });
      expect(photo.text).toContain('Scan');
      expect(pngShowsQrOf(await photoBytes(world, photo), data.payment_code)).toBe(true);

      // A second order, with Telegram refusing the photo: the bot says how to pay instead.
      world.telegram.injectError({ method: 'sendPhoto', errorCode: 400, description: 'Bad Request: IMAGE_PROCESS_FAILED' });
      const again = await driver.send('/order free-fire');
      const summary2 = await answerOrder(driver, again, { ...freeFire, game: undefined }, english);
      const created2 = await driver.tap(summary2, english.confirm, 'Order created');
      const fallback = await world.telegram.waitForBotMessage(driver.user, { after: created2, textIncludes: 'cannot be shown here' });
      expect(fallback.text).toContain('💳 Pay');
      await driver.send('/orders', 'Your game orders');
    }));

  it('/pesanan and /orders show statuses in the user’s language, an unknown one as the shop wrote it', ({ expect }) =>
    inWorld({}, async (world) => {
      const budi = await shopper(world);
      const jane = await shopper(world, 'Jane', 'en');
      const statuses = ['UNPAID', 'PAID', 'EXPIRED', 'ON_HOLD'];
      for (const user of [budi, jane])
        for (const [n, status] of statuses.entries()) await world.app.db.gameOrders.save(storedOrderWith(user.id, n + 1, status));
      const id = await new ChatDriver(world, budi).send('/pesanan', 'Pesanan game Anda');
      expect(id.text).toContain('Belum dibayar');
      expect(id.text).toContain('Sudah dibayar');
      expect(id.text).toContain('Kedaluwarsa');
      expect(id.text).toContain('ON_HOLD');
      expect(id.text).not.toMatch(/\b(UNPAID|PAID|EXPIRED)\b/);
      expect(id.text).toContain('× 1.000');
      const en = await new ChatDriver(world, jane).send('/orders', 'Your game orders');
      expect(en.text).toContain('Unpaid');
      expect(en.text).toContain('Paid');
      expect(en.text).toContain('Expired');
      expect(en.text).toContain('ON_HOLD');
      expect(en.text).toContain('× 1,000');
    }));
});

/** A stored order of `userId` with `status` and a quantity of 1000, payable for years. */
function storedOrderWith(userId: number, n: number, status: string): GameOrderRecord {
  return {
    ...storedOrder(userId, n, 60 - n),
    orderId: `INV-20250131-${String(n).padStart(4, '0')}-${userId}`,
    paymentStatus: status,
    quantity: 1000,
    expiredAt: '2099-01-01T00:00:00.000Z',
  };
}
