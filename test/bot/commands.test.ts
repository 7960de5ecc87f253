import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { publishCommands } from '../../src/bot/commands.ts';
import { createI18n } from '../../src/bot/i18n.ts';
import { connectData } from '../../src/bot/callback-data/connect.ts';
import type { EmulatedMessage } from '../../tools/playground/bot-api.ts';

type Command = { command: string; description: string };
const asMap = (list: unknown[]): Record<string, string> => Object.fromEntries((list as Command[]).map((c) => [c.command, c.description]));

describe('the command menu', () => {
  it('with DEFAULT_LOCALE=en the list without a language is English', async () => {
    const world = await startWorld();
    try {
      await publishCommands(world.app.bot.api, createI18n({ defaultLocale: 'en', db: world.app.db }), world.app.logger, 'en');
      expect(asMap(world.telegram.myCommands({ type: 'all_private_chats' })).balance).toBe('Check your deposit balance');
      expect(asMap(world.telegram.myCommands({ type: 'all_private_chats' }, 'id')).balance).toBe('Cek saldo deposit');
    } finally {
      await world.stop();
    }
  });
});

describe('the admins’ command menu', () => {
  it('admin commands are in the menu of each admin’s private chat only, in every language', async () => {
    const world = await startWorld({ env: { ADMIN_IDS: '990001,990002' } });
    try {
      for (const id of [990001, 990002]) world.telegram.createUser({ firstName: `Admin ${id}`, languageCode: 'id', id });
      await publishCommands(
        world.app.bot.api,
        createI18n({ defaultLocale: 'id', db: world.app.db }),
        world.app.logger,
        'id',
        [990001, 990002],
      );
      const admin = ['broadcast', 'broadcast_cancel', 'stats', 'user', 'ban', 'unban', 'audit'];
      const everyone = Object.keys(asMap(world.telegram.myCommands({ type: 'all_private_chats' })));
      for (const chatId of [990001, 990002]) {
        for (const language of [undefined, 'id', 'en']) {
          const menu = asMap(world.telegram.myCommands({ type: 'chat', chat_id: chatId }, language));
          expect(Object.keys(menu)).toEqual([...everyone, ...admin]);
          for (const description of Object.values(menu)) expect(description).not.toMatch(/^command-/);
        }
        expect(asMap(world.telegram.myCommands({ type: 'chat', chat_id: chatId }, 'en')).stats).toBe('Users, transactions, queues, uptime');
        expect(asMap(world.telegram.myCommands({ type: 'chat', chat_id: chatId })).stats).toBe('Pengguna, transaksi, antrean, waktu aktif');
      }
      for (const scope of [{ type: 'all_private_chats' }, { type: 'all_group_chats' }, { type: 'default' }]) {
        for (const language of [undefined, 'id', 'en']) {
          expect(Object.keys(asMap(world.telegram.myCommands(scope, language)))).not.toEqual(expect.arrayContaining(['stats']));
        }
      }
    } finally {
      await world.stop();
    }
  });
});

describe('Indonesian aliases', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  const hasData = (message: EmulatedMessage, data: string) =>
    (message.inlineKeyboard?.inline_keyboard ?? []).flat().some((button) => 'callback_data' in button && button.callback_data === data);

  it('/hubungkan starts connecting: the service picker, then the API ID question', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const picker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/hubungkan') });
    expect(picker.text).toContain('Pilih layanan');
    const pick = connectData.pack({ action: 'pick', service: 'reseller' });
    expect(hasData(picker, pick)).toBe(true);
    budi.tap(picker, pick);
    const question = await world.telegram.waitForBotMessage(budi, { after: picker, textIncludes: 'API ID' });
    expect(question.text).not.toContain('tidak mengerti');
  });

  it('/bahasa and /language open the language picker; /language switches to English', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const viaBahasa = await world.telegram.waitForBotMessage(budi, { after: budi.send('/bahasa') });
    expect(viaBahasa.text).toContain('Pilih bahasa');
    expect(viaBahasa.buttons.flat()).toEqual(['🇮🇩 Bahasa Indonesia', '🇬🇧 English']);
    const viaLanguage = await world.telegram.waitForBotMessage(budi, { after: budi.send('/language') });
    expect(viaLanguage.text).toContain('Pilih bahasa');
    expect(viaLanguage.buttons.flat()).toEqual(['🇮🇩 Bahasa Indonesia', '🇬🇧 English']);
    budi.tap(viaLanguage, '🇬🇧 English');
    await world.telegram.waitFor(() => viaLanguage.text?.includes('English'));
    const help = await world.telegram.waitForBotMessage(budi, { after: budi.send('/bantuan'), textIncludes: 'commands' });
    expect(help.text).toContain('kiosbot commands');
  });

  it('the language picker has no empty keyboard row, in either language', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const jane = world.telegram.createUser({ firstName: 'Jane', languageCode: 'en' });
    const pickers = [
      await world.telegram.waitForBotMessage(budi, { after: budi.send('/bahasa') }),
      await world.telegram.waitForBotMessage(jane, { after: jane.send('/language') }),
    ];
    for (const picker of pickers) {
      const rows = picker.inlineKeyboard?.inline_keyboard ?? [];
      expect(rows.map((row) => row.length)).toEqual([1, 1]);
    }
  });

  it('/bantuan shows the help', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const help = await world.telegram.waitForBotMessage(budi, { after: budi.send('/bantuan') });
    expect(help.text).toContain('Perintah kiosbot');
    expect(help.text).toContain('/harga');
    expect(help.text).toContain('/batal');
  });

  it('every alias answers exactly like its English command', async () => {
    world = await startWorld();
    const pairs: Array<[string, string]> = [
      ['help', 'bantuan'],
      ['connect', 'hubungkan'],
      ['disconnect', 'putuskan'],
      ['balance', 'saldo'],
      ['prices', 'harga'],
      ['buy', 'beli'],
      ['status', 'cek'],
      ['history', 'riwayat'],
      ['export', 'ekspor'],
      ['report', 'laporan'],
      ['language', 'bahasa'],
      ['settings', 'pengaturan'],
      ['account', 'akun'],
      ['items', 'produk'],
      ['verify', 'validasi'],
      ['games', 'game'],
      ['order', 'pesan'],
      ['orders', 'pesanan'],
      ['linkgroup', 'tautkangrup'],
      ['unlinkgroup', 'lepasgrup'],
      ['alert', 'peringatan'],
      ['watch', 'pantau'],
      ['cancel', 'batal'],
    ];
    // A fresh user per message keeps everyone far below the flood limit and in the same state.
    const firstAnswer = async (command: string): Promise<string> => {
      const user = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
      const reply = await world.telegram.waitForBotMessage(user, { after: user.send(`/${command}`) });
      return reply.text ?? '';
    };
    const answers = await Promise.all(
      pairs.map(async ([name, alias]) => ({ name, alias, english: await firstAnswer(name), indonesian: await firstAnswer(alias) })),
    );
    const unknown = await firstAnswer('tidakada');
    expect(unknown).toContain('tidak mengerti');
    for (const { name, alias, english, indonesian } of answers) {
      expect(indonesian, `/${alias}`).toBe(english);
      expect(indonesian, `/${alias} (as /${name})`).not.toBe(unknown);
    }
  });
});
