/**
 * The command menu as `npm start` publishes it: the real entry point in a child process against
 * the emulated Bot API and the sandbox (moved here from test/bot/commands.test.ts, which drives
 * the bot in-process).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loopbackEnv } from '../helpers/app.ts';
import { spawnBot, tsxArgs } from '../helpers/bot-process.ts';
import { startBotApi } from '../../tools/playground/bot-api.ts';
import { startSandbox } from '../../tools/sandbox/server.ts';

/** Every command of the private-chat menu (README "Commands"), in menu order. */
const privateCommands = [
  'start',
  'help',
  'connect',
  'disconnect',
  'balance',
  'prices',
  'sellprice',
  'buy',
  'status',
  'history',
  'export',
  'report',
  'shop',
  'summary',
  'pin',
  'language',
  'settings',
  'account',
  'items',
  'verify',
  'games',
  'order',
  'orders',
  'linkgroup',
  'unlinkgroup',
  'alert',
  'watch',
  'cancel',
];
/** The commands that make sense in a group. */
const groupCommands = ['help', 'language', 'verify', 'linkgroup', 'unlinkgroup'];

type Command = { command: string; description: string };
const asMap = (list: unknown[]): Record<string, string> => Object.fromEntries((list as Command[]).map((c) => [c.command, c.description]));
const names = (list: unknown[]): string[] => (list as Command[]).map((c) => c.command);

describe('the command menu (process)', () => {
  it('npm start publishes it per language: Indonesian by default, English for en, and only group commands in groups', async () => {
    const telegram = await startBotApi();
    const sandbox = await startSandbox();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kiosbot-main-'));
    // A directory without .env, so only the variables below configure the bot.
    const admin = telegram.createUser({ firstName: 'Admin', languageCode: 'id' });
    // `npm start`: src/main.ts through tsx (the other process tests start the build).
    const bot = spawnBot(
      { ...loopbackEnv(telegram, sandbox, path.join(dataDir, 'data')), PORT: '0', LOG_LEVEL: 'warn', ADMIN_IDS: String(admin.id) },
      dataDir,
      tsxArgs('src/main.ts'),
    );
    try {
      // Three scopes (private, group, the admin's chat) × three lists (default, id, en).
      await telegram.waitFor(() => telegram.callsTo('setMyCommands').filter((c) => c.status === 200).length >= 9, {
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
    // Admin commands are advertised in the admins' own chats only.
    for (const list of [byDefault, english]) expect(names(list)).not.toEqual(expect.arrayContaining(['broadcast']));
    const adminCommands = ['broadcast', 'broadcast_cancel', 'stats', 'user', 'ban', 'unban', 'audit'];
    for (const language of [undefined, 'id', 'en']) {
      expect(names(telegram.myCommands({ type: 'chat', chat_id: admin.id }, language))).toEqual([...privateCommands, ...adminCommands]);
    }
  }, 30_000);
});
