import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld, type TestWorldOptions } from '../helpers/app.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { marketplaceDemoAccounts, marketplaceDemoPurchaseCodes as codes } from '../../tools/sandbox/marketplace.ts';
import { wibIn } from '../helpers/wib.ts';

/** A purchase code no seller has sold. */
const unknownCode = '00000000-dead-4bee-8f00-000000000000';

/** The item buttons of an /items page: `n. name`. */
const itemButtons = (message: EmulatedMessage) => message.buttons.flat().filter((text) => /^\d+\. /.test(text));

/** URL buttons of a message: text → url. */
function urlButtons(message: EmulatedMessage): Record<string, string> {
  const buttons = (message.inlineKeyboard?.inline_keyboard ?? []).flat();
  return Object.fromEntries(buttons.flatMap((button) => ('url' in button && button.url ? [[button.text, button.url]] : [])));
}

describe('marketplace: /akun, /produk, /validasi', () => {
  let world: TestWorld;
  const start = async (options?: TestWorldOptions) => {
    world = await startWorld(options);
    return world;
  };
  afterEach(async () => {
    await world.stop();
  });

  /** A new user whose marketplace account (default: the main demo seller) is connected. */
  async function seller(
    firstName = 'Rizky',
    apiKey: string = marketplaceDemoAccounts.main.apiKey,
    languageCode = 'id',
  ): Promise<EmulatedUser> {
    const user = world.telegram.createUser({ firstName, languageCode });
    await world.app.services.credentials.verifyAndSave(user.id, 'marketplace', { apiKey });
    return user;
  }

  const validations = () =>
    world.sandbox.received.filter((request) => request.service === 'marketplace' && request.path === '/api/purchases/validation').length;

  /** The supported_until the sandbox returns for a code of the main seller (read directly, not through the bot). */
  const supportedUntil = async (code: string) =>
    (await world.app.providers.marketplace({ apiKey: marketplaceDemoAccounts.main.apiKey }).validatePurchase(code)).supported_until;

  it('/akun shows the seller account: name, username, heading, balance, registration date', async () => {
    await start();
    const rizky = await seller();
    const reply = await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/akun') });
    expect(reply.text).toContain('Akun marketplace');
    expect(reply.text).toContain('Nama: Rizky Pratama');
    expect(reply.text).toContain('Username: nusantara-studio');
    expect(reply.text).toContain('Profil: WordPress themes, plugins and media from Bandung');
    expect(reply.text).toContain('Saldo: 1.284,50 USD');
    expect(reply.text).toContain('Terdaftar sejak: 11 Apr 2019');
  });

  it('speaks English: /account and /verify', async () => {
    await start();
    const jane = await seller('Jane', marketplaceDemoAccounts.main.apiKey, 'en');
    const account = await world.telegram.waitForBotMessage(jane, { after: jane.send('/account') });
    expect(account.text).toContain('Balance: USD 1,284.50');
    expect(account.text).toContain('Member since: 11 Apr 2019');
    const verified = await world.telegram.waitForBotMessage(jane, { after: jane.send(`/verify ${codes.unsupported}`) });
    expect(verified.text).toContain('Purchase code is valid');
    expect(verified.text).toContain('License: Extended');
    expect(verified.text).toContain('Price: USD 450.00');
    expect(verified.text).toContain('Support: not included');
    expect(verified.text).toContain('Downloaded: not yet');
  });

  it('tells a user without a marketplace account how to connect, and keeps /akun out of groups', async () => {
    await start();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    for (const command of ['/akun', '/produk', `/validasi ${codes.supported}`]) {
      const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send(command) });
      expect(reply.text).toContain('Marketplace belum terhubung');
      expect(reply.text).toContain('/connect');
    }
    const rizky = await seller();
    const group = world.telegram.createGroup({ title: 'Pembeli Kopi', members: [rizky] });
    const sent = rizky.send('/akun', { chat: group });
    const reply = await world.telegram.waitForBotMessage(group, { after: sent });
    expect(reply.text).toContain('chat pribadi');
    expect(validations()).toBe(0);
  });

  it('/produk pages the 13 items five at a time, editing the same message', async () => {
    await start();
    const rizky = await seller();
    const list = await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/produk') });
    expect(list.text).toContain('Produk Anda (13) — halaman 1/3');
    expect(list.text).toContain(
      '1. Kopi - Coffee Shop & Cafe WordPress Theme\nWordPress › Restaurants & Cafes · v2.4.1\nHarga: 59,00 USD (reguler) / 2.950,00 USD (extended)',
    );
    expect(itemButtons(list)).toHaveLength(5);
    expect(itemButtons(list)[0]).toMatch(/^1\. Kopi - Coffee Shop/);
    // Button labels are plain text: an item name's "&" shows as typed, never as "&amp;".
    expect(itemButtons(list).filter((label) => label.includes(' & '))).not.toHaveLength(0);
    expect(itemButtons(list).join('\n')).not.toContain('&amp;');
    expect(list.buttons.flat()).toContain('Berikutnya ›');
    expect(list.buttons.flat()).not.toContain('‹ Sebelumnya');

    rizky.tap(list, 'Berikutnya ›');
    await world.telegram.waitFor(() => list.text?.includes('halaman 2/3'));
    expect(itemButtons(list)[0]).toMatch(/^6\. Rinjani/);
    expect(list.editedAt).toBeDefined();

    rizky.tap(list, 'Berikutnya ›');
    await world.telegram.waitFor(() => list.text?.includes('halaman 3/3'));
    expect(itemButtons(list)).toEqual(['11. Upbeat Corporate Motivation', '12. Dynamic Slideshow Opener', '13. Minimal Logo Reveal']);
    expect(list.buttons.flat()).not.toContain('Berikutnya ›');

    rizky.tap(list, '‹ Sebelumnya');
    await world.telegram.waitFor(() => list.text?.includes('halaman 2/3'));
    expect(world.telegram.botMessages(rizky)).toHaveLength(1);
  });

  it('an item opens as a photo of its preview image with details and a demo button', async () => {
    await start();
    const rizky = await seller();
    const list = await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/produk') });
    rizky.tap(list, itemButtons(list)[0]!);
    const details = await world.telegram.waitForBotMessage(rizky, { after: list });
    expect(details.method).toBe('sendPhoto');
    expect(world.telegram.callsTo('sendPhoto').at(-1)?.params.photo).toBe('https://cdn.example.com/items/48201/preview.jpg');
    expect(details.text).toContain('Kopi - Coffee Shop & Cafe WordPress Theme');
    expect(details.text).toContain('A warm, fast theme for coffee shops');
    expect(details.text).toContain('Tag: coffee, cafe, restaurant, menu, reservation, woocommerce');
    expect(details.text).toContain('59,00 USD (reguler) / 2.950,00 USD (extended)');
    expect(urlButtons(details)).toEqual({ '🔗 Lihat demo': 'https://demo.example.org/kopi/' });
    // Details come from the item endpoint, asked for this one item.
    const itemRequest = world.sandbox.received.find((request) => request.path === '/api/items/item');
    expect(itemRequest?.query.get('item_id')).toBe('48201');
  });

  it('an audio item (no preview image) shows its thumbnail and the audio preview link', async () => {
    await start();
    const rizky = await seller();
    const list = await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/produk') });
    rizky.tap(list, 'Berikutnya ›');
    await world.telegram.waitFor(() => list.text?.includes('halaman 2/3'));
    rizky.tap(
      list,
      itemButtons(list).find((text) => text.includes('Gamelan Dreams'))!,
    );
    const details = await world.telegram.waitForBotMessage(rizky, { after: list });
    expect(world.telegram.callsTo('sendPhoto').at(-1)?.params.photo).toBe('https://cdn.example.com/items/48210/thumbnail.jpg');
    expect(details.text).toContain('Pratinjau audio: https://cdn.example.com/items/48210/preview.mp3');
    expect(urlButtons(details)['🎧 Dengar pratinjau']).toBe('https://cdn.example.com/items/48210/preview.mp3');
  });

  it('falls back to a text message with the image link when Telegram refuses the photo', async () => {
    await start();
    const rizky = await seller();
    const list = await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/produk') });
    world.telegram.injectError({
      method: 'sendPhoto',
      errorCode: 400,
      description: 'Bad Request: wrong file identifier/HTTP URL specified',
    });
    rizky.tap(list, itemButtons(list)[1]!);
    const details = await world.telegram.waitForBotMessage(rizky, { after: list, where: (m) => m.method === 'sendMessage' });
    expect(details.text).toContain('Batik - Multipurpose WooCommerce Theme');
    expect(details.text).toContain('Gambar: https://cdn.example.com/items/48202/preview.jpg');
    expect(urlButtons(details)['🔗 Lihat demo']).toBe('https://demo.example.org/batik/');
  });

  it('an empty shop gets a friendly message', async () => {
    await start();
    const dewi = await seller('Dewi', marketplaceDemoAccounts.empty.apiKey);
    const reply = await world.telegram.waitForBotMessage(dewi, { after: dewi.send('/produk') });
    expect(reply.text).toContain('belum punya produk');
    expect(reply.buttons).toEqual([]);
  });

  it('/validasi shows the purchase: supported, expired, not supported', async () => {
    await start();
    const rizky = await seller();
    const activeUntil = await supportedUntil(codes.supported);
    const expiredSince = await supportedUntil(codes.expired);

    const supported = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.supported}`) });
    expect(supported.text).toContain('Kode pembelian valid');
    expect(supported.text).toContain('Produk: Kopi - Coffee Shop & Cafe WordPress Theme');
    expect(supported.text).toContain('Lisensi: Regular');
    expect(supported.text).toContain('Harga: 59,00 USD');
    expect(supported.text).toMatch(/Dibeli: \d{2} \w{3} \d{4} \d{2}\.\d{2} WIB/);
    expect(supported.text).toContain(`Dukungan: aktif sampai ${wibIn('id', activeUntil!)}`);
    expect(supported.text).toContain('Sudah diunduh: ya');
    expect(supported.text).toContain('Dicek dengan akun marketplace: nusantara-studio');
    expect(supported.message.reply_to_message?.message_id).toBeDefined();

    const expired = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.expired}`) });
    expect(expired.text).toContain('Produk: Lumbung - WooCommerce Inventory Manager');
    expect(expired.text).toContain(`Dukungan: sudah berakhir sejak ${wibIn('id', expiredSince!)}`);

    const unsupported = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/verify ${codes.unsupported}`) });
    expect(unsupported.text).toContain('Lisensi: Extended');
    expect(unsupported.text).toContain('Harga: 450,00 USD');
    expect(unsupported.text).toContain('Dukungan: tidak termasuk');
    expect(unsupported.text).toContain('Sudah diunduh: belum');
  });

  it('/validasi without a code asks for it; the code sent as the answer is validated, not deleted as a secret', async () => {
    await start();
    const rizky = await seller();
    const prompt = await world.telegram.waitForBotMessage(rizky, { after: rizky.send('/validasi') });
    expect(prompt.text).toContain('kode pembelian');
    const ask = world.telegram.calls.find((call) => call.method === 'sendMessage' && call.params.text === prompt.text);
    expect(ask?.params.reply_markup).toEqual({ force_reply: true, selective: true, input_field_placeholder: 'Kode pembelian' });

    // The client answers the forced reply with the code alone.
    const sent = rizky.send(codes.supported);
    const answer = await world.telegram.waitForBotMessage(rizky, { after: sent });
    expect(answer.text).toContain('Kode pembelian valid');
    expect(sent.deleted).toBe(false);
    expect(world.sandbox.marketplace.validations().map((v) => v.valid)).toEqual([true]);
  });

  it("/validasi says when a code is not valid (unknown, or another seller's), and how to use it", async () => {
    await start();
    const rizky = await seller();
    const usage = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${'x'.repeat(200)}`) });
    expect(usage.text).toContain('Kirim kode pembelian setelah perintahnya');

    const unknown = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${unknownCode}`) });
    expect(unknown.text).toContain('Kode pembelian ini tidak valid. Marketplace menjawab: Invalid purchase code');
    const foreign = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.secondSeller}`) });
    expect(foreign.text).toContain('tidak valid');
    expect(world.sandbox.marketplace.validations().map((v) => [v.username, v.valid])).toEqual([
      ['nusantara-studio', false],
      ['nusantara-studio', false],
    ]);
  });

  it('shows any other marketplace refusal with its message, and a reconnect hint for rejected credentials', async () => {
    await start();
    const rizky = await seller();
    world.sandbox.inject({
      service: 'marketplace',
      path: '/api/purchases/validation',
      fault: { kind: 'status', status: 429, body: { status: 'error', msg: 'Rate limit exceeded, slow down' } },
    });
    const refused = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.supported}`) });
    expect(refused.text).toContain('Rate limit exceeded, slow down');

    world.sandbox.inject({
      service: 'marketplace',
      path: '/api/purchases/validation',
      fault: { kind: 'status', status: 200, body: { status: 'error', msg: 'Invalid request' } },
    });
    const credentials = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.expired}`) });
    expect(credentials.text).toContain('/connect');
    expect(credentials.text).toContain('Marketplace: "Invalid request"');
  });

  it("works in a seller's support group: a member without an account is answered with the seller's", async () => {
    await start();
    const rizky = await seller();
    const ani = world.telegram.createUser({ firstName: 'Ani', languageCode: 'id' });
    const group = world.telegram.createGroup({ title: 'Dukungan Nusantara Studio', members: [rizky, ani], admins: [rizky] });

    // Not linked, and Ani has no marketplace account: the seller must connect and link.
    const unlinked = await world.telegram.waitForBotMessage(group, { after: ani.send(`/verify ${codes.supported}`, { chat: group }) });
    expect(unlinked.text).toContain('/linkgroup');
    expect(validations()).toBe(0);

    await world.app.db.groups.link({ chatId: group.id, ownerId: rizky.id });
    const sent = ani.send(`/verify ${codes.supported}`, { chat: group });
    expect(sent.text).toContain('/verify@'); // as Telegram clients send it in groups
    const answer = await world.telegram.waitForBotMessage(group, { after: sent });
    expect(answer.text).toContain('Kode pembelian valid');
    expect(answer.text).toContain('Dicek dengan akun marketplace: nusantara-studio');
    expect(answer.message.reply_to_message?.message_id).toBe(sent.messageId);
    expect(world.sandbox.marketplace.validations().at(-1)).toMatchObject({ username: 'nusantara-studio', valid: true });

    const foreign = await world.telegram.waitForBotMessage(group, { after: ani.send(`/validasi ${codes.secondSeller}`, { chat: group }) });
    expect(foreign.text).toContain('tidak valid');
  });

  it('in a group linked by someone without a marketplace account, says the seller must connect it', async () => {
    await start();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const baiq = await seller('Baiq', marketplaceDemoAccounts.second.apiKey);
    const group = world.telegram.createGroup({ title: 'Reseller Pulsa', members: [budi, baiq] });
    await world.app.db.groups.link({ chatId: group.id, ownerId: budi.id });
    // Baiq's own account is not used: the group belongs to Budi.
    const answer = await world.telegram.waitForBotMessage(group, { after: baiq.send(`/verify ${codes.secondSeller}`, { chat: group }) });
    expect(answer.text).toContain('belum menghubungkan akun marketplace');
    expect(validations()).toBe(0);
  });

  it('in an unlinked group a member with their own marketplace account checks with it', async () => {
    await start();
    const baiq = await seller('Baiq', marketplaceDemoAccounts.second.apiKey);
    const group = world.telegram.createGroup({ title: 'Lombok Audio', members: [baiq] });
    const answer = await world.telegram.waitForBotMessage(group, { after: baiq.send(`/verify ${codes.secondSeller}`, { chat: group }) });
    expect(answer.text).toContain('Kode pembelian valid');
    expect(answer.text).toContain('Senggigi Sunset');
  });

  it('answers a repeated check within a minute from memory, and asks again after it', async () => {
    let clock = Date.now();
    await start({ app: { now: () => new Date(clock) } });
    const rizky = await seller();
    const first = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.supported}`) });
    const second = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.supported}`) });
    expect(second.text).toContain('Kode pembelian valid');
    expect(second.text).toContain('kurang dari semenit');
    expect(first.text).not.toContain('kurang dari semenit');
    expect(validations()).toBe(1);

    clock += 61_000;
    const third = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.supported}`) });
    expect(third.text).not.toContain('kurang dari semenit');
    expect(validations()).toBe(2);
  });

  it('limits /validasi to five checks a minute per chat', async () => {
    let clock = Date.now();
    await start({ app: { now: () => new Date(clock) } });
    const rizky = await seller();
    const all = [codes.supported, codes.expired, codes.unsupported, codes.audio, unknownCode];
    for (const code of all) {
      const reply = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${code}`) });
      expect(reply.text).toMatch(/valid/);
    }
    const limited = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.supported}`) });
    expect(limited.text).toContain('Terlalu banyak pengecekan');
    expect(validations()).toBe(5);

    clock += 60_001;
    const again = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.expired}`), timeoutMs: 5000 });
    expect(again.text).toContain('Kode pembelian valid');
  });

  it('never writes a purchase code to the log, also when the marketplace fails', async () => {
    // Three 503s in a row: retry after 10 ms instead of 300 + 600 ms.
    await start({ providerRetryDelayMs: 10 });
    const rizky = await seller();
    world.sandbox.inject({
      service: 'marketplace',
      path: '/api/purchases/validation',
      times: 3,
      fault: { kind: 'status', status: 503, body: { status: 'error', msg: `Upstream failed for ${codes.audio}` } },
    });
    const failed = await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.audio}`) });
    expect(failed.text).toContain('tidak menjawab tepat waktu');
    // The marketplace's own words are shown to the one who asked (never logged, see below).
    expect(failed.text).toContain(`Upstream failed for ${codes.audio}`);
    await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${unknownCode}`) });
    await world.telegram.waitForBotMessage(rizky, { after: rizky.send(`/validasi ${codes.supported}`) });
    expect(world.logs.some((line) => line.includes('marketplace purchase check failed'))).toBe(true);
    for (const code of [codes.audio, unknownCode, codes.supported]) {
      expect(world.logs.filter((line) => line.includes(code))).toEqual([]);
    }
  });
});
