/**
 * Price-change alerts (/pantau): the watcher fetches each watched reseller account's price list
 * once per pass, keeps the last copy and sends each subscriber one digest of what changed, for
 * the brands they follow, to their linked group too when they chose it. The tests drive one pass
 * at a time (`services.priceWatch.checkAll()`); the job's pacing has its own test below.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWorld, type TestWorld, type TestWorldOptions } from '../helpers/app.ts';
import { seedConnectedUser } from '../helpers/seed-transactions.ts';
import { eventually } from '../helpers/buy.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { createPriceWatchJob } from '../../src/jobs/price-watch.ts';
import { createLogger } from '../../src/logger.ts';
import type { SellPriceOf } from '../../src/services/pricing.ts';
import { anotherDownline, uplineAndDownline } from '../helpers/downline-world.ts';

let world: TestWorld;
afterEach(async () => {
  vi.useRealTimers();
  await world?.stop();
});

async function start(options: TestWorldOptions = {}): Promise<TestWorld> {
  world = await startWorld({ ...options, env: { PRICE_WATCH_MINUTES: '0', ...options.env } });
  world.app.outbox.start();
  return world;
}

/** One pass of the watcher, then every queued message delivered. */
async function pass(): Promise<void> {
  await world.app.services.priceWatch.checkAll();
  await world.app.outbox.drain();
}

const priceListRequests = () => world.sandbox.received.filter((r) => r.service === 'reseller' && r.path === '/price-list');
const digests = (chat: { readonly id: number }) =>
  world.telegram.botMessages(chat).filter((m) => /Perubahan harga|Price changes/.test(m.text ?? ''));

/** A connected reseller who typed `/pantau <words>` and got the settings screen. */
async function subscriber(
  name: string,
  words = 'semua',
  options: { languageCode?: string; account?: typeof resellerDemoAccounts.main } = {},
) {
  const user = await seedConnectedUser(world, name, options);
  await world.telegram.waitForBotMessage(user, { after: user.send(`/pantau ${words}`), textIncludes: '📊' });
  return user;
}

/** Changes of every kind, in Telkomsel and XL products. */
function changeEveryKind(): void {
  const sim = world.sandbox.reseller;
  sim.setProduct('TSEL5', { status: 'gangguan' });
  sim.setProduct('XL10', { status: 'kosong' });
  sim.setProduct('TSEL150', { status: 'active' }); // unavailable in the demo data
  sim.setProduct('TSEL10', { price: 10900 });
  sim.setProduct('TSEL20', { price: 20100 });
  sim.addProduct({ code: 'TSEL7', name: 'Telkomsel 7.000', price: 7400, status: 'active', brand: 'Telkomsel', category: 'pulsa' });
  sim.removeProduct('TSEL15');
}

describe('price-change digests', () => {
  it('the first pass only records the list; the next sends one digest with every kind of change, grouped', async () => {
    await start();
    const budi = await subscriber('Budi');
    await pass();
    expect(digests(budi)).toHaveLength(0);

    changeEveryKind();
    await pass();
    const [digest, ...more] = digests(budi);
    expect(more).toHaveLength(0);
    const text = digest?.text ?? '';
    const section = (title: string) => text.slice(text.indexOf(title)).split('\n\n')[0] ?? '';
    expect(section('⛔ Gangguan (2)')).toContain('TSEL5 Telkomsel 5.000 — gangguan');
    expect(section('⛔ Gangguan (2)')).toContain('XL10 XL 10.000 — kosong');
    expect(section('✅ Aktif lagi (1)')).toContain('TSEL150');
    expect(section('🔺 Naik (1)')).toContain('TSEL10 Telkomsel 10.000: Rp 10.450 → Rp 10.900');
    expect(section('🔻 Turun (1)')).toContain('TSEL20 Telkomsel 20.000: Rp 20.450 → Rp 20.100');
    expect(section('🆕 Baru (1)')).toContain('TSEL7 Telkomsel 7.000 — Rp 7.400');
    expect(section('🗑 Dihapus (1)')).toContain('TSEL15 Telkomsel 15.000');
    // In that order, and no margin without a sell price.
    const order = ['⛔', '✅ Aktif', '🔺', '🔻', '🆕', '🗑'].map((mark) => text.indexOf(mark));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text).not.toContain('untung');

    // Nothing changed since: no message, and the list is still fetched once per pass.
    const before = priceListRequests().length;
    await pass();
    expect(digests(budi)).toHaveLength(1);
    expect(priceListRequests().length).toBe(before + 1);
  });

  it("the first change after the account's first subscriber subscribed is reported (the starting point is taken at subscribing)", async () => {
    await start();
    const budi = await subscriber('Budi');
    world.sandbox.reseller.setProduct('TSEL10', { price: 10600 });
    await pass();
    const [digest, ...more] = digests(budi);
    expect(more).toHaveLength(0);
    expect(digest?.text).toContain('TSEL10 Telkomsel 10.000: Rp 10.450 → Rp 10.600');
  });

  it("the watcher's fetch is the catalogue's copy: a summary after it shows the new price", async () => {
    await start();
    const budi = await subscriber('Budi');
    const before = await world.app.services.catalogue.priceList(budi.id);
    expect(before.find((p) => p.code === 'TSEL10')?.price).toBe(10450);
    world.sandbox.reseller.setProduct('TSEL10', { price: 10600 });
    await pass();
    const requests = priceListRequests().length;
    const after = await world.app.services.catalogue.priceList(budi.id);
    expect(after.find((p) => p.code === 'TSEL10')?.price).toBe(10600);
    // Shared, not fetched again.
    expect(priceListRequests().length).toBe(requests);
  });

  it('one fetch per provider account however many subscribers share it; each gets their own digest in their language', async () => {
    await start();
    const budi = await subscriber('Budi');
    const ann = await subscriber('Ann', 'all', { languageCode: 'en' });
    // Notices speak the language a user chose with /language, like every other notice.
    const picker = await world.telegram.waitForBotMessage(ann, { after: ann.send('/language'), textIncludes: 'language' });
    ann.tap(picker, '🇬🇧 English');
    await eventually(async () => (await world.app.db.users.get(ann.id))?.locale === 'en');
    const sari = await subscriber('Sari', 'semua', { account: resellerDemoAccounts.second });
    // Connected but not subscribed: no fetch for her account, no digest.
    const dewi = await seedConnectedUser(world, 'Dewi', { account: resellerDemoAccounts.poor });

    const before = priceListRequests().length;
    await pass();
    const fetched = priceListRequests()
      .slice(before)
      .map((r) => (r.body as { api_id: string }).api_id);
    expect(fetched.sort()).toEqual([resellerDemoAccounts.main.apiId, resellerDemoAccounts.second.apiId].sort());

    world.sandbox.reseller.setProduct('TSEL10', { price: 10900 });
    await pass();
    expect(priceListRequests().length).toBe(before + 4);
    expect(digests(budi)).toHaveLength(1);
    expect(digests(sari)).toHaveLength(1); // the sandbox's price list is the same for every account
    const [english] = digests(ann);
    expect(english?.text).toContain('🔺 Up (1)');
    expect(english?.text).toContain('Rp 10.450 → Rp 10.900');
    expect(digests(dewi)).toHaveLength(0);
  });

  it('follows only the chosen brands; a change in other brands sends nothing', async () => {
    await start();
    const budi = await subscriber('Budi', 'xl');
    expect((await world.app.services.priceWatch.settings(budi.id))?.brands).toEqual(['xl']);
    await pass();

    world.sandbox.reseller.setProduct('TSEL10', { price: 10900 });
    await pass();
    expect(digests(budi)).toHaveLength(0);

    world.sandbox.reseller.setProduct('TSEL20', { price: 20900 });
    world.sandbox.reseller.setProduct('XL10', { status: 'kosong' });
    await pass();
    const [digest] = digests(budi);
    expect(digest?.text).toContain('XL10 XL 10.000 — kosong');
    expect(digest?.text).not.toContain('TSEL');
  });

  it('the linked group gets its own copy, without cost or margin; unsubscribed users get nothing', async () => {
    const sellPriceOf: SellPriceOf = (_userId, product) => product.price + 1000;
    await start({ app: { sellPriceOf } });
    const budi = await subscriber('Budi');
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/linkgroup', { chat: group }),
      textIncludes: 'menerima notifikasi',
    });
    const screen = await world.telegram.waitForBotMessage(budi, { after: budi.send('/pantau'), textIncludes: 'Konter Budi' });
    budi.tap(screen, '👥 Kirim juga ke grup');
    await world.telegram.waitFor(async () => (await world.app.services.priceWatch.settings(budi.id))?.group === true);
    const rudi = await subscriber('Rudi');
    const off = await world.telegram.waitForBotMessage(rudi, { after: rudi.send('/pantau off') });
    expect(off.text).toContain('dimatikan');
    await pass();

    changeEveryKind();
    await pass();
    const [own] = digests(budi);
    expect(own?.text).toContain('Rp 10.450 → Rp 10.900 · untung Rp 1.000');
    const [post, ...more] = digests(group);
    expect(more).toHaveLength(0);
    expect(post?.text).toContain('🔺 Naik (1)');
    expect(post?.text).toContain('TSEL10 Telkomsel 10.000');
    expect(post?.text).not.toMatch(/Rp|untung|rugi/);
    expect(digests(rudi)).toHaveLength(0);
  });

  it('a price rise above the sell price is called out as a loss', async () => {
    // Budi sells TSEL10 at Rp 10.700 and TSEL20 at Rp 21.000.
    const sells: Record<string, number> = { TSEL10: 10700, TSEL20: 21000 };
    await start({ app: { sellPriceOf: (_userId, product) => sells[product.code] } });
    const budi = await subscriber('Budi');
    await pass();
    world.sandbox.reseller.setProduct('TSEL10', { price: 10900 });
    world.sandbox.reseller.setProduct('TSEL20', { price: 20600 });
    await pass();
    const text = digests(budi)[0]?.text ?? '';
    expect(text).toContain('⚠️ 1 produk rugi');
    expect(text).toContain('TSEL10 Telkomsel 10.000: Rp 10.450 → Rp 10.900 ⚠️ rugi Rp 200 (jual Rp 10.700)');
    expect(text).toContain('TSEL20 Telkomsel 20.000: Rp 20.450 → Rp 20.600 · untung Rp 400');
  });

  it("uses the reseller's own /jual rules: the new margin, and a loss when a rise passes a fixed sell price", async () => {
    await start();
    const budi = await subscriber('Budi');
    // A fixed price for TSEL10 (Rp 10.700) and Rp 1.000 on everything else.
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 1000'), textIncludes: '1.000' });
    await world.app.db.users.update(budi.id, {
      sellRules: { ...(await world.app.db.users.get(budi.id))!.sellRules!, products: { TSEL10: { kind: 'price', price: 10_700 } } },
    });
    await pass();
    world.sandbox.reseller.setProduct('TSEL10', { price: 10900 });
    world.sandbox.reseller.setProduct('TSEL20', { price: 20600 });
    await pass();
    const text = digests(budi)[0]?.text ?? '';
    expect(text).toContain('TSEL10 Telkomsel 10.000: Rp 10.450 → Rp 10.900 ⚠️ rugi Rp 200 (jual Rp 10.700)');
    expect(text).toContain('TSEL20 Telkomsel 20.000: Rp 20.450 → Rp 20.600 · untung Rp 1.000');
  });

  it('a restart keeps the last copy: no new baseline, no digest sent twice', async () => {
    await start();
    const budi = await subscriber('Budi');
    await pass();
    world.sandbox.reseller.setProduct('TSEL10', { price: 10900 });
    await world.restart();
    world.app.outbox.start();
    await pass();
    expect(digests(budi)).toHaveLength(1);

    await world.restart();
    world.app.outbox.start();
    await pass();
    expect(digests(budi)).toHaveLength(1);
  });

  it('a long digest is cut to one message with "… and N more"', async () => {
    await start();
    const budi = await subscriber('Budi');
    await pass();
    for (let i = 0; i < 150; i++) {
      world.sandbox.reseller.addProduct({
        code: `BULK${i}`,
        name: `Produk Baru Dengan Nama Cukup Panjang ${i}`,
        price: 1000 + i,
        status: 'active',
        brand: 'Produk',
        category: 'pulsa',
      });
    }
    await pass();
    const [digest, ...more] = digests(budi);
    expect(more).toHaveLength(0);
    expect(digest?.text?.length).toBeLessThanOrEqual(4096);
    expect(digest?.text).toMatch(/… dan \d+ lainnya/);
  });
});

describe('/pantau settings', () => {
  it('shows the settings, toggles a brand, all brands and off by buttons', async () => {
    await start();
    const budi = await seedConnectedUser(world, 'Budi');
    const screen = await world.telegram.waitForBotMessage(budi, { after: budi.send('/pantau'), textIncludes: '📊' });
    expect(screen.text).toContain('Belum aktif');
    expect(screen.buttons.flat()).toEqual(expect.arrayContaining(['🔔 Aktifkan', 'Semua brand', 'Telkomsel', 'XL']));

    budi.tap(screen, 'Telkomsel');
    await world.telegram.waitFor(() => screen.text?.includes('Brand: Telkomsel') === true);
    expect(screen.buttons.flat()).toContain('✅ Telkomsel');
    budi.tap(screen, 'XL');
    await world.telegram.waitFor(() => screen.text?.includes('Brand: Telkomsel, XL') === true);
    budi.tap(screen, '✅ Telkomsel');
    await world.telegram.waitFor(() => screen.text?.includes('Brand: XL') === true);
    budi.tap(screen, 'Semua brand');
    await world.telegram.waitFor(() => screen.text?.includes('Brand: semua') === true);
    expect(await world.app.services.priceWatch.settings(budi.id)).toEqual({ brands: [], group: false });
    expect(screen.text).toContain('belum ada (ketik /linkgroup');

    budi.tap(screen, '🔕 Matikan');
    await world.telegram.waitFor(() => screen.text?.includes('Belum aktif') === true);
    expect(await world.app.services.priceWatch.settings(budi.id)).toBeUndefined();
  });

  it('/pantau with brand words follows them (two-word brands too) and names the words it does not know', async () => {
    await start();
    const budi = await seedConnectedUser(world, 'Budi');
    const unknown = await world.telegram.waitForBotMessage(budi, { after: budi.send('/pantau telkomsel mobile legends zzz') });
    expect(unknown.text).toContain('zzz');
    await world.telegram.waitFor(() => world.app.services.priceWatch.settings(budi.id) !== undefined);
    expect((await world.app.services.priceWatch.settings(budi.id))?.brands.sort()).toEqual(['mobile legends', 'telkomsel']);
  });

  it('needs a connected reseller account', async () => {
    await start();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const answer = await world.telegram.waitForBotMessage(budi, { after: budi.send('/pantau') });
    expect(answer.text).not.toContain('📊');
    expect(await world.app.services.priceWatch.settings(budi.id)).toBeUndefined();
  });
});

describe('a downline watches their own prices (DOWNLINES=true)', () => {
  const startWithDownline = async (levelLines?: readonly string[]) => {
    await start({ env: { DOWNLINES: 'true' } });
    return await uplineAndDownline(world, levelLines ? { levelLines } : {});
  };

  it('/pantau works for a downline (they have no reseller account of their own): the settings screen, with their brands', async () => {
    const { sari } = await startWithDownline();
    const screen = await world.telegram.waitForBotMessage(sari, { after: sari.send('/pantau'), textIncludes: '📊' });
    expect(screen.buttons.flat()).toEqual(expect.arrayContaining(['🔔 Aktifkan', 'Telkomsel']));
    sari.tap(screen, '🔔 Aktifkan');
    await world.telegram.waitFor(async () => (await world.app.services.priceWatch.settings(sari.id)) !== undefined);
    await world.telegram.waitForBotMessage(sari, { after: sari.send('/pantau xl'), textIncludes: 'Brand: XL' });
  });

  it("the digest shows the downline's level prices, never the upline's cost; one fetch of the account for both", async () => {
    const { budi, sari } = await startWithDownline();
    for (const user of [budi, sari])
      await world.telegram.waitForBotMessage(user, { after: user.send('/pantau semua'), textIncludes: '📊' });
    await pass();
    world.sandbox.reseller.setProduct('TSEL10', { price: 10_900 });
    world.sandbox.reseller.setProduct('XL10', { status: 'kosong' });
    const before = priceListRequests().length;
    await pass();
    expect(priceListRequests().length).toBe(before + 1);
    expect(digests(budi)[0]?.text).toContain('TSEL10 Telkomsel 10.000: Rp 10.450 → Rp 10.900');
    const [digest, ...more] = digests(sari);
    expect(more).toHaveLength(0);
    expect(digest?.text).toContain('TSEL10 Telkomsel 10.000: Rp 10.950 → Rp 11.400');
    expect(digest?.text).toContain('XL10 XL 10.000 — kosong');
    expect(digest?.text).not.toMatch(/10\.450|10\.900|untung|rugi/);
  });

  it('downlines at two levels each get their own prices from the one fetch of the account', async () => {
    const { budi, sari } = await startWithDownline();
    await world.app.services.downlines.saveLevel(budi.id, 'Gold', ['Rp 200']);
    const dewi = await anotherDownline(world, budi, 'Dewi');
    const gold = (await world.app.services.downlines.mode(budi.id))?.levels.find((l) => l.name === 'Gold');
    await world.app.services.downlines.changeDownline(budi.id, dewi.id, { kind: 'level', levelId: gold!.id });
    for (const user of [sari, dewi])
      await world.telegram.waitForBotMessage(user, { after: user.send('/pantau semua'), textIncludes: '📊' });
    await pass();
    world.sandbox.reseller.setProduct('TSEL10', { price: 10_900 });
    const before = priceListRequests().length;
    await pass();
    expect(priceListRequests().length).toBe(before + 1);
    expect(digests(sari)[0]?.text).toContain('TSEL10 Telkomsel 10.000: Rp 10.950 → Rp 11.400');
    expect(digests(dewi)[0]?.text).toContain('TSEL10 Telkomsel 10.000: Rp 10.650 → Rp 11.100');
    expect(digests(dewi)[0]?.text).not.toContain('10.950');
    expect(digests(budi)).toHaveLength(0);
  });

  it("a change of the upline's level rules is a change of the downline's prices; a cost change the level's rounding absorbs is none", async () => {
    // Bronze: Rp 500, rounded up to Rp 1.000 — TSEL10 at Rp 10.450 sells to Sari at Rp 11.000.
    const { budi, sari } = await startWithDownline(['Rp 500', 'bulat 1000']);
    for (const user of [budi, sari])
      await world.telegram.waitForBotMessage(user, { after: user.send('/pantau semua'), textIncludes: '📊' });
    await pass();
    world.sandbox.reseller.setProduct('TSEL10', { price: 10_480 });
    await pass();
    expect(digests(budi)[0]?.text).toContain('Rp 10.450 → Rp 10.480');
    expect(digests(sari)).toHaveLength(0);

    // Bronze becomes Rp 1.000 (still rounded up to Rp 1.000): Rp 10.480 + 1.000 → Rp 12.000.
    await world.app.services.downlines.saveLevel(budi.id, 'Bronze', ['Rp 1000']);
    await pass();
    expect(digests(budi)).toHaveLength(1);
    const [digest, ...more] = digests(sari);
    expect(more).toHaveLength(0);
    expect(digest?.text).toContain('TSEL10 Telkomsel 10.000: Rp 11.000 → Rp 12.000');
    expect(digest?.text).not.toContain('10.480');
  });

  it("while the upline's account is disconnected the downline's watch rests: no fetch, no digest, and /pantau says the upline's service is unavailable", async () => {
    const { budi, sari } = await startWithDownline();
    await world.telegram.waitForBotMessage(sari, { after: sari.send('/pantau semua'), textIncludes: '📊' });
    await pass();
    await world.app.services.credentials.remove(budi.id, 'reseller');
    world.sandbox.reseller.setProduct('TSEL10', { price: 10_900 });
    const before = priceListRequests().length;
    await pass();
    expect(priceListRequests().length).toBe(before);
    expect(digests(sari)).toHaveLength(0);
    const answer = await world.telegram.waitForBotMessage(sari, { after: sari.send('/pantau') });
    expect(answer.text).toContain('Layanan upline Anda sedang tidak tersedia');
  });

  it("the downline's own /jual prices over their level price give their margin in the digest", async () => {
    const { sari } = await startWithDownline();
    await world.telegram.waitForBotMessage(sari, { after: sari.send('/jual 1000'), textIncludes: '1.000' });
    await world.telegram.waitForBotMessage(sari, { after: sari.send('/pantau semua'), textIncludes: '📊' });
    await pass();
    world.sandbox.reseller.setProduct('TSEL10', { price: 10_900 });
    await pass();
    expect(digests(sari)[0]?.text).toContain('TSEL10 Telkomsel 10.000: Rp 10.950 → Rp 11.400 · untung Rp 1.000');
  });
});

describe('the price watch job', () => {
  it('spreads the accounts of a pass over the interval, one at a time, and stops cleanly', async () => {
    vi.useFakeTimers();
    const checked: number[] = [];
    const accounts = 4;
    const job = createPriceWatchJob({
      intervalMs: 60_000,
      logger: createLogger({ level: 'error', write: () => undefined }),
      service: {
        async checkAll(pause) {
          for (let i = 0; i < accounts; i++) {
            if (i > 0 && pause && !(await pause(accounts))) return;
            checked.push(Date.now());
          }
        },
      },
    });
    const started = Date.now();
    job.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(checked).toEqual([started]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(checked.map((at) => at - started)).toEqual([0, 15_000, 30_000, 45_000, 60_000]);
    const stopping = job.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopping;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(checked).toHaveLength(5);
  });
});
