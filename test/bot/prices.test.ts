import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser } from '../helpers/seed-transactions.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';
import { codesShown, productButtons } from '../helpers/prices.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { normaliseQuery } from '../../src/bot/features/prices.ts';

/** A user whose reseller account is connected (seeded through the service: connecting is not the subject here). */
const connectedUser = (world: TestWorld, firstName: string, languageCode = 'id'): Promise<EmulatedUser> =>
  seedConnectedUser(world, firstName, { languageCode });

const priceListRequests = (world: TestWorld) =>
  world.sandbox.received.filter((request) => request.service === 'reseller' && request.path === '/price-list').length;

describe('normaliseQuery: what is searched of a typed text', () => {
  it('keeps at most 40 bytes of lower-case, single-spaced words, never half a character', () => {
    expect(normaliseQuery('  Pulsa   XL:10  ')).toBe('pulsa xl 10');
    expect(normaliseQuery('a'.repeat(100))).toBe('a'.repeat(40));
    // Each emoji is 4 bytes in UTF-8 (two UTF-16 units): ten fit, the eleventh is left whole.
    expect(normaliseQuery('😀'.repeat(30))).toBe('😀'.repeat(10));
    expect(normaliseQuery(`${'a'.repeat(39)}é`)).toBe('a'.repeat(39));
    // Cut just after a space: no trailing space is kept.
    expect(normaliseQuery(`${'a'.repeat(39)} bcd`)).toBe('a'.repeat(39));
  });

  // The longest message Telegram delivers: every plain text message of a connected user passes
  // here, so its work must grow with the text, not with its square (it once dropped one character
  // per turn and re-measured the rest: thousands of passes over a 4,095-character message).
  it.each([
    ['letters', 'a'.repeat(4095)],
    ['words', 'pulsa xl 10 '.repeat(342).slice(0, 4095)],
    ['emoji', '😀'.repeat(2047)],
  ])('a 4,095-character text (%s) is measured and cut in a bounded number of passes', (_shape, text) => {
    const measured = vi.spyOn(Buffer, 'byteLength');
    const split = vi.spyOn(Array, 'from');
    try {
      expect(Buffer.byteLength(normaliseQuery(text), 'utf8')).toBeLessThanOrEqual(40);
      // One pass to measure and one to cut would do; a few more are allowed, thousands are not.
      expect(measured.mock.calls.length + split.mock.calls.length).toBeLessThanOrEqual(4);
    } finally {
      measured.mockRestore();
      split.mockRestore();
    }
  });
});

describe('/harga: the price list', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('browses brands, then pages through a brand 10 at a time by editing the same message', async () => {
    const budi = await connectedUser(world, 'Budi');
    const sent = budi.send('/harga');
    const list = await world.telegram.waitForBotMessage(budi, { after: sent, textIncludes: 'Daftar harga' });
    expect(list.text).toContain('123 produk');
    expect(list.buttons.flat()).toEqual(expect.arrayContaining(['Telkomsel (15)', 'Mobile Legends (13)', 'PLN (6)', 'Genshin Impact (5)']));

    budi.tap(list, 'Telkomsel (15)');
    await world.telegram.waitFor(() => list.text?.includes('Telkomsel — 15 produk, halaman 1/2'));
    expect(productButtons(list)).toHaveLength(10);
    expect(codesShown(list)[0]).toBe('TSEL5');
    expect(list.buttons.flat()).toContain('TSEL10 · Rp 10.450');
    expect(list.text).toContain('TSEL10 Telkomsel 10.000 — Rp 10.450');
    expect(list.buttons.flat()).not.toContain('‹ Sebelumnya');

    budi.tap(list, 'Berikutnya ›');
    await world.telegram.waitFor(() => list.text?.includes('halaman 2/2'));
    expect(codesShown(list)).toEqual(['TSELD1GB', 'TSELD3GB', 'TSELD5GB', 'TSELD10GB', 'TSELD25GB']);
    expect(list.buttons.flat()).not.toContain('Berikutnya ›');

    budi.tap(list, '‹ Sebelumnya');
    await world.telegram.waitFor(() => list.text?.includes('halaman 1/2'));
    expect(codesShown(list)).toHaveLength(10);

    budi.tap(list, '« Semua brand');
    await world.telegram.waitFor(() => list.text?.includes('Pilih brand'));

    // Every step edited the one message: no new bot messages, and at most one price-list request.
    expect(world.telegram.botMessages(budi)).toHaveLength(1);
    expect(list.history.length).toBeGreaterThanOrEqual(4);
    expect(priceListRequests(world)).toBe(1);
  });

  it('/harga telkomsel shows only matching products; words that match nothing say so', async () => {
    const budi = await connectedUser(world, 'Budi');
    const found = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga telkomsel') });
    expect(found.text).toContain('Hasil pencarian "telkomsel" — 15 produk, halaman 1/2');
    expect(codesShown(found)).toHaveLength(10);
    expect(codesShown(found).every((code) => code.startsWith('TSEL'))).toBe(true);
    budi.tap(found, 'Berikutnya ›');
    await world.telegram.waitFor(() => found.text?.includes('halaman 2/2'));
    expect(codesShown(found).every((code) => code.startsWith('TSEL'))).toBe(true);

    const narrow = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga ml 86') });
    expect(codesShown(narrow)).toEqual(['ML86']);

    const none = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga zzzz') });
    expect(none.text).toContain('Tidak ada produk yang cocok dengan "zzzz"');
    expect(none.buttons.flat()).toEqual(['« Semua brand', '🔍 Cari']);
  });

  it('searches for words typed as a plain message, and asks for them from the 🔍 button', async () => {
    const budi = await connectedUser(world, 'Budi');
    const typed = await world.telegram.waitForBotMessage(budi, { after: budi.send('Telkomsel 10') });
    expect(typed.text).toContain('Hasil pencarian "telkomsel 10"');
    expect(codesShown(typed)).toContain('TSEL10');

    // Chatter that matches no product gets the ordinary answer, not an empty search.
    const chatter = await world.telegram.waitForBotMessage(budi, { after: budi.send('halo apa kabar') });
    expect(chatter.text).toContain('/help');

    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga') });
    budi.tap(list, '🔍 Cari');
    const prompt = await world.telegram.waitForBotMessage(budi, { after: list, textIncludes: 'Ketik nama produk' });
    // The client answers a forced reply as a reply to the prompt: there, even no match is answered.
    const sent = budi.send('zzzz');
    expect(sent.message.reply_to_message?.message_id).toBe(prompt.messageId);
    const none = await world.telegram.waitForBotMessage(budi, { after: sent });
    expect(none.text).toContain('Tidak ada produk yang cocok dengan "zzzz"');
    const found = await world.telegram.waitForBotMessage(budi, { after: budi.send('mobile legends 86') });
    expect(codesShown(found)).toEqual(['ML86']);
  });

  it('deletes an API key pasted into the search prompt, never searching for or echoing it', async () => {
    const budi = await connectedUser(world, 'Budi');
    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga') });
    budi.tap(list, '🔍 Cari');
    const again = await world.telegram.waitForBotMessage(budi, { after: list, textIncludes: 'Ketik nama produk' });
    const secret = budi.send('rs_live_9f8e7d6c5b4a3210');
    expect(secret.message.reply_to_message?.message_id).toBe(again.messageId);
    const warned = await world.telegram.waitForBotMessage(budi, { after: secret });
    expect(warned.text).toContain('saya hapus');
    expect(warned.text).not.toContain('rs_live_9f8e7d6c5b4a3210');
    expect(secret.deleted).toBe(true);
  });

  it('does not search for a user without a reseller account', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('telkomsel') });
    expect(reply.text).toContain('/help');
    expect(priceListRequests(world)).toBe(0);
  });

  it('shows an unavailable product with its status verbatim and answers a tap on it with that status', async () => {
    world.sandbox.reseller.setProductStatus('TSEL10', 'gangguan');
    const budi = await connectedUser(world, 'Budi');
    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga telkomsel 10') });
    expect(list.text).toContain('⛔ TSEL10 Telkomsel 10.000 — tidak tersedia (gangguan)');
    expect(list.buttons.flat()).toContain('⛔ TSEL10 · gangguan');

    const query = budi.tap(list, '⛔ TSEL10 · gangguan');
    const answer = await world.telegram.waitForCallbackAnswer(query);
    expect(answer.text).toContain('gangguan');
    expect(answer.showAlert).toBe(true);
    await world.telegram.waitForIdle();
    expect(world.telegram.botMessages(budi)).toHaveLength(1);
  });

  it('caches the list per provider account for a few minutes; the refresh button fetches it anew', async () => {
    const budi = await connectedUser(world, 'Budi');
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga') });
    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga pulsa telkomsel') });
    expect(priceListRequests(world)).toBe(1);

    world.sandbox.reseller.setProductStatus('TSEL5', 'kosong');
    const query = budi.tap(list, '🔄 Muat ulang');
    const answer = await world.telegram.waitForCallbackAnswer(query);
    expect(answer.text).toBe('Daftar harga diperbarui.');
    await world.telegram.waitFor(() => list.text?.includes('TSEL5 Telkomsel 5.000 — tidak tersedia (kosong)'));
    expect(priceListRequests(world)).toBe(2);
    expect(list.text).toContain('10 produk, halaman 1/1');
    // Unavailable products come after the available ones.
    expect(codesShown(list).slice(-2)).toEqual(['TSEL5', 'TSEL150']);

    // Another user of the same provider account gets the same list, without a request of their own.
    const siti = await connectedUser(world, 'Siti');
    await world.telegram.waitForBotMessage(siti, {
      after: siti.send('/harga pulsa telkomsel'),
      textIncludes: 'TSEL5 Telkomsel 5.000 — tidak tersedia (kosong)',
    });
    expect(priceListRequests(world)).toBe(2);

    // A user of another account has a list of their own.
    const joko = await seedConnectedUser(world, 'Joko', { account: resellerDemoAccounts.second });
    await world.telegram.waitForBotMessage(joko, { after: joko.send('/harga') });
    expect(priceListRequests(world)).toBe(3);
  });

  it('renders a view once per list, but each user of the account sees it in their language with their sell prices', async () => {
    const [budi, siti] = [await connectedUser(world, 'Budi'), await connectedUser(world, 'Siti')];
    const ann = await connectedUser(world, 'Ann', 'en');
    await world.telegram.waitForBotMessage(siti, { after: siti.send('/jual 5%'), textIncludes: 'disimpan' });
    const search = '/harga pulsa telkomsel';
    const shown = [];
    for (const user of [budi, siti, ann, budi]) shown.push(await world.telegram.waitForBotMessage(user, { after: user.send(search) }));
    const [forBudi, forSiti, forAnn, forBudiAgain] = shown.map((message) => message.text ?? '');
    expect(forBudi).toContain('TSEL10 Telkomsel 10.000 — Rp 10.450');
    expect(forBudi).not.toContain('→');
    expect(forSiti).toContain('TSEL10 Telkomsel 10.000 — Rp 10.450 → Rp 10.973 (+523)');
    expect(forAnn).toContain('Results for "pulsa telkomsel"');
    expect(forBudiAgain).toBe(forBudi);
    expect(priceListRequests(world)).toBe(1);
  });

  it('fetches the list once for users of one account asking at the same time', async () => {
    const users = [await connectedUser(world, 'Budi'), await connectedUser(world, 'Siti'), await connectedUser(world, 'Joko')];
    const sent = users.map((user) => user.send('/harga'));
    await Promise.all(users.map((user, i) => world.telegram.waitForBotMessage(user, { after: sent[i], textIncludes: 'Daftar harga' })));
    expect(priceListRequests(world)).toBe(1);
  });

  it('starts buying when an available product is tapped', async () => {
    const budi = await connectedUser(world, 'Budi');
    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga telkomsel') });
    const query = budi.tap(list, 'TSEL10 · Rp 10.450');
    const answer = await world.telegram.waitForCallbackAnswer(query);
    expect(answer.text).toBe('Telkomsel 10.000 — Rp 10.450');
    const next = await world.telegram.waitForBotMessage(budi, { after: list, where: (m) => /TSEL10|Telkomsel 10\.000/.test(m.text ?? '') });
    expect(next.deleted).toBe(false);
  });

  it('asks to connect first, and keeps the list out of groups', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga') });
    expect(reply.text).toContain('/connect');
    expect(priceListRequests(world)).toBe(0);

    const group = world.telegram.createGroup({ title: 'Konter', members: [budi] });
    const sent = budi.send('/harga', { chat: group });
    const inGroup = await world.telegram.waitForBotMessage(group, { after: sent });
    expect(inGroup.text).toContain('chat pribadi');
  });

  it('answers a provider failure with what to do, also on a refresh tap', async () => {
    const budi = await connectedUser(world, 'Budi');
    world.sandbox.inject({
      service: 'reseller',
      path: '/price-list',
      fault: { kind: 'status', status: 401, body: { error: 'Signature tidak valid' } },
    });
    const refused = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga') });
    expect(refused.text).toContain('menolak kredensial');
    expect(refused.text).toContain('/connect');

    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga') });
    world.sandbox.inject({ service: 'reseller', path: '/price-list', fault: { kind: 'malformed' } });
    budi.tap(list, '🔄 Muat ulang');
    const broken = await world.telegram.waitForBotMessage(budi, { after: list });
    expect(broken.text).toContain('tidak bisa dibaca');
    expect(list.text).toContain('Daftar harga');
  });

  it('speaks English to an English client', async () => {
    const jane = await connectedUser(world, 'Jane', 'en');
    const list = await world.telegram.waitForBotMessage(jane, { after: jane.send('/prices xl') });
    expect(list.text).toContain('Results for "xl" — 12 products, page 1/2');
    expect(list.buttons.flat()).toContain('Next ›');
  });
});
