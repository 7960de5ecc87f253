import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { waitForSummary } from '../helpers/buy.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

/** Taps `button` on `message` and waits for the bot's next message in the chat. */
function tapAndWait(world: TestWorld, user: EmulatedUser, message: EmulatedMessage, button: string, textIncludes?: string) {
  const last = world.telegram.botMessages(user).at(-1)?.messageId ?? 0;
  user.tap(message, button);
  return world.telegram.waitForBotMessage(user, { after: last, ...(textIncludes ? { textIncludes } : {}) });
}

const say = (world: TestWorld, user: EmulatedUser, text: string, textIncludes?: string) =>
  world.telegram.waitForBotMessage(user, { after: user.send(text), ...(textIncludes ? { textIncludes } : {}) });

describe('/toko: the shop profile on customer receipts', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('without a profile explains it and asks name, address, footer and target style; the next customer receipt prints it', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    const intro = await say(world, budi, '/toko');
    expect(intro.text).toContain('struk pelanggan');
    expect(intro.text).toContain('nama toko');

    const address = await say(world, budi, '  Konter   Budi  ', 'alamat');
    expect(address.buttons.flat()).toEqual(['⏭ Lewati', '❌ Batal']);
    const footer = await say(world, budi, 'Jl. Melati 5, Bandung', 'catatan kaki');
    const target = await tapAndWait(world, budi, footer, '⏭ Lewati', 'nomor tujuan');
    const menu = await tapAndWait(world, budi, target, 'Disamarkan', 'Profil toko');
    expect(menu.text).toContain('disimpan');
    expect(menu.text).toContain('Nama toko: Konter Budi');
    expect(menu.text).toContain('Catatan kaki: (kosong)');
    expect((await world.app.db.users.get(budi.id))?.shop).toEqual({
      name: 'Konter Budi',
      address: 'Jl. Melati 5, Bandung',
      target: 'masked',
    });
    await tapAndWait(world, budi, menu, '✅ Selesai', 'Selesai');

    const ref = await seedPurchase(world, budi);
    await world.app.db.transactions.settle(ref, { status: 'Sukses', sn: 'SN1' });
    const receipt = await say(world, budi, `/cek ${ref}`);
    const struk = await tapAndWait(world, budi, receipt, '🧾 Struk pelanggan', 'STRUK PEMBELIAN');
    expect(struk.text?.split('\n').slice(0, 2)).toEqual(['🏪 Konter Budi', 'Jl. Melati 5, Bandung']);
  });

  it('an old ⏭ Lewati of a finished /toko tapped under a purchase summary is answered as outdated and leaves the purchase as it was', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await say(world, budi, '/toko');
    const address = await say(world, budi, 'Konter Budi', 'alamat');
    const footer = await say(world, budi, 'Jl. Melati 5', 'catatan kaki');
    const target = await tapAndWait(world, budi, footer, '⏭ Lewati', 'nomor tujuan');
    const menu = await tapAndWait(world, budi, target, 'Disamarkan', 'Profil toko');
    await tapAndWait(world, budi, menu, '✅ Selesai', 'Selesai');

    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    const before = world.telegram.botMessages(budi).length;
    const stale = budi.tap(address, '⏭ Lewati');
    await world.telegram.waitFor(() => world.telegram.callsTo('answerCallbackQuery').some((c) => c.params.callback_query_id === stale.id));
    await world.idle();
    const answer = world.telegram.callsTo('answerCallbackQuery').find((c) => c.params.callback_query_id === stale.id);
    expect(answer?.params.text).toContain('tidak berlaku');
    // The summary is untouched and still buys.
    expect(summary.text).not.toContain('tidak berlaku lagi');
    expect(world.telegram.botMessages(budi)).toHaveLength(before);
    budi.tap(summary, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: /Sukses|Sedang diproses/ });
  });

  it('with a profile: changes a field, clears one, refuses a too long name, switches the target style and deletes it', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await world.app.db.users.upsert({ id: budi.id, firstName: 'Budi' });
    await world.app.db.users.update(budi.id, {
      shop: { name: 'Konter Budi', address: 'Jl. Lama 1', footer: 'Makasih', target: 'masked' },
    });
    const shop = async () => (await world.app.db.users.get(budi.id))?.shop;

    const menu = await say(world, budi, '/toko', 'Profil toko');
    expect(menu.text).toContain('Alamat: Jl. Lama 1');
    const askAddress = await tapAndWait(world, budi, menu, '📍 Alamat', 'alamat');
    const cleared = await tapAndWait(world, budi, askAddress, '🧹 Kosongkan', 'disimpan');
    expect(await shop()).toEqual({ name: 'Konter Budi', footer: 'Makasih', target: 'masked' });
    expect(cleared.text).toContain('Alamat: (kosong)');

    await tapAndWait(world, budi, cleared, '✏️ Nama', 'nama toko');
    const tooLong = await say(world, budi, 'x'.repeat(41), 'Terlalu panjang');
    expect(tooLong.text).toContain('40');
    const renamed = await say(world, budi, 'Toko <Ani> & Budi', 'disimpan');
    expect(renamed.text).toContain('Nama toko: Toko <Ani> & Budi');
    expect((await shop())?.name).toBe('Toko <Ani> & Budi');

    const style = await tapAndWait(world, budi, renamed, '🔒 Nomor tujuan', 'nomor tujuan');
    const full = await tapAndWait(world, budi, style, 'Lengkap', 'disimpan');
    expect((await shop())?.target).toBe('full');
    expect(full.text).toContain('lengkap');

    await tapAndWait(world, budi, full, '🗑 Hapus profil', 'dihapus');
    expect(await shop()).toBeUndefined();
    const again = await say(world, budi, '/toko');
    expect(again.text).toContain('struk pelanggan');
  });

  it('refuses a name or address with a line break or an invisible character (U+202E), saying why; the footer keeps its lines', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await say(world, budi, '/toko');
    const twoLines = await say(world, budi, 'Konter Budi\nPulsa Murah', 'satu baris');
    expect(twoLines.buttons.flat()).toEqual(['❌ Batal']);
    // Right-to-left override: "Konter ‮iduB" would show as "Konter Budi" reversed on the receipt.
    const reversed = await say(world, budi, 'Konter \u202eiduB', 'tak terlihat');
    expect(reversed.text).toContain('Ketik lagi');
    const address = await say(world, budi, 'Konter Budi', 'alamat');
    await say(world, budi, 'Jl. Melati 5\u200b, Bandung', 'tak terlihat');
    await tapAndWait(world, budi, address, '⏭ Lewati', 'catatan kaki');
    await say(world, budi, 'Terima kasih\u202e!', 'tak terlihat');
    const target = await say(world, budi, 'Terima kasih!\nBuka 08.00–21.00', 'nomor tujuan');
    await tapAndWait(world, budi, target, 'Lengkap', 'disimpan');
    expect((await world.app.db.users.get(budi.id))?.shop).toEqual({
      name: 'Konter Budi',
      footer: 'Terima kasih!\nBuka 08.00–21.00',
      target: 'full',
    });

    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    await say(world, ann, '/shop');
    await say(world, ann, "Ann's\nShop", 'one line');
    await say(world, ann, "Ann's \u202eShop", 'invisible');
  });

  it('cancelling the first set-up stores nothing', async () => {
    const budi = await seedConnectedUser(world, 'Budi');
    await say(world, budi, '/toko');
    const address = await say(world, budi, 'Konter Budi', 'alamat');
    await tapAndWait(world, budi, address, '❌ Batal', 'tidak diubah');
    expect((await world.app.db.users.get(budi.id))?.shop).toBeUndefined();
  });

  it('speaks English as /shop, and answers in groups that it is private', async () => {
    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    const intro = await say(world, ann, '/shop');
    expect(intro.text).toContain('customer receipts');
    const address = await say(world, ann, "Ann's Phone Shop", 'address');
    expect(address.buttons.flat()).toEqual(['⏭ Skip', '❌ Cancel']);

    const group = world.telegram.createGroup({ title: 'Toko', members: [ann] });
    const reply = await world.telegram.waitForBotMessage(group, { after: ann.send('/toko', { chat: group }) });
    expect(reply.text).toContain('private chat');
  });
});
