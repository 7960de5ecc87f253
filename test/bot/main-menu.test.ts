import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import { connectReseller } from '../helpers/connect.ts';
import { looseFloodLimit } from '../helpers/gameshop.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

/*
 * The main menu: a persistent reply keyboard in private chats whose buttons do what their
 * commands do, in the user's language, never in groups.
 */

const indonesianMenu = [
  ['💰 Saldo', '🛒 Beli'],
  ['📋 Harga', '🧾 Riwayat'],
  ['🔎 Cek', '⚙️ Pengaturan'],
];
const englishMenu = [
  ['💰 Balance', '🛒 Buy'],
  ['📋 Prices', '🧾 History'],
  ['🔎 Status', '⚙️ Settings'],
];

describe('main menu', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld({ app: { floodLimit: looseFloodLimit } });
  });
  afterEach(async () => {
    await world.stop();
  });

  const labels = (user: EmulatedUser) =>
    world.telegram.replyKeyboard(user)?.keyboard.map((row) => row.map((button) => (typeof button === 'string' ? button : button.text)));

  it('is shown after /start, persistent and resized, in the user language', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    expect(world.telegram.replyKeyboard(budi)).toBeUndefined();
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    const keyboard = world.telegram.replyKeyboard(budi);
    expect(labels(budi)).toEqual(indonesianMenu);
    expect(keyboard).toMatchObject({ resize_keyboard: true, is_persistent: true });

    const jane = world.telegram.createUser({ firstName: 'Jane', languageCode: 'en' });
    await world.telegram.waitForBotMessage(jane, { after: jane.send('/start') });
    expect(labels(jane)).toEqual(englishMenu);
  });

  it('is shown with the success message of /connect', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const done = await connectReseller(world, budi);
    expect(done.text).toContain('✅');
    expect(labels(budi)).toEqual(indonesianMenu);
  });

  it('follows a language change', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    const picker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/bahasa') });
    budi.tap(picker, '🇬🇧 English');
    await world.telegram.waitFor(() => labels(budi)?.[0]?.[0] === '💰 Balance');
    expect(labels(budi)).toEqual(englishMenu);
    expect(picker.text).toContain('English');
  });

  it('each button does what its command does, in either language', async () => {
    const budi = await buyer(world);
    const say = async (text: string, expected: string | RegExp) => {
      const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send(text), textIncludes: expected });
      return reply;
    };
    await say('💰 Saldo', 'Rp 1.000.000');
    await say('📋 Harga', 'Daftar harga');
    await say('🧾 Riwayat', 'Belum ada transaksi');
    await say('🔎 Cek', 'Pending');
    await say('🛒 Beli', 'kode produk');
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/batal'), textIncludes: 'Dibatalkan' });
    // A user who changed language may still have the other keyboard.
    await say('💰 Balance', 'Rp 1.000.000');
    await say('🔎 Status', 'Pending');
  });

  it('⚙️ Pengaturan shows what is connected, with connect, disconnect, language and PIN buttons', async () => {
    const budi = await buyer(world);
    const settings = await world.telegram.waitForBotMessage(budi, { after: budi.send('⚙️ Pengaturan') });
    expect(settings.text).toContain('Top-up reseller');
    expect(settings.text).toContain('DEMO…LER');
    expect(settings.text).toContain('Marketplace');
    expect(settings.buttons.flat()).toEqual(['🔗 Hubungkan akun', '🔌 Putuskan akun', '🌐 Bahasa', '🔒 PIN']);

    budi.tap(settings, '🔗 Hubungkan akun');
    const services = await world.telegram.waitForBotMessage(budi, { after: settings, textIncludes: 'layanan' });
    expect(services.buttons.flat()).toContain('Marketplace');

    budi.tap(settings, '🌐 Bahasa');
    const languages = await world.telegram.waitForBotMessage(budi, { after: services, textIncludes: 'Pilih bahasa' });
    expect(languages.buttons.flat()).toContain('🇬🇧 English');

    budi.tap(settings, '🔌 Putuskan akun');
    const disconnect = await world.telegram.waitForBotMessage(budi, { after: languages, where: (m) => m.buttons.length > 0 });
    expect(disconnect.buttons.flat()).toContain('Top-up reseller (DEMO…LER)');

    budi.tap(settings, '🔒 PIN');
    await world.telegram.waitForBotMessage(budi, { after: disconnect, textIncludes: 'PIN' });

    // The English label opens the same screen, and so does the label of an older keyboard (⚙️ Akun,
    // ⚙️ Account); /akun stays the marketplace account, which no menu label names any more.
    const english = await world.telegram.waitForBotMessage(budi, { after: budi.send('⚙️ Settings'), textIncludes: 'Akun & pengaturan' });
    expect(english.buttons.flat()).toContain('🔒 PIN');
    for (const former of ['⚙️ Akun', '⚙️ Account']) {
      const old = await world.telegram.waitForBotMessage(budi, { after: budi.send(former), textIncludes: 'Akun & pengaturan' });
      expect(old.buttons.flat()).toContain('🔒 PIN');
    }
    const marketplace = await world.telegram.waitForBotMessage(budi, { after: budi.send('/akun'), textIncludes: 'Marketplace' });
    expect(marketplace.text).toContain('/connect');
  });

  it('offers 🔌 Putuskan akun only when an account is connected', async () => {
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    const bare = await world.telegram.waitForBotMessage(sari, { after: sari.send('/pengaturan') });
    expect(bare.buttons.flat()).toEqual(['🔗 Hubungkan akun', '🌐 Bahasa', '🔒 PIN']);
    const ann = world.telegram.createUser({ firstName: 'Ann', languageCode: 'en' });
    const english = await world.telegram.waitForBotMessage(ann, { after: ann.send('/settings') });
    expect(english.buttons.flat().some((label) => label.includes('🔌'))).toBe(false);
  });

  it('is never shown in groups, and its labels mean nothing there', async () => {
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    await world.telegram.waitForBotMessage(group, { after: world.telegram.sendText(budi, '/start', { chat: group }) });
    expect(world.telegram.replyKeyboard(group)).toBeUndefined();
    const before = world.telegram.botMessages(group).length;
    world.telegram.sendText(budi, '💰 Saldo', { chat: group });
    // A private message afterwards is answered; the group got nothing in the meantime.
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    await world.idle();
    expect(world.telegram.botMessages(group)).toHaveLength(before);
  });
});
