import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';
import { periodRange } from '../../src/services/export-periods.ts';

/** A purchase of `user` settled with `status` (the world runs no settlement watcher). */
async function seedSettled(
  world: TestWorld,
  user: EmulatedUser,
  status: 'Sukses' | 'Gagal',
  line: { code?: string; productName?: string; price?: number } = {},
): Promise<string> {
  const ref = await seedPurchase(world, user, line);
  await world.app.db.transactions.settle(ref, { status });
  return ref;
}

describe('/laporan: the figures of a period', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it("offers the periods as buttons and reports today's own transactions by status, cost, rate, products and brands", async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const ani = await seedConnectedUser(world, 'Ani', { account: resellerDemoAccounts.second });
    await seedSettled(world, budi, 'Sukses');
    await seedSettled(world, budi, 'Sukses');
    await seedSettled(world, budi, 'Sukses', { code: 'XL5', productName: 'XL 5.000', price: 5_600 });
    await seedSettled(world, budi, 'Gagal', { code: 'XL5', productName: 'XL 5.000', price: 5_600 });
    await seedPurchase(world, budi);
    await seedSettled(world, ani, 'Sukses', { code: 'ML86', productName: 'Mobile Legends 86 Diamonds', price: 20_000 });
    const today = periodRange('today', new Date()).from;

    const menu = await world.telegram.waitForBotMessage(budi, { after: budi.send('/laporan') });
    expect(menu.text).toContain('Laporan');
    expect(menu.buttons).toEqual([['Hari ini', 'Kemarin', 'Minggu ini'], ['Bulan ini', 'Bulan lalu'], ['🗓 Ringkasan harian']]);

    const sent = world.telegram.botMessages(budi).length;
    budi.tap(menu, 'Hari ini');
    await world.telegram.waitFor(() => world.telegram.botMessages(budi).length > sent);
    const text = world.telegram.botMessages(budi).at(-1)!.text;
    expect(text).toContain(`${today} s.d. ${today}`);
    expect(text).toContain('Transaksi: 5');
    expect(text).toContain('Sukses: 3');
    expect(text).toContain('Gagal: 1');
    expect(text).toContain('Diproses: 1');
    expect(text).toContain('Omzet (harga modal): Rp 26.600');
    expect(text).toContain('Tingkat sukses: 75%');
    expect(text).toMatch(/1\. TSEL10 Telkomsel 10\.000 · 2× · Rp 21\.000\n2\. XL5 XL 5\.000 · 1× · Rp 5\.600/);
    expect(text).toContain('Telkomsel: 2× · Rp 21.000');
    expect(text).toContain('XL: 1× · Rp 5.600');
    expect(text).not.toContain('ML86');
    expect(text).not.toContain('Mobile Legends');
  });

  it('reports a typed range; an empty period gets a clear message; a wrong date says which forms work', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await seedSettled(world, budi, 'Gagal');
    const today = periodRange('today', new Date()).from;

    const report = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/laporan 2020-01-01 ${today}`) });
    expect(report.text).toContain(`2020-01-01 s.d. ${today}`);
    expect(report.text).toContain('Gagal: 1');
    expect(report.text).toContain('Tingkat sukses: 0%');
    expect(report.text).toContain('Omzet (harga modal): Rp 0');

    const empty = await world.telegram.waitForBotMessage(budi, { after: budi.send('/laporan 01/01/2020 31/01/2020') });
    expect(empty.text).toContain('Tidak ada transaksi pada 2020-01-01 s.d. 2020-01-31');

    const bad = await world.telegram.waitForBotMessage(budi, { after: budi.send('/laporan 2026-02-30 2026-03-01') });
    expect(bad.text).toContain('/laporan 2026-11-01 2026-11-15');
    const reversed = await world.telegram.waitForBotMessage(budi, { after: budi.send('/laporan 2026-11-15 2026-11-01') });
    expect(reversed.text).toContain('sebelum');
  });

  it('counts a purchase by its WIB day: 00:30 WIB on 1 November is in November, not in October', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await world.app.db.transactions.createMany([
      {
        refId: 'wib-boundary',
        userId: budi.id,
        chatId: budi.id,
        code: 'TSEL10',
        productName: 'Telkomsel 10.000',
        target: '081234567890',
        price: 10500,
        createdAt: '2026-10-31T17:30:00.000Z',
      },
    ]);
    const november = await world.telegram.waitForBotMessage(budi, { after: budi.send('/laporan 2026-11-01 2026-11-01') });
    expect(november.text).toContain('Transaksi: 1');
    const october = await world.telegram.waitForBotMessage(budi, { after: budi.send('/laporan 2026-10-01 2026-10-31') });
    expect(october.text).toContain('Tidak ada transaksi');
  });

  it('reports in English for an English user', async () => {
    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    await seedSettled(world, ann, 'Sukses');
    await seedSettled(world, ann, 'Sukses');
    await seedSettled(world, ann, 'Gagal');
    const today = periodRange('today', new Date()).from;
    const menu = await world.telegram.waitForBotMessage(ann, { after: ann.send('/report') });
    expect(menu.buttons[0]).toEqual(['Today', 'Yesterday', 'This week']);
    const report = await world.telegram.waitForBotMessage(ann, { after: ann.send(`/report ${today} ${today}`) });
    expect(report.text).toContain(`Report, ${today} to ${today}`);
    expect(report.text).toContain('Success: 2');
    expect(report.text).toContain('Turnover (cost price): Rp 21.000');
    expect(report.text).toContain('Success rate: 66.7%');
  });

  it('answers in groups that the report is private', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await seedSettled(world, budi, 'Sukses');
    const group = world.telegram.createGroup({ title: 'Toko Budi', members: [budi] });
    const reply = await world.telegram.waitForBotMessage(group, { after: budi.send('/laporan', { chat: group }) });
    expect(reply.text).toContain('chat pribadi');
    expect(world.telegram.botMessages(group).some((message) => (message.text ?? '').includes('Omzet'))).toBe(false);
  });
});
