import { afterEach, describe, expect, it } from 'vitest';
import { ChatDriver, inWorld, indonesian, shopper, withCatalogue } from '../helpers/gameshop.ts';
import { waitForSummary } from '../helpers/buy.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { connectData } from '../../src/bot/callback-data/connect.ts';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { advanceWallClock } from '../helpers/wall-clock.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

/*
 * Commands typed in the middle of a flow: information commands (and their main-menu buttons) are
 * answered and the pending question is asked again; any other command ends the flow, says so, and
 * runs.
 */

const main = resellerDemoAccounts.main;

/** A user with the game shop and the reseller account connected. */
async function bothConnected(world: TestWorld): Promise<ChatDriver> {
  const user = await shopper(world);
  await world.app.services.credentials.verifyAndSave(user.id, 'reseller', { apiId: main.apiId, apiKey: main.apiKey });
  return new ChatDriver(world, user);
}

/** Bot messages after `after` (by id), as texts. */
function textsAfter(world: TestWorld, user: EmulatedUser, after: number): Array<string | undefined> {
  return world.telegram
    .botMessages(user)
    .filter((m) => m.messageId > after)
    .map((m) => m.text);
}

describe.concurrent('commands inside a flow', () => {
  it('/saldo inside /pesan is answered, the question is asked again with its buttons, and the order goes on to the end', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const driver = await bothConnected(world);
      const first = await driver.send('/pesan');
      const productQuestion = await driver.tap(first, 'Free Fire');
      const before = driver.lastId();
      const balance = await driver.send('/saldo', 'Rp 1.000.000');
      const again = await world.telegram.waitForBotMessage(driver.user, { after: balance, textIncludes: 'Pilih produk' });
      expect(again.text).toBe(productQuestion.text);
      expect(again.buttons).toEqual(productQuestion.buttons);
      // Nothing else was said: no hint, no "did not understand".
      expect(textsAfter(world, driver.user, before)).toEqual([balance.text, again.text]);

      // The order continues from the question asked again, also after a main-menu button.
      const methodQuestion = await driver.tap(again, '70 Diamonds', 'metode pembayaran');
      const status = await driver.send('🔎 Cek', 'Pending');
      const methodAgain = await world.telegram.waitForBotMessage(driver.user, { after: status, textIncludes: 'metode pembayaran' });
      expect(methodAgain.buttons).toEqual(methodQuestion.buttons);
      await driver.tap(methodAgain, 'QRIS', 'Player ID');
    }));

  it('/Saldo (any case) inside /pesan keeps the order, which then reaches the summary and is created', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const driver = await bothConnected(world);
      const first = await driver.send('/pesan');
      const productQuestion = await driver.tap(first, 'Free Fire');
      const methodQuestion = await driver.tap(productQuestion, '70 Diamonds', 'metode pembayaran');
      const playerQuestion = await driver.tap(methodQuestion, 'QRIS', 'Player ID');
      const balance = await driver.send('/Saldo', 'Rp 1.000.000');
      const again = await world.telegram.waitForBotMessage(driver.user, { after: balance, textIncludes: 'Player ID' });
      expect(again.text).toBe(playerQuestion.text);
      let question = await driver.send('98765432', 'WhatsApp');
      question = await driver.send('081234567890');
      question = await driver.tap(question, indonesian.skip);
      question = await driver.tap(question, indonesian.skip);
      question = await driver.tap(question, indonesian.skip);
      const summary = await driver.tap(question, '1', indonesian.summary);
      await driver.tap(summary, indonesian.confirm, 'Pesanan dibuat');
      expect(world.sandbox.gameshop.orders()).toHaveLength(1);
      expect(world.sandbox.gameshop.orders()[0]?.request).toMatchObject({ id: '98765432', product_id: 201, payment_method_id: 1 });
    }));

  it('/saldo inside /pesan after a restart is answered and the order goes on', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const driver = await bothConnected(world);
      const first = await driver.send('/pesan');
      const productQuestion = await driver.tap(first, 'Free Fire');
      await world.idle();
      await world.restart();
      const balance = await driver.send('/saldo', 'Rp 1.000.000');
      const again = await world.telegram.waitForBotMessage(driver.user, { after: balance, textIncludes: 'Pilih produk' });
      expect(again.buttons).toEqual(productQuestion.buttons);
      await driver.tap(again, '70 Diamonds', 'metode pembayaran');
    }));

  it('/beli inside /pesan ends the order, says so, and starts the purchase', ({ expect }) =>
    inWorld(withCatalogue, async (world) => {
      const driver = await bothConnected(world);
      const first = await driver.send('/pesan');
      const productQuestion = await driver.tap(first, 'Free Fire');
      const ended = await driver.send('/beli', 'Pesanan sebelumnya dibatalkan');
      const ask = await world.telegram.waitForBotMessage(driver.user, { after: ended, textIncludes: 'kode produk' });
      expect(ask.messageId).toBeGreaterThan(ended.messageId);
      // The buy flow now owns the chat: the code is its answer.
      await driver.send('TSEL10', 'nomor HP');
      // The order's old buttons no longer order anything.
      const query = await driver.tapOnly(productQuestion, '70 Diamonds');
      expect((await world.telegram.waitForCallbackAnswer(query)).text).toContain('tidak berlaku');
      expect(world.sandbox.gameshop.orders()).toHaveLength(0);
    }));

  it('/harga inside /beli is answered, the code is asked again, and the purchase goes on to its summary', ({ expect }) =>
    inWorld({}, async (world) => {
      const driver = await bothConnected(world);
      const ask = await driver.send('/beli', 'kode produk');
      const prices = await driver.send('/harga', 'Daftar harga');
      const again = await world.telegram.waitForBotMessage(driver.user, { after: prices, textIncludes: 'kode produk' });
      expect(again.text).toBe(ask.text);
      // The price list's page buttons work inside the flow too, and leave it waiting.
      const brand = prices.buttons.flat()[0] ?? '';
      driver.user.tap(prices, brand);
      await world.telegram.waitFor(() => prices.text?.includes('produk, halaman'));
      await driver.send('TSEL10', 'nomor HP');
      const summary = await waitForSummary(world, driver.user, driver.user.send('081234567890'));
      expect(summary.text).toContain('TSEL10');
    }));

  it.for([
    { command: '/ekspor', title: 'Ekspor transaksi', toggle: 'Excel Indonesia (;)' },
    { command: '/laporan', title: 'Laporan transaksi', toggle: undefined },
  ])(
    '$command inside /beli is answered, its buttons work, and the purchase goes on to its summary',
    ({ command, title, toggle }, { expect }) =>
      inWorld({}, async (world) => {
        const driver = await bothConnected(world);
        const ask = await driver.send('/beli', 'kode produk');
        const menu = await driver.send(command, title);
        const again = await world.telegram.waitForBotMessage(driver.user, { after: menu, textIncludes: 'kode produk' });
        expect(again.text).toBe(ask.text);
        if (toggle !== undefined) {
          driver.user.tap(menu, toggle);
          await world.telegram.waitFor(() => menu.buttons.flat().includes(`✅ ${toggle}`));
        }
        const empty = world.telegram.waitForBotMessage(driver.user, { after: again, textIncludes: 'Tidak ada transaksi' });
        driver.user.tap(menu, 'Bulan lalu');
        await empty;
        await driver.send('TSEL10', 'nomor HP');
        const summary = await waitForSummary(world, driver.user, driver.user.send('081234567890'));
        expect(summary.text).toContain('TSEL10');
      }),
  );

  it('another command inside /beli ends the purchase and names it', ({ expect }) =>
    inWorld({}, async (world) => {
      const driver = await bothConnected(world);
      await driver.send('/beli', 'kode produk');
      const ended = await driver.send('/pesanan', 'Pembelian sebelumnya dibatalkan');
      const next = await world.telegram.waitForBotMessage(driver.user, { after: ended });
      expect(next.text).not.toContain('dibatalkan');
      // The code is no longer taken as an answer.
      const reply = await driver.send('TSEL10');
      expect(reply.text).not.toContain('nomor HP');
    }));

  it('the connect flow answers /saldo while it waits for the key, asks again, and takes the key', ({ expect }) =>
    inWorld({}, async (world) => {
      const user = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
      const driver = new ChatDriver(world, user);
      const picker = await driver.send('/connect');
      user.tap(picker, connectData.pack({ action: 'pick', service: 'reseller' }));
      await world.telegram.waitForBotMessage(user, { after: picker, textIncludes: 'API ID' });
      const keyPrompt = await driver.send(main.apiId, 'API key');
      const balance = await driver.send('/saldo', 'belum terhubung');
      const again = await world.telegram.waitForBotMessage(user, { after: balance, textIncludes: 'API key' });
      expect(again.text).toBe(keyPrompt.text);
      expect(again.buttons).toEqual(keyPrompt.buttons);
      const sent = user.send(main.apiKey);
      await world.telegram.waitForBotMessage(user, { after: sent, textIncludes: '✅' });
      expect(sent.deleted).toBe(true);
      expect(await world.app.services.credentials.has(user.id, 'reseller')).toBe(true);
    }));
});

describe('an information command after the flow timed out', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('is answered once, and nothing is asked again', async () => {
    world = await startWorld();
    const driver = await bothConnected(world);
    await driver.send('/beli', 'kode produk');
    await world.idle();
    advanceWallClock(16 * 60_000); // the step times out (15 minutes)
    const before = driver.lastId();
    const balance = await driver.send('/saldo', 'Rp 1.000.000');
    await driver.send('/start', 'Halo');
    const texts = textsAfter(world, driver.user, before);
    expect(texts.filter((text) => text === balance.text)).toHaveLength(1);
    expect(texts.some((text) => text?.includes('kode produk') || text?.includes('dibatalkan'))).toBe(false);
  });
});
