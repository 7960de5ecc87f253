import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import { uplineAndDownline } from '../helpers/downline-world.ts';
import { publishCommands } from '../../src/bot/commands.ts';
import { createI18n } from '../../src/bot/i18n.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

/*
 * Where a user looks for the downline commands: /help and the command menu list the ones of
 * their role (DOWNLINES=true only), and a downline's screens offer nothing a downline cannot do.
 */

/** The line of the help text that names `/command` (not a longer command that starts the same). */
function lineOf(text: string, command: string): string | undefined {
  const pattern = new RegExp(`/${command}(?![a-z_])`);
  return text.split('\n').find((line) => pattern.test(line));
}

type Command = { command: string; description: string };
const names = (list: unknown[]): string[] => (list as Command[]).map((c) => c.command);
const downlineNames = ['downline', 'payinfo', 'dlbalance', 'resolve', 'deposit', 'statement'];

describe('downline commands in /help and the command menu', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /** Budi (connected reseller) opens downline mode with auto-approve; Sari joins as his downline. */
  const withDownline = async (): Promise<{ budi: EmulatedUser; sari: EmulatedUser }> => {
    world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, app: { outboxLimits: { perChatMs: 20 } } });
    return uplineAndDownline(world);
  };
  const help = async (user: EmulatedUser, command = '/bantuan') =>
    (await world.telegram.waitForBotMessage(user, { after: user.send(command), textIncludes: 'kiosbot' })).text ?? '';

  it('with DOWNLINES off, neither /help nor the command menu names them', async () => {
    world = await startWorld();
    const budi = await buyer(world);
    const text = await help(budi);
    for (const name of [...downlineNames, 'carabayar', 'saldodl', 'isisaldo', 'mutasi']) expect(lineOf(text, name), name).toBeUndefined();
    expect(text).not.toContain('Downline');
    const i18n = createI18n({ defaultLocale: 'id', db: world.app.db });
    await publishCommands(world.app.bot.api, i18n, world.app.logger, 'id');
    const menu = names(world.telegram.myCommands({ type: 'all_private_chats' }));
    expect(menu).toContain('balance');
    for (const name of downlineNames) expect(menu).not.toContain(name);
  });

  it('an upline sees /downline, /carabayar and /saldodl; a reseller without downline mode is told to open it first', async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' } });
    const budi = await buyer(world);
    const before = await help(budi);
    expect(before).toContain('Downline (upline)');
    expect(lineOf(before, 'downline')).toMatch(/^\/downline — .+[^)]$/);
    expect(lineOf(before, 'payinfo')).toMatch(/^\/payinfo \(\/carabayar\) — .*\(buka \/downline dulu\)$/);
    expect(lineOf(before, 'dlbalance')).toMatch(/^\/dlbalance \(\/saldodl\) — .*\(buka \/downline dulu\)$/);
    expect(lineOf(before, 'resolve')).toMatch(/^\/resolve \(\/selesaikan\) — .*\(buka \/downline dulu\)$/);
    expect(lineOf(before, 'deposit')).toBeUndefined();
    expect(lineOf(before, 'statement')).toBeUndefined();

    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Level' });
    const after = await help(budi);
    for (const name of ['downline', 'payinfo', 'dlbalance', 'resolve']) expect(lineOf(after, name), name).not.toContain('dulu');
    const english = await help(world.telegram.createUser({ firstName: 'Ann', languageCode: 'en' }), '/help');
    expect(english).toContain('Downlines (upline)');
    expect(lineOf(english, 'downline')).toContain('(connect first)');
    expect(lineOf(english, 'payinfo')).toContain('(open /downline first)');
  });

  it('a downline sees /deposit and /mutasi, their reseller commands unmarked, and no /alert', async () => {
    const { sari } = await withDownline();
    const text = await help(sari);
    expect(text).toContain('Downline: saldo deposit di upline Anda');
    expect(lineOf(text, 'deposit')).toMatch(/^\/deposit \(\/isisaldo\) — /);
    expect(lineOf(text, 'statement')).toMatch(/^\/statement \(\/mutasi\) — /);
    for (const name of ['downline', 'payinfo', 'dlbalance', 'resolve', 'alert', 'peringatan'])
      expect(lineOf(text, name), name).toBeUndefined();
    // They buy through their upline's account: nothing in the reseller section is "connect first".
    for (const name of ['balance', 'prices', 'buy', 'history']) expect(lineOf(text, name), name).not.toContain('hubungkan dulu');
    expect(lineOf(text, 'account')).toContain('hubungkan dulu'); // the marketplace is still theirs to connect
  });

  it('with DOWNLINES on, the private command menu ends with them, in every language; groups do not get them', async () => {
    world = await startWorld({ env: { DOWNLINES: 'true', ADMIN_IDS: '990001' } });
    world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: 990001 });
    const i18n = createI18n({ defaultLocale: 'id', db: world.app.db });
    await publishCommands(world.app.bot.api, i18n, world.app.logger, 'id', [990001], { downlines: true });
    for (const language of [undefined, 'id', 'en']) {
      const menu = world.telegram.myCommands({ type: 'all_private_chats' }, language) as Command[];
      expect(names(menu).slice(-downlineNames.length)).toEqual(downlineNames);
      for (const { description } of menu) expect(description).not.toMatch(/^command-/);
      expect(names(world.telegram.myCommands({ type: 'chat', chat_id: 990001 }, language))).toEqual(expect.arrayContaining(downlineNames));
      const groups = names(world.telegram.myCommands({ type: 'all_group_chats' }, language));
      for (const name of downlineNames) expect(groups).not.toContain(name);
    }
    const english = world.telegram.myCommands({ type: 'all_private_chats' }, 'en') as Command[];
    expect(english.find((c) => c.command === 'statement')?.description).toBe('Your wallet statement');
  });
  it('in a group, each downline command and alias says it works in a private chat only', async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' } });
    const budi = await buyer(world);
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    for (const command of ['/downline', '/deposit', '/isisaldo', '/mutasi', '/carabayar', '/saldodl', '/selesaikan']) {
      const reply = await world.telegram.waitForBotMessage(group, { after: world.telegram.sendText(budi, command, { chat: group }) });
      expect(reply.text, command).toContain('chat pribadi');
    }
  });
});

describe("a downline's menu offers what a downline can do", () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('/start says whose downline they are; ⚙️ shows the reseller service as the upline’s; /connect offers no reseller account; /alert explains', async () => {
    world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, app: { outboxLimits: { perChatMs: 20 } } });
    const { budi, sari } = await uplineAndDownline(world);

    const welcome = await world.telegram.waitForBotMessage(sari, { after: sari.send('/start') });
    expect(welcome.text).toContain('Anda downline dari Budi');
    expect(welcome.text).not.toContain('/connect');
    expect(world.telegram.replyKeyboard(sari)).toBeDefined();

    const settings = await world.telegram.waitForBotMessage(sari, { after: sari.send('⚙️ Pengaturan'), textIncludes: 'Akun & pengaturan' });
    expect(settings.text).toContain('Top-up reseller: lewat akun upline Anda, Budi');
    expect(settings.text).not.toContain('Top-up reseller: belum terhubung');
    sari.tap(settings, '🔗 Hubungkan akun');
    const picker = await world.telegram.waitForBotMessage(sari, { after: settings, textIncludes: 'layanan' });
    expect(picker.buttons.flat()).not.toContain('Top-up reseller');
    expect(picker.buttons.flat()).toContain('Marketplace');
    const viaCommand = await world.telegram.waitForBotMessage(sari, { after: sari.send('/hubungkan'), textIncludes: 'layanan' });
    expect(viaCommand.buttons.flat().some((label) => label.includes('reseller'))).toBe(false);

    const alert = await world.telegram.waitForBotMessage(sari, { after: sari.send('/alert 50000') });
    expect(alert.text).toContain('akun provider upline Anda');
    expect(alert.text).not.toContain('/connect');
    // Budi, a reseller, keeps the picker and the alert as they were.
    const budiPicker = await world.telegram.waitForBotMessage(budi, { after: budi.send('/hubungkan'), textIncludes: 'layanan' });
    expect(budiPicker.buttons.flat().some((label) => label.includes('reseller'))).toBe(true);
  });
});
