import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedMessage } from '../../tools/playground/bot-api.ts';

/** The transaction buttons of a history page: `n. CODE → target`. */
const itemButtons = (message: EmulatedMessage) => message.buttons.flat().filter((text) => /^\d+\. /.test(text));

describe('/riwayat: the transaction history', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('lists the transactions newest first, five per page, paging in place', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const empty = await world.telegram.waitForBotMessage(budi, { after: budi.send('/riwayat') });
    expect(empty.text).toContain('Belum ada transaksi');

    for (let i = 1; i <= 7; i++) await seedPurchase(world, budi, { target: `08120000000${i}` });

    const history = await world.telegram.waitForBotMessage(budi, { after: budi.send('/riwayat') });
    expect(history.text).toContain('Riwayat transaksi — halaman 1');
    expect(itemButtons(history)).toEqual([
      '1. TSEL10 → 081200000007',
      '2. TSEL10 → 081200000006',
      '3. TSEL10 → 081200000005',
      '4. TSEL10 → 081200000004',
      '5. TSEL10 → 081200000003',
    ]);
    expect(history.text).toContain('1. ⏳ Telkomsel 10.000 → 081200000007\nRp 10.500 · Pending ·');
    expect(history.text).toMatch(/WIB/);
    expect(history.buttons.flat()).toContain('Berikutnya ›');
    expect(history.buttons.flat()).not.toContain('‹ Sebelumnya');

    budi.tap(history, 'Berikutnya ›');
    await world.telegram.waitFor(() => history.text?.includes('halaman 2'));
    expect(itemButtons(history)).toEqual(['6. TSEL10 → 081200000002', '7. TSEL10 → 081200000001']);
    expect(history.buttons.flat()).not.toContain('Berikutnya ›');

    budi.tap(history, '‹ Sebelumnya');
    await world.telegram.waitFor(() => history.text?.includes('halaman 1'));
    expect(itemButtons(history)).toHaveLength(5);
    expect(world.telegram.botMessages(budi)).toHaveLength(2);
  });

  it('opens a receipt with the PLN token grouped as code, Beli lagi and copy buttons, and goes back to the same page', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const oldest = await seedPurchase(world, budi, { code: 'PLN20', productName: 'PLN Token 20.000', target: '14500000001', price: 20200 });
    for (let i = 1; i <= 5; i++) await seedPurchase(world, budi, { target: `08120000000${i}` });
    world.sandbox.reseller.settle(oldest, 'Sukses', '1234-5678-9012-3456-7890');
    await world.app.services.purchases.check(oldest);

    const history = await world.telegram.waitForBotMessage(budi, { after: budi.send('/riwayat') });
    budi.tap(history, 'Berikutnya ›');
    await world.telegram.waitFor(() => history.text?.includes('halaman 2'));
    expect(history.text).toContain('6. ✅ PLN Token 20.000 → 14500000001\nRp 20.200 · Sukses ·');

    budi.tap(history, '6. PLN20 → 14500000001');
    await world.telegram.waitFor(() => history.text?.includes('Struk transaksi'));
    expect(history.text).toContain('Produk: PLN Token 20.000 (PLN20)');
    expect(history.text).toContain('Tujuan: 14500000001');
    expect(history.text).toContain('Harga: Rp 20.200');
    expect(history.text).toContain('Status: ✅ Sukses');
    expect(history.text).toContain(`Ref ID: ${oldest}`);
    expect(history.text).toMatch(/Trx ID: \S+/);
    expect(history.text).toMatch(/Waktu: \d{2} \w{3} \d{4} \d{2}\.\d{2} WIB/);
    // The SN of a PLN product is its token: grouped in fours, copied as digits only.
    const token = '1234 5678 9012 3456 7890';
    const tokenAt = history.text?.indexOf(`Token: ${token}`) ?? -1;
    expect(history.message.entities).toContainEqual(expect.objectContaining({ type: 'code', offset: tokenAt + 7, length: token.length }));
    expect(history.inlineKeyboard?.inline_keyboard.flat()).toContainEqual({
      text: '📋 Salin token',
      copy_text: { text: '12345678901234567890' },
    });
    expect(history.buttons.flat()).toContain('🔁 Beli lagi');

    budi.tap(history, '« Kembali ke riwayat');
    await world.telegram.waitFor(() => history.text?.includes('halaman 2'));
    expect(world.telegram.botMessages(budi)).toHaveLength(1);
  });

  it("never shows another user's transactions, not even for forged button data", async () => {
    const siti = await seedConnectedUser(world, 'Siti', { account: resellerDemoAccounts.second });
    const sitiRef = await seedPurchase(world, siti, { target: '085711112222' });
    const budi = await seedConnectedUser(world, 'Budi');
    await seedPurchase(world, budi, { target: '081233334444' });

    const history = await world.telegram.waitForBotMessage(budi, { after: budi.send('/riwayat') });
    expect(itemButtons(history)).toEqual(['1. TSEL10 → 081233334444']);
    expect(history.text).not.toContain('085711112222');

    // A tampered client sends the detail button's data with Siti's ref id.
    const edits = world.telegram.callsTo('editMessageText').length;
    world.telegram.pushUpdate({
      callback_query: {
        id: '999001',
        from: budi.user,
        chat_instance: '1',
        message: history.message,
        data: `hd:0:${sitiRef}`,
      },
    });
    await world.telegram.waitForIdle();
    expect(world.telegram.callsTo('editMessageText')).toHaveLength(edits);
    for (const message of world.telegram.botMessages(budi)) {
      expect(message.text).not.toContain('085711112222');
      expect(message.text).not.toContain(sitiRef);
    }
  });

  it('speaks English with /history', async () => {
    const jane = await seedConnectedUser(world, 'Jane', { languageCode: 'en' });
    await seedPurchase(world, jane, { target: '081200000009' });
    const history = await world.telegram.waitForBotMessage(jane, { after: jane.send('/history') });
    expect(history.text).toContain('Transaction history — page 1');
    expect(history.text).toContain('Rp 10.500 · Pending');
  });
});
