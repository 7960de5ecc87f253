import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { periodRange, startOfWibDay } from '../../src/services/export-periods.ts';
import { checkDailySpend } from '../../src/services/downline-spend.ts';
import { maskTarget } from '../../src/text/format.ts';
import { createI18n } from '../../src/bot/i18n.ts';
import { renderSpendRefusal } from '../../src/bot/renderers/downlines.ts';
import type { Db } from '../../src/store/db.ts';
import type { TranslateFunction } from '@grammyjs/i18n';

/** The bytes of the document of `message`, as the playground's chat page loads them. */
async function documentText(world: TestWorld, message: EmulatedMessage): Promise<string> {
  const fileId = message.message.document?.file_id;
  if (fileId === undefined) throw new Error(`message ${message.messageId} has no document`);
  const response = await fetch(`${world.telegram.url}/playground/file/${encodeURIComponent(fileId)}`);
  if (!response.ok) throw new Error(`the chat page cannot load document ${fileId}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer()).toString('utf8');
}

/** A purchase line as seeded: the downline's price, the upline's cost (margin = price - cost), its final status or Pending. */
interface Seed {
  price: number;
  cost: number;
  status: 'Sukses' | 'Gagal' | 'Pending';
  /** Minutes after 00:00 WIB today; negative: yesterday. */
  at: number;
  code?: string;
}

describe("downlines, the upline's view: the list, the daily limit, /laporan dl and /ekspor dl (DOWNLINES=true)", () => {
  let world: TestWorld;
  let clock = Date.now();
  let seeded = 0;
  afterEach(async () => {
    await world.stop();
  });

  const today = () => periodRange('today', new Date(clock)).from;
  const yesterday = () => periodRange('yesterday', new Date(clock)).from;

  /**
   * Budi (a connected reseller) with downline mode open and auto-approve on; Sari (@sari) and Ani
   * joined as his downlines, Sari with Rp 50.000 in her wallet.
   */
  const withDownlines = async (): Promise<{ budi: EmulatedUser; sari: EmulatedUser; ani: EmulatedUser }> => {
    clock = Date.now();
    world = await startWorld({
      jobs: true,
      env: { DOWNLINES: 'true' },
      // An upline reads many reports in a row here: the flood limit would slow them down.
      app: { now: () => new Date(clock), outboxLimits: { perChatMs: 20 }, floodLimit: { updates: 100, windowMs: 3000 } },
    });
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Level' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline auto nyala'), textIncludes: 'nyala' });
    const made = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline undang'), textIncludes: 'Link undangan baru' });
    const payload = /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(made.text ?? '')?.[1] ?? '';
    const sari = world.telegram.createUser({ firstName: 'Sari', username: 'sari', languageCode: 'id' });
    await world.telegram.waitForBotMessage(sari, { after: sari.send(`/start ${payload}`), textIncludes: 'Anda sekarang downline' });
    const ani = world.telegram.createUser({ firstName: 'Ani', languageCode: 'id' });
    await world.telegram.waitForBotMessage(ani, { after: ani.send(`/start ${payload}`), textIncludes: 'Anda sekarang downline' });
    await world.app.services.wallets.adjust(budi.id, sari.id, 50_000, 'saldo awal', 'seed-wallet');
    // The notices of the joins and the adjustment are out before the test's own commands, so each answer is the next message.
    await world.telegram.waitFor(
      () => world.telegram.botMessages(budi).filter((m) => (m.text ?? '').includes('bergabung sebagai downline Anda')).length === 2,
    );
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'saldo awal' });
    await world.idle();
    return { budi, sari, ani };
  };

  /**
   * Records a downline's purchase through `uplineId` straight through the store (the purchase path
   * through the upline is built elsewhere): Pending with its next check a day away, so the watcher
   * leaves it alone, then settled when `line.status` is final.
   */
  const seed = async (downline: EmulatedUser, uplineId: number, line: Seed): Promise<string> => {
    const refId = `DLVIEW${String(++seeded).padStart(4, '0')}`;
    const createdAt = new Date(startOfWibDay(new Date(clock)).getTime() + line.at * 60_000).toISOString();
    await world.app.db.transactions.create({
      refId,
      userId: downline.id,
      chatId: downline.id,
      code: line.code ?? 'TSEL10',
      productName: 'Telkomsel 10.000',
      target: '081234567890',
      price: line.price,
      upline: { id: uplineId, cost: line.cost, margin: line.price - line.cost },
      status: 'Pending',
      createdAt,
      nextCheckAt: new Date(clock + 86_400_000).toISOString(),
    });
    if (line.status !== 'Pending') await world.app.db.transactions.settle(refId, { status: line.status });
    return refId;
  };

  /** Today: Sari 2 Sukses (margin 500 + 1.000), 1 Gagal, 1 Pending; yesterday 1 Sukses; Ani 1 Sukses (margin 400). */
  const seedDay = async (budi: EmulatedUser, sari: EmulatedUser, ani: EmulatedUser) => {
    await seed(sari, budi.id, { price: 11_000, cost: 10_500, status: 'Sukses', at: 60 });
    await seed(sari, budi.id, { price: 22_000, cost: 21_000, status: 'Sukses', at: 61, code: 'TSEL20' });
    await seed(sari, budi.id, { price: 11_000, cost: 10_500, status: 'Gagal', at: 62 });
    await seed(sari, budi.id, { price: 5_500, cost: 5_000, status: 'Pending', at: 63, code: 'TSEL5' });
    await seed(sari, budi.id, { price: 11_000, cost: 10_500, status: 'Sukses', at: -60 });
    await seed(ani, budi.id, { price: 6_000, cost: 5_600, status: 'Sukses', at: 64, code: 'XL5' });
  };

  const reply = (user: EmulatedUser, command: string, textIncludes?: string) =>
    world.telegram.waitForBotMessage(user, { after: user.send(command), ...(textIncludes ? { textIncludes } : {}) });

  /** Taps `button` under `message` and resolves the next message the bot sends `user` (not an edit) that `where` accepts. */
  const tapForNew = async (
    user: EmulatedUser,
    message: EmulatedMessage,
    button: string,
    where: (m: EmulatedMessage) => boolean,
  ): Promise<EmulatedMessage> => {
    const sent = world.telegram.botMessages(user).length;
    user.tap(message, button);
    const found = () => world.telegram.botMessages(user).slice(sent).find(where);
    await world.telegram.waitFor(() => found() !== undefined);
    return found()!;
  };
  const withText = (text: string) => (m: EmulatedMessage) => (m.text ?? '').includes(text);
  const withDocument = (m: EmulatedMessage) => m.message.document !== undefined;

  it("/downline lists each downline's wallet balance, today's purchases and the upline's margin; the card shows them with the limit", async () => {
    const { budi, sari, ani } = await withDownlines();
    await seedDay(budi, sari, ani);

    const home = await reply(budi, '/downline', 'Downline (2)');
    expect(home.text).toMatch(
      /1\. Sari \(@sari\) · Bronze · bergabung .+ · aktif\n└ saldo Rp 50\.000 · hari ini 4 trx · margin Anda Rp 1\.500/,
    );
    expect(home.text).toMatch(/2\. Ani · Bronze · bergabung .+ · aktif\n└ saldo Rp 0 · hari ini 1 trx · margin Anda Rp 400/);
    expect(home.buttons[0]).toEqual(['1. Sari', '2. Ani']);

    budi.tap(home, '1. Sari');
    const card = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('👤'),
    });
    expect(card.text).toContain('Saldo dompet: Rp 50.000');
    expect(card.text).toContain('Hari ini: 4 transaksi, 2 sukses · penjualan Rp 33.000 · margin Anda Rp 1.500');
    expect(card.text).toContain('Batas belanja harian: tanpa batas');
    const report = await tapForNew(budi, card, '📊 Laporan', withText('Laporan downline Sari'));
    expect(report.text).toContain(`Laporan downline Sari (@sari), ${today()} s.d. ${today()} (WIB)`);
    expect(report.text).toContain('Margin Anda: Rp 1.500');
  });

  it('pages a long list of downlines ten at a time', async () => {
    const { budi } = await withDownlines();
    // Eleven more join by the link.
    const payload =
      /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec((await reply(budi, '/downline undang', 'Link undangan baru')).text ?? '')?.[1] ?? '';
    for (let i = 0; i < 11; i++) {
      const user = world.telegram.createUser({ firstName: `Dl${i}`, languageCode: 'id' });
      await world.telegram.waitForBotMessage(user, { after: user.send(`/start ${payload}`), textIncludes: 'Anda sekarang downline' });
    }
    const home = await reply(budi, '/downline', 'Downline (13)');
    expect(home.text).toContain('Menampilkan 1–10 dari 13.');
    expect(home.buttons.flat()).toContain('Berikutnya ▶️');
    expect(home.buttons.flat()).not.toContain('◀️ Sebelumnya');
    budi.tap(home, 'Berikutnya ▶️');
    const next = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('Menampilkan 11–13 dari 13.'),
    });
    expect(next.text).toMatch(/^11\. /m);
    expect(next.buttons.flat()).toContain('◀️ Sebelumnya');
    expect(next.buttons.flat()).not.toContain('Berikutnya ▶️');
  });

  it('sets the daily spend limit by button and by command; the downline is told; the spend check counts what was held today', async () => {
    const { budi, sari, ani } = await withDownlines();
    await seedDay(budi, sari, ani);
    const now = () => new Date(clock);
    expect(await checkDailySpend(world.app.db, sari.id, 1_000_000, now())).toEqual({ fits: true, spent: 0 });

    const home = await reply(budi, '/downline', 'Downline (2)');
    budi.tap(home, '1. Sari');
    const card = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('👤'),
    });
    budi.tap(card, '💳 Batas harian');
    const screen = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('Batas belanja harian Sari'),
    });
    expect(screen.buttons).toEqual([
      ['Rp 100.000', 'Rp 250.000', 'Rp 500.000'],
      ['Rp 1.000.000', 'Rp 2.500.000', 'Rp 5.000.000'],
      ['Tanpa batas'],
      ['⬅️ Kembali'],
    ]);
    const set = budi.tap(screen, 'Rp 500.000');
    expect((await world.telegram.waitForCallbackAnswer(set)).text).toBe('Batas harian: Rp 500.000.');
    // Spent today: 11.000 + 22.000 Sukses and 5.500 Pending (held); the Gagal one was refunded, yesterday's is another day.
    const limited = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === home.messageId && (m.text ?? '').includes('Batas belanja harian: Rp 500.000'),
    });
    expect(limited.text).toContain('Batas belanja harian: Rp 500.000 (terpakai hari ini Rp 38.500, sisa Rp 461.500)');
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi mengatur batas belanja harian Anda: Rp 500.000 per hari (WIB)' });
    expect((await world.app.db.users.get(sari.id))?.membership?.dailyLimit).toBe(500_000);

    const typed = await reply(budi, '/downline limit @sari 40rb', 'Batas harian: Rp 40.000');
    expect(typed.text).toContain('terpakai hari ini Rp 38.500, sisa Rp 1.500');
    expect(typed.buttons.flat()).toContain('💳 Batas harian');
    expect(await checkDailySpend(world.app.db, sari.id, 1_500, now())).toEqual({ fits: true, limit: 40_000, spent: 38_500, left: 1_500 });
    expect(await checkDailySpend(world.app.db, sari.id, 1_501, now())).toEqual({ fits: false, limit: 40_000, spent: 38_500, left: 1_500 });
    // What the purchase path tells her then: her own limit and what is left, nothing of her upline's.
    const i18n = createI18n({ defaultLocale: 'id', db: {} as Db });
    const t = ((key: string, variables?: Record<string, string | number>) => i18n.t('id', key, variables)) as TranslateFunction;
    const refusal = renderSpendRefusal(t, await checkDailySpend(world.app.db, sari.id, 1_501, now()));
    expect(refusal).toBe(
      'Pembelian ini melewati batas belanja harian Anda (Rp 40.000 per hari, WIB): sisa hari ini Rp 1.500. Pilih produk yang lebih murah, coba lagi besok, atau minta upline Anda menaikkan batasnya.',
    );
    // Ani has no limit; her purchase does not count in Sari's.
    expect((await checkDailySpend(world.app.db, ani.id, 10_000_000, now())).fits).toBe(true);
    // Tomorrow the day starts again.
    expect(await checkDailySpend(world.app.db, sari.id, 40_000, new Date(clock + 86_400_000))).toMatchObject({ fits: true, spent: 0 });

    expect((await reply(budi, `/downline limit ${sari.id} off`, 'Batas harian dihapus')).text).toContain(
      'Batas belanja harian: tanpa batas',
    );
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi menghapus batas belanja harian Anda' });
    expect((await world.app.db.users.get(sari.id))?.membership?.dailyLimit).toBeUndefined();
    expect(await checkDailySpend(world.app.db, sari.id, 1_000_000, now())).toEqual({ fits: true, spent: 0 });

    expect((await reply(budi, '/downline limit @sari banyak')).text).toContain('/downline limit @user 500000');
    expect((await reply(budi, '/downline limit @nobody 1000')).text).toContain('bukan downline Anda');
    // A downline cannot set limits: /downline is refused to them.
    expect((await reply(sari, '/downline limit @sari 1000')).text).toContain('Anda adalah downline dari Budi');
    await world.idle();
    // The downline is told of the limit, never of the upline's cost or margin.
    const told = world.telegram.botMessages(sari).map((m) => m.text ?? '');
    expect(told.join('\n')).not.toMatch(/10\.500|21\.000|margin/i);
  });

  it("/laporan dl reports all downlines and one, at their prices with the upline's cost and margin; the upline's own /laporan shows the margin from downlines; a downline's does not", async () => {
    const { budi, sari, ani } = await withDownlines();
    await seedDay(budi, sari, ani);

    const menu = await reply(budi, '/laporan dl', 'Laporan downline');
    expect(menu.buttons).toEqual([
      ['Hari ini', 'Kemarin', 'Minggu ini'],
      ['Bulan ini', 'Bulan lalu'],
    ]);
    const report = (await tapForNew(budi, menu, 'Hari ini', withText('Laporan downline ('))).text ?? '';
    expect(report).toContain(`Laporan downline (2) ${today()} s.d. ${today()} (WIB)`);
    expect(report).toContain('Transaksi: 5');
    expect(report).toContain('✅ Sukses: 3');
    expect(report).toContain('❌ Gagal: 1');
    expect(report).toContain('Diproses/lainnya: 1');
    expect(report).toContain('Penjualan (harga downline): Rp 39.000');
    expect(report).toContain('Modal Anda: Rp 37.100');
    expect(report).toContain('Margin Anda: Rp 1.900');
    expect(report).toContain('1. Sari (@sari): 2× · jual Rp 33.000 · modal Rp 31.500 · margin Rp 1.500');
    expect(report).toContain('2. Ani: 1× · jual Rp 6.000 · modal Rp 5.600 · margin Rp 400');

    const one = await reply(budi, `/laporan dl @sari ${yesterday()} ${today()}`, 'Laporan downline Sari');
    expect(one.text).toContain('Transaksi: 5');
    expect(one.text).toContain('Sukses: 3');
    expect(one.text).toContain('Margin Anda: Rp 2.000');
    expect(one.text).not.toContain('Ani');
    const byId = await reply(budi, `/laporan dl ${ani.id}`, 'Laporan downline Ani');
    const aniToday = (await tapForNew(budi, byId, 'Hari ini', withText('Laporan downline Ani,'))).text ?? '';
    expect(aniToday).toContain('Margin Anda: Rp 400');
    expect((await reply(budi, `/laporan dl @sari ${yesterday()} ${yesterday()}`)).text).toContain('Margin Anda: Rp 500');
    expect((await reply(budi, '/laporan dl @nobody')).text).toContain('bukan downline Anda');
    expect((await reply(budi, '/laporan dl @sari kemarin')).text).toContain('/laporan dl 2026-11-01 2026-11-15');

    // The upline's own report: no purchases of his own today, the margin from downlines all the same.
    const own = await reply(budi, `/laporan ${today()} ${today()}`);
    expect(own.text).toContain('Tidak ada transaksi');
    expect(own.text).toContain('👥 Margin dari downline: Rp 1.900');

    // A downline's own report: their own figures (their cost is their price), never the upline's.
    const hers = await reply(sari, `/laporan ${today()} ${today()}`, 'Laporan');
    expect(hers.text).toContain('Transaksi: 4');
    expect(hers.text).toContain('Omzet (harga modal): Rp 33.000');
    expect(hers.text).not.toContain('Margin dari downline');
    expect(hers.text).not.toMatch(/31\.500|10\.500|21\.000|1\.500/);
    expect((await reply(sari, '/laporan dl')).text).toContain('Mode downline belum dibuka');

    // A removed downline's purchases still count in the reports of all downlines, marked.
    await world.app.services.downlines.changeDownline(budi.id, ani.id, { kind: 'remove' });
    expect((await world.app.db.users.get(budi.id))?.downlineMode?.formerDownlines).toEqual([ani.id]);
    const after = await reply(budi, `/laporan dl ${today()} ${today()}`, 'Laporan downline');
    expect(after.text).toContain('Laporan downline (1)');
    expect(after.text).toContain('Margin Anda: Rp 1.900');
    expect(after.text).toContain('2. Ani (sudah keluar): 1× · jual Rp 6.000 · modal Rp 5.600 · margin Rp 400');
    expect((await reply(budi, `/laporan ${today()} ${today()}`, 'Margin dari downline')).text).toContain('Rp 1.900');
    expect((await reply(budi, `/laporan dl ${ani.id}`)).text).toContain('bukan downline Anda');
  });

  it("/ekspor dl sends the downlines' purchases as CSV with the downline, price, cost and margin; a downline's own /ekspor has none of the upline's figures", async () => {
    const { budi, sari, ani } = await withDownlines();
    await seedDay(budi, sari, ani);

    const menu = await reply(budi, '/ekspor dl', 'Ekspor pembelian downline');
    expect(menu.buttons).toEqual([['Hari ini', 'Kemarin', 'Minggu ini'], ['Bulan ini', 'Bulan lalu'], ['Excel Indonesia (;)']]);
    const file = await tapForNew(budi, menu, 'Hari ini', withDocument);
    expect(file.message.document?.file_name).toBe(`kiosbot-downline-${today()}-${today()}.csv`);
    expect(file.message.caption).toContain('5 pembelian downline');
    const lines = (await documentText(world, file)).slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'Waktu (WIB),Downline,ID downline,Ref ID,Trx ID,Kode produk,Nama produk,Tujuan,Harga downline,Modal Anda,Margin Anda (Sukses),Status,SN',
    );
    expect(lines).toHaveLength(7);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${today()} 01:00:00,Sari \\(@sari\\),${sari.id},DLVIEW\\d+,,TSEL10,Telkomsel 10\\.000,081234567890,11000,10500,500,Sukses,$`,
      ),
    );
    expect(lines[3]).toContain(',11000,10500,,Gagal,');
    expect(lines[4]).toContain(',5500,5000,,');
    expect(lines[5]).toContain(`,Ani,${ani.id},`);

    // Semicolons, switched in place, then one downline by a typed range.
    budi.tap(menu, 'Excel Indonesia (;)');
    const switched = await world.telegram.waitForBotMessage(budi, {
      where: (m) => m.messageId === menu.messageId && m.buttons.flat().includes('✅ Excel Indonesia (;)'),
    });
    const semi = await tapForNew(budi, switched, 'Kemarin', withDocument);
    expect((await documentText(world, semi)).split('\r\n')[0]).toContain(';Downline;');
    const hers = await reply(budi, `/ekspor dl @sari ${yesterday()} ${today()} ;`);
    expect(hers.message.document?.file_name).toBe(`kiosbot-downline-${sari.id}-${yesterday()}-${today()}.csv`);
    expect((await documentText(world, hers)).split('\r\n')).toHaveLength(1 + 5 + 1);
    expect((await reply(budi, `/ekspor dl ${ani.id} ${yesterday()} ${yesterday()}`)).text).toContain('Tidak ada pembelian downline');

    // Sari's own CSV: her price as cost and sell, no margin of her upline's.
    const own = await reply(sari, `/ekspor ${today()} ${today()}`);
    const text = await documentText(world, own);
    expect(text).toContain(',11000,11000,');
    expect(text).not.toMatch(/10500|21000|,5000,/);
  });

  it("with group notices on, a downline's settled purchase is posted to the upline's linked group: masked, no amounts", async () => {
    const { budi, sari, ani } = await withDownlines();
    expect((await reply(budi, '/downline grup nyala')).text).toContain('belum ada grup yang tertaut');
    const groupId = -1_001_234_567;
    await world.app.db.groups.link({ chatId: groupId, ownerId: budi.id, title: 'Kios Budi' });
    expect((await reply(budi, '/downline grup nyala')).text).toContain('Notifikasi grup nyala: setiap pembelian downline');
    expect((await reply(budi, '/downline', 'Downline (2)')).text).toContain('📣 Notifikasi grup: nyala');

    const ref = await seed(sari, budi.id, { price: 11_000, cost: 10_500, status: 'Sukses', at: 60 });
    const failed = await seed(ani, budi.id, { price: 6_000, cost: 5_600, status: 'Gagal', at: 61 });
    /** The group's posts among the notices of `refId`'s settlement, as the settlement watcher queues them. */
    const postsOf = async (refId: string) => {
      const tx = await world.app.db.transactions.find(refId);
      const items = await world.app.notices.settlement(tx!, { notifyOwner: false });
      return items
        .filter((item) => item.chatId === groupId)
        .map((item) => ({ text: (item.payload as { text?: string }).text ?? '', dedupeKey: item.dedupeKey }));
    };
    const [post] = await postsOf(ref);
    const text = post?.text ?? '';
    expect(text).toBe(`👥 Downline Sari: ✅ Sukses — Telkomsel 10.000 ${maskTarget('081234567890')}`);
    expect(text).not.toContain('081234567890');
    expect(text).not.toMatch(/Rp|11\.000|10\.500|margin/);
    expect(post?.dedupeKey).toBe(`dlgroup:${ref}`);
    expect((await postsOf(failed)).map((p) => p.text)).toEqual([
      `👥 Downline Ani: ❌ Gagal — Telkomsel 10.000 ${maskTarget('081234567890')}`,
    ]);

    expect((await reply(budi, '/downline grup mati')).text).toContain('Notifikasi grup mati');
    expect(await postsOf(ref)).toEqual([]);
    expect((await world.app.db.users.get(budi.id))?.downlineMode?.groupNotices).toBeUndefined();
  });
});
