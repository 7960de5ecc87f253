import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { isPng, photoBytes, pngSize } from '../helpers/qr-image.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { customerReceiptData } from '../../src/bot/callback-data/receipt.ts';

/** A purchase of `user` (Rp 10.500 cost) settled Sukses with an SN, sold to the customer for `sellPrice`. */
async function seedSold(world: TestWorld, user: EmulatedUser, sellPrice?: number): Promise<string> {
  const ref = await seedPurchase(world, user, { target: '081234567890' });
  await world.app.db.transactions.settle(ref, {
    status: 'Sukses',
    sn: 'SN7700112233',
    ...(sellPrice === undefined ? {} : { sellPrice }),
  });
  return ref;
}

/** The receipt /cek shows for `ref`. */
async function statusReceipt(world: TestWorld, user: EmulatedUser, command: string, ref: string): Promise<EmulatedMessage> {
  return world.telegram.waitForBotMessage(user, { after: user.send(`${command} ${ref}`) });
}

/** Taps `button` on `receipt` and resolves with the `count` bot messages that follow. */
async function tapForMessages(world: TestWorld, user: EmulatedUser, receipt: EmulatedMessage, button: string, count: number) {
  const before = world.telegram.botMessages(user).length;
  user.tap(receipt, button);
  await world.telegram.waitFor(() => world.telegram.botMessages(user).length >= before + count);
  await world.idle();
  return world.telegram.botMessages(user).slice(before);
}

describe('🧾 Struk pelanggan: the receipt a reseller hands their customer', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('sends a text to forward and a PNG card, with the sell price and never the cost; without a profile a hint to /toko follows', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const ref = await seedSold(world, budi, 12_000);
    const receipt = await statusReceipt(world, budi, '/cek', ref);
    expect(receipt.buttons.flat()).toContain('🧾 Struk pelanggan');

    const [text, card, hint, ...rest] = await tapForMessages(world, budi, receipt, '🧾 Struk pelanggan', 3);
    expect(rest).toEqual([]);
    expect(text?.text).toContain('STRUK PEMBELIAN');
    expect(text?.text).toContain('Telkomsel 10.000');
    expect(text?.text).toContain('0812****7890');
    expect(text?.text).toContain('SN7700112233');
    expect(text?.text).toContain('Rp 12.000');
    expect(text?.text).toContain(ref);
    expect(text?.text).not.toContain('10.500');
    expect(text?.buttons).toEqual([]);

    const png = await photoBytes(world, card!);
    expect(isPng(png)).toBe(true);
    expect(pngSize(png).width).toBe(600);
    expect(pngSize(png).height).toBeGreaterThan(300);
    expect(hint?.text).toContain('/toko');
  });

  it('a purchase confirmed under /jual 1000 prints the sell price of its confirmation, also after the rule changed', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 1000'), textIncludes: '1.000' });
    const ref = await seedSold(world, budi);
    expect((await world.app.db.transactions.get(ref)) ?? (await world.app.db.transactions.find(ref))).toMatchObject({
      price: 10_500,
      sellPrice: 11_500,
      margin: 1000,
    });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 5%'), textIncludes: '5%' });
    const receipt = await statusReceipt(world, budi, '/cek', ref);
    const [text] = await tapForMessages(world, budi, receipt, '🧾 Struk pelanggan', 3);
    expect(text?.text).toContain('Rp 11.500');
    expect(text?.text).not.toContain('10.500');
  });

  it('prints the shop profile (name, address, footer, full target) and sends no hint', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await world.app.db.users.upsert({ id: budi.id, firstName: 'Budi' });
    await world.app.db.users.update(budi.id, {
      shop: { name: 'Konter Budi', address: 'Jl. Melati 5, Bandung', footer: 'Terima kasih!', target: 'full' },
    });
    const ref = await seedSold(world, budi);
    const receipt = await statusReceipt(world, budi, '/cek', ref);
    const messages = await tapForMessages(world, budi, receipt, '🧾 Struk pelanggan', 2);
    expect(messages).toHaveLength(2);
    const text = messages[0]?.text ?? '';
    expect(text.split('\n')[0]).toBe('🏪 Konter Budi');
    expect(text).toContain('Jl. Melati 5, Bandung');
    expect(text).toContain('Terima kasih!');
    expect(text).toContain('081234567890');
    // Without a sell price the customer pays the price.
    expect(text).toContain('Rp 10.500');
    expect(messages[1]?.message.photo).toBeDefined();
  });

  it('is on Sukses receipts only (/cek and /riwayat), not on pending or failed ones', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const pending = await seedPurchase(world, budi);
    const failed = await seedPurchase(world, budi);
    await world.app.db.transactions.settle(failed, { status: 'Gagal' });
    const sold = await seedSold(world, budi, 12_000);
    expect((await statusReceipt(world, budi, '/cek', pending)).buttons.flat()).not.toContain('🧾 Struk pelanggan');
    expect((await statusReceipt(world, budi, '/cek', failed)).buttons.flat()).not.toContain('🧾 Struk pelanggan');

    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/riwayat') });
    const soldButton = list.buttons.flat().find((label) => label.startsWith('1.'));
    budi.tap(list, soldButton ?? '');
    await world.telegram.waitFor(() => list.text?.includes(sold) === true);
    expect(list.buttons.flat()).toContain('🧾 Struk pelanggan');
  });

  it("answers another user's or an unknown transaction with an alert and sends nothing", async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const ani = await seedConnectedUser(world, 'Ani', { account: resellerDemoAccounts.second });
    const budis = await seedSold(world, budi, 12_000);
    const anis = await seedSold(world, ani, 15_000);
    const receipt = await statusReceipt(world, ani, '/cek', anis);
    const own = ani.tap(receipt, '🧾 Struk pelanggan');
    await world.telegram.waitForCallbackAnswer(own);
    await world.idle();
    const seen = world.telegram.botMessages(ani).length;

    for (const [id, ref] of [
      ['forged-1', budis],
      ['forged-2', '01JNOSUCHREF000000000000000'],
    ] as const) {
      world.telegram.pushUpdate({ callback_query: { ...own, id, data: customerReceiptData.pack({ ref }) } });
      const answer = await world.telegram.waitForCallbackAnswer(id);
      expect(answer.showAlert).toBe(true);
      expect(answer.text).toContain('tidak ada di akun Anda');
    }
    await world.idle();
    expect(world.telegram.botMessages(ani)).toHaveLength(seen);
    expect(world.telegram.botMessages(ani).some((m) => m.text?.includes(budis))).toBe(false);
  });

  it('speaks English to an English user', async () => {
    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    const ref = await seedSold(world, ann, 12_000);
    const receipt = await statusReceipt(world, ann, '/status', ref);
    const [text, card, hint] = await tapForMessages(world, ann, receipt, '🧾 Customer receipt', 3);
    expect(text?.text).toContain('PURCHASE RECEIPT');
    expect(text?.text).toContain('Target number: 0812****7890');
    expect(text?.text).toContain('Price: Rp 12.000');
    expect(text?.text).not.toContain('10.500');
    expect(isPng(await photoBytes(world, card!))).toBe(true);
    expect(hint?.text).toContain('/shop');
  });
});
