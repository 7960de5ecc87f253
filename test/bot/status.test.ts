import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase, transactionRequests } from '../helpers/seed-transactions.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedMessage } from '../../tools/playground/bot-api.ts';

const copyButtons = (message: EmulatedMessage) =>
  (message.inlineKeyboard?.inline_keyboard.flat() ?? []).filter((button) => 'copy_text' in button);

describe('/cek: the status of one transaction', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('re-checks an open transaction with the provider, then shows it settled with its SN', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const refId = await seedPurchase(world, budi);
    const before = transactionRequests(world, refId);

    const pending = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${refId}`) });
    expect(pending.text).toContain('Status: ⏳ Pending');
    expect(pending.text).toContain(`Ref ID: ${refId}`);
    expect(pending.text).toContain('Tujuan: 081234567890');
    expect(pending.text).toContain('Harga: Rp 10.500');
    expect(pending.buttons.flat()).toContain('🔄 Cek lagi');
    expect(transactionRequests(world, refId)).toBe(before + 1);

    world.sandbox.reseller.settle(refId, 'Sukses', 'SN123');
    // A lower-case copy of the ref id works too.
    const settled = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${refId.toLowerCase()}`) });
    expect(settled.text).toContain('Status: ✅ Sukses');
    expect(settled.text).toContain('SN: SN123');
    expect(settled.message.entities).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'code', length: 'SN123'.length })]));
    expect(copyButtons(settled)).toEqual([{ text: '📋 Salin SN', copy_text: { text: 'SN123' } }]);
    expect(settled.buttons.flat()).not.toContain('🔄 Cek lagi');
    expect(transactionRequests(world, refId)).toBe(before + 2);

    // Settled: shown from the store, the provider is not asked again.
    const again = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/status ${refId}`) });
    expect(again.text).toContain('Status: ✅ Sukses');
    expect(transactionRequests(world, refId)).toBe(before + 2);
  });

  it("answers someone else's ref id exactly like an unknown one, without asking the provider", async () => {
    const siti = await seedConnectedUser(world, 'Siti', { account: resellerDemoAccounts.second });
    const sitiRef = await seedPurchase(world, siti, { target: '085700001111' });
    const budi = await seedConnectedUser(world, 'Budi');
    const before = transactionRequests(world, sitiRef);

    const foreign = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${sitiRef}`) });
    const unknownRef = '01JZZZZZZZZZZZZZZZZZZZZZZZ';
    const unknown = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/cek ${unknownRef}`) });
    expect(foreign.text).toContain('tidak ditemukan di akun Anda');
    expect(foreign.text?.replace(sitiRef, 'REF')).toBe(unknown.text?.replace(unknownRef, 'REF'));
    expect(foreign.text).not.toContain('085700001111');
    expect(foreign.buttons).toEqual([]);
    expect(transactionRequests(world, sitiRef)).toBe(before);
  });

  it('without a ref id lists the open transactions to tap, and says so when there are none', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const none = await world.telegram.waitForBotMessage(budi, { after: budi.send('/cek') });
    expect(none.text).toContain('Tidak ada transaksi yang masih Pending');

    const first = await seedPurchase(world, budi, { target: '081111111111' });
    const second = await seedPurchase(world, budi, { code: 'XL5', productName: 'XL 5.000', target: '081799999999', price: 5300 });
    const done = await seedPurchase(world, budi, { target: '082222222222' });
    world.sandbox.reseller.settle(done, 'Sukses', 'SN-DONE');
    await world.app.services.purchases.check(done);
    const siti = await seedConnectedUser(world, 'Siti', { account: resellerDemoAccounts.second });
    await seedPurchase(world, siti, { target: '085733333333' });

    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/cek') });
    expect(list.text).toContain('(2)');
    // Newest first, only Budi's open ones.
    expect(list.buttons).toEqual([['1. XL5 → 081799999999'], ['2. TSEL10 → 081111111111']]);

    world.sandbox.reseller.settle(first, 'Gagal');
    const before = transactionRequests(world, first);
    budi.tap(list, '2. TSEL10 → 081111111111');
    await world.telegram.waitFor(() => list.text?.includes('Status: ❌ Gagal'));
    expect(list.text).toContain(`Ref ID: ${first}`);
    expect(transactionRequests(world, first)).toBe(before + 1);
    expect(transactionRequests(world, second)).toBe(1);

    budi.tap(list, '« Daftar Pending');
    await world.telegram.waitFor(() => list.text?.includes('(1)'));
    expect(list.buttons).toEqual([['1. XL5 → 081799999999']]);
    expect(world.telegram.botMessages(budi)).toHaveLength(2);
  });

  it('speaks English with /status', async () => {
    const jane = await seedConnectedUser(world, 'Jane', { languageCode: 'en' });
    const refId = await seedPurchase(world, jane, { target: '081200000000' });
    world.sandbox.reseller.settle(refId, 'Gagal');
    const reply = await world.telegram.waitForBotMessage(jane, { after: jane.send(`/status ${refId}`) });
    expect(reply.text).toContain('Status: ❌ Failed');
    expect(reply.text).toContain('Target: 081200000000');
  });
});
