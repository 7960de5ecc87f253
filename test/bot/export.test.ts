import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedMessage } from '../../tools/playground/bot-api.ts';
import { periodRange } from '../../src/services/export-periods.ts';

/** The bytes of the document of `message`, as the playground's chat page loads them. */
async function documentText(world: TestWorld, message: EmulatedMessage): Promise<string> {
  const fileId = message.message.document?.file_id;
  if (fileId === undefined) throw new Error(`message ${message.messageId} has no document`);
  const response = await fetch(`${world.telegram.url}/playground/file/${encodeURIComponent(fileId)}`);
  if (!response.ok) throw new Error(`the chat page cannot load document ${fileId}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer()).toString('utf8');
}

const header = 'Waktu (WIB),Ref ID,Trx ID,Kode produk,Nama produk,Tujuan,Modal,Harga jual,Margin (Sukses),Status,SN';

describe('/ekspor: the transactions of a period as a CSV document', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it("sends today's own transactions as kiosbot-<from>-<to>.csv, with a BOM, a header and one row each", async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const ani = await seedConnectedUser(world, 'Ani', { account: resellerDemoAccounts.second });
    const first = await seedPurchase(world, budi, { target: '081200000001' });
    const second = await seedPurchase(world, budi, { code: 'XL5', productName: 'XL 5GB, "Combo"', target: '=1+2', price: 25000 });
    const anis = await seedPurchase(world, ani, { target: '081299999999' });
    const today = periodRange('today', new Date()).from;

    const menu = await world.telegram.waitForBotMessage(budi, { after: budi.send('/ekspor') });
    expect(menu.text).toContain('Ekspor transaksi');
    expect(menu.buttons).toEqual([['Hari ini', 'Kemarin', 'Minggu ini'], ['Bulan ini', 'Bulan lalu'], ['Excel Indonesia (;)']]);

    const sent = world.telegram.botMessages(budi).length;
    budi.tap(menu, 'Hari ini');
    await world.telegram.waitFor(() => world.telegram.botMessages(budi).length > sent);
    const file = world.telegram.botMessages(budi).at(-1)!;
    expect(file.message.document?.file_name).toBe(`kiosbot-${today}-${today}.csv`);
    expect(file.message.caption).toContain('2 transaksi');
    const text = await documentText(world, file);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(header);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(
      new RegExp(`^${today} \\d{2}:\\d{2}:\\d{2},${first},[^,]*,TSEL10,Telkomsel 10\\.000,081200000001,10500,10500,,Pending,$`),
    );
    expect(lines[2]).toContain(`${second},`);
    expect(lines[2]).toContain(`,XL5,"XL 5GB, ""Combo""",'=1+2,25000,25000,,Pending,`);
    expect(text).not.toContain(anis);
    expect(text).not.toContain('081299999999');
  });

  it('a margin only for Sukses rows: Gagal and Pending rows leave it empty, so the column sums to what was earned', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await world.app.db.users.upsert({ id: budi.id, firstName: 'Budi' });
    await world.app.db.users.update(budi.id, {
      sellRules: { default: { kind: 'fixed', amount: 1000 }, step: 1, brands: {}, products: {} },
    });
    const done = await seedPurchase(world, budi, { target: '081200000001' });
    const failed = await seedPurchase(world, budi, { target: '081200000002' });
    const open = await seedPurchase(world, budi, { target: '081200000003' });
    await world.app.db.transactions.settle(done, { status: 'Sukses', sn: 'SN1' });
    await world.app.db.transactions.settle(failed, { status: 'Gagal' });
    const file = await world.telegram.waitForBotMessage(budi, {
      after: budi.send(`/ekspor ${periodRange('today', new Date()).from} ${periodRange('today', new Date()).from}`),
    });
    const lines = (await documentText(world, file)).split('\r\n');
    const row = (ref: string) => lines.find((line) => line.includes(ref)) ?? '';
    expect(row(done)).toMatch(/,10500,11500,1000,Sukses,SN1$/);
    expect(row(failed)).toMatch(/,10500,11500,,Gagal,$/);
    expect(row(open)).toMatch(/,10500,11500,,[^,]+,$/);
  });

  it('sends a period of more than 10,000 transactions in one file', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const count = 10_001;
    const now = Date.now();
    await world.app.db.transactions.createMany(
      Array.from({ length: count }, (_, i) => ({
        refId: `bulk-${String(i).padStart(5, '0')}`,
        userId: budi.id,
        chatId: budi.id,
        code: 'TSEL10',
        productName: 'Telkomsel 10.000',
        target: `0812${String(i).padStart(8, '0')}`,
        price: 10500,
        // Created and never sent: the world runs no settlement watcher (jobs are off).
        createdAt: new Date(now - (count - i) * 1000).toISOString(),
      })),
    );
    const today = periodRange('today', new Date()).from;
    const file = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/ekspor 2020-01-01 ${today}`) });
    expect(file.message.caption).toContain('10.001 transaksi');
    const lines = (await documentText(world, file)).split('\r\n');
    expect(lines).toHaveLength(count + 2);
    expect(lines[1]).toContain(',bulk-00000,');
    expect(lines[count]).toContain(',bulk-10000,');
    expect(lines[count]).toMatch(/,081200010000,10500,10500,,[^,]+,$/);
  });

  it('writes ; as the separator after the Excel Indonesia (;) button', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const ref = await seedPurchase(world, budi, { productName: 'Paket; murah' });
    const menu = await world.telegram.waitForBotMessage(budi, { after: budi.send('/ekspor') });
    budi.tap(menu, 'Excel Indonesia (;)');
    await world.telegram.waitFor(() => menu.buttons.flat().includes('✅ Excel Indonesia (;)'));
    const sent = world.telegram.botMessages(budi).length;
    budi.tap(menu, 'Bulan ini');
    await world.telegram.waitFor(() => world.telegram.botMessages(budi).length > sent);
    const text = await documentText(world, world.telegram.botMessages(budi).at(-1)!);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(header.replaceAll(',', ';'));
    expect(lines[1]).toContain(`;${ref};`);
    expect(lines[1]).toContain(';TSEL10;"Paket; murah";081234567890;10500;10500;;Pending;');
  });

  it('exports a typed range in either date form; an empty period gets a message and no file', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const ref = await seedPurchase(world, budi);
    const today = periodRange('today', new Date()).from;
    const [year, month, day] = today.split('-');

    const file = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/ekspor 2020-01-01 ${today}`) });
    expect(file.message.document?.file_name).toBe(`kiosbot-2020-01-01-${today}.csv`);
    expect(await documentText(world, file)).toContain(ref);

    const slashes = await world.telegram.waitForBotMessage(budi, {
      after: budi.send(`/export ${day}/${month}/${year} ${day}/${month}/${year} ;`),
    });
    expect(slashes.message.document?.file_name).toBe(`kiosbot-${today}-${today}.csv`);
    expect((await documentText(world, slashes)).split('\r\n')[0]).toContain(';Ref ID;');

    const empty = await world.telegram.waitForBotMessage(budi, { after: budi.send('/ekspor 01/01/2020 31/01/2020') });
    expect(empty.message.document).toBeUndefined();
    expect(empty.text).toContain('Tidak ada transaksi');
  });

  it('writes the header and statuses in English for an English user', async () => {
    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    await seedPurchase(world, ann);
    const today = periodRange('today', new Date()).from;
    const file = await world.telegram.waitForBotMessage(ann, { after: ann.send(`/export ${today} ${today}`) });
    expect(file.message.caption).toContain('📤 1 transaction, ');
    const lines = (await documentText(world, file)).slice(1).split('\r\n');
    expect(lines[0]).toBe('Time (WIB),Ref ID,Trx ID,Product code,Product name,Target,Cost,Sell price,Margin (Success),Status,SN');
    expect(lines[1]).toMatch(/,10500,10500,,Pending,$/);
  });

  it('says which date forms work when a date is wrong or the range is reversed', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const bad = await world.telegram.waitForBotMessage(budi, { after: budi.send('/ekspor 2026-02-30 2026-03-01') });
    expect(bad.text).toContain('2026-11-01 2026-11-15');
    expect(bad.text).toContain('01/11/2026 15/11/2026');
    const reversed = await world.telegram.waitForBotMessage(budi, { after: budi.send('/ekspor 2026-11-15 2026-11-01') });
    expect(reversed.text).toContain('sebelum');
  });

  it('answers in groups that the export is private', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await seedPurchase(world, budi);
    const group = world.telegram.createGroup({ title: 'Toko Budi', members: [budi] });
    const reply = await world.telegram.waitForBotMessage(group, { after: budi.send('/ekspor', { chat: group }) });
    expect(reply.text).toContain('chat pribadi');
    expect(world.telegram.botMessages(group).every((message) => message.message.document === undefined)).toBe(true);
  });
});
