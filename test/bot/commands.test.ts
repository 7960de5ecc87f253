import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loopbackEnv, startWorld, type TestWorld } from '../helpers/app.ts';
import { spawnBot } from '../helpers/bot-process.ts';
import { startBotApi } from '../../tools/playground/bot-api.ts';
import { startSandbox } from '../../tools/sandbox/server.ts';
import { publishCommands } from '../../src/bot/commands.ts';
import { createI18n } from '../../src/bot/i18n.ts';
import { connectData } from '../../src/bot/callback-data/connect.ts';
import type { EmulatedMessage } from '../../tools/playground/bot-api.ts';

/** Every command of the private-chat menu (README "Commands"), in menu order. */
const privateCommands = [
  'start',
  'help',
  'connect',
  'disconnect',
  'balance',
  'prices',
  'buy',
  'status',
  'history',
  'pin',
  'language',
  'account',
  'items',
  'verify',
  'games',
  'order',
  'orders',
  'linkgroup',
  'unlinkgroup',
  'alert',
  'cancel',
];
/** The commands that make sense in a group. */
const groupCommands = ['help', 'language', 'verify', 'linkgroup', 'unlinkgroup'];

type Command = { command: string; description: string };
const asMap = (list: unknown[]): Record<string, string> => Object.fromEntries((list as Command[]).map((c) => [c.command, c.description]));
const names = (list: unknown[]): string[] => (list as Command[]).map((c) => c.command);

describe('the command menu', () => {
  it('npm start publishes it per language: Indonesian by default, English for en, and only group commands in groups', async () => {
    const telegram = await startBotApi();
    const sandbox = await startSandbox();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-main-'));
    // A directory without .env, so only the variables below configure the bot.
    const bot = spawnBot({ ...loopbackEnv(telegram, sandbox, path.join(dataDir, 'data')), PORT: '0', LOG_LEVEL: 'warn' }, dataDir);
    try {
      // Two scopes (private, group) × three lists (default, id, en).
      await telegram.waitFor(() => telegram.callsTo('setMyCommands').filter((c) => c.status === 200).length >= 6, {
        timeoutMs: 15_000,
        message: 'the bot did not publish its commands',
      });
    } catch (error) {
      throw new Error(`${String(error)}\nbot output:\n${bot.output}`);
    } finally {
      await bot.stop();
      await telegram.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    }

    const privateScope = { type: 'all_private_chats' };
    const groupScope = { type: 'all_group_chats' };
    const byDefault = telegram.myCommands(privateScope);
    expect(names(byDefault)).toEqual(privateCommands);
    expect(asMap(byDefault)).toMatchObject({
      balance: 'Cek saldo deposit',
      buy: 'Beli produk: /beli KODE TUJUAN',
      help: 'Daftar perintah',
      order: 'Pesan top up game',
      cancel: 'Batalkan proses yang berjalan',
    });
    // No description is a missing translation (the bare key).
    for (const description of Object.values(asMap(byDefault))) expect(description).not.toMatch(/^command-/);
    expect(telegram.myCommands(privateScope, 'id')).toEqual(byDefault);

    const english = telegram.myCommands(privateScope, 'en');
    expect(names(english)).toEqual(privateCommands);
    expect(asMap(english)).toMatchObject({
      balance: 'Check your deposit balance',
      buy: 'Buy a product: /buy CODE TARGET',
      help: 'List of commands',
      order: 'Order a game top-up',
      cancel: 'Cancel what is in progress',
    });
    for (const [command, description] of Object.entries(asMap(english))) expect(description).not.toBe(asMap(byDefault)[command]);

    expect(names(telegram.myCommands(groupScope))).toEqual(groupCommands);
    expect(asMap(telegram.myCommands(groupScope)).verify).toBe('Validasi kode pembelian: /validasi KODE');
    expect(names(telegram.myCommands(groupScope, 'en'))).toEqual(groupCommands);
    expect(asMap(telegram.myCommands(groupScope, 'en')).verify).toBe('Check a purchase code: /verify CODE');
    // Admin commands are never advertised.
    for (const list of [byDefault, english]) expect(names(list)).not.toEqual(expect.arrayContaining(['broadcast']));
  }, 30_000);

  it('with DEFAULT_LOCALE=en the list without a language is English', async () => {
    const world = await startWorld();
    try {
      await publishCommands(world.app.bot.api, createI18n({ defaultLocale: 'en', store: world.app.store }), world.app.logger, 'en');
      expect(asMap(world.telegram.myCommands({ type: 'all_private_chats' })).balance).toBe('Check your deposit balance');
      expect(asMap(world.telegram.myCommands({ type: 'all_private_chats' }, 'id')).balance).toBe('Cek saldo deposit');
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
    const help = await world.telegram.waitForBotMessage(budi, { after: budi.send('/bantuan') });
    expect(help.text).toContain('kiosbot commands');
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
      ['language', 'bahasa'],
      ['account', 'akun'],
      ['items', 'produk'],
      ['verify', 'validasi'],
      ['games', 'game'],
      ['order', 'pesan'],
      ['orders', 'pesanan'],
      ['linkgroup', 'tautkangrup'],
      ['unlinkgroup', 'lepasgrup'],
      ['alert', 'peringatan'],
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
