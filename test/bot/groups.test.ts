import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, eventually } from '../helpers/buy.ts';
import { connectReseller } from '../helpers/connect.ts';
import { commandNames, publishCommands } from '../../src/bot/commands.ts';
import { createI18n } from '../../src/bot/i18n.ts';

/** The commands that show or move a user's own money, orders or accounts: written out, not read from the bot's table. */
const privateOnlyCommands = [
  'connect',
  'disconnect',
  'balance',
  'prices',
  'buy',
  'status',
  'history',
  'export',
  'report',
  'shop',
  'sellprice',
  'summary',
  'pin',
  'settings',
  'account',
  'items',
  'games',
  'order',
  'orders',
  'watch',
] as const;

describe('group links, the operator feed and start-up cosmetics', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('only a connected group admin links a group; /unlinkgroup and removing the bot unlink it', async () => {
    world = await startWorld();
    const budi = await buyer(world);
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi, sari], admins: [budi] });

    const notAdmin = await world.telegram.waitForBotMessage(group, { after: world.telegram.sendText(sari, '/linkgroup', { chat: group }) });
    expect(notAdmin.text).toMatch(/Hubungkan akun top-up|Hanya admin/);
    expect(await world.app.db.groups.get(group.id)).toBeUndefined();

    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/linkgroup', { chat: group }),
      textIncludes: 'menerima notifikasi',
    });
    expect((await world.app.db.groups.get(group.id))?.ownerId).toBe(budi.id);

    const refused = await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(sari, '/unlinkgroup', { chat: group }),
    });
    expect(refused.text).toContain('Hanya pemilik');
    expect(await world.app.db.groups.get(group.id)).toBeDefined();

    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/unlinkgroup', { chat: group }),
      textIncludes: 'tidak lagi',
    });
    expect(await world.app.db.groups.get(group.id)).toBeUndefined();

    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/linkgroup', { chat: group }),
      textIncludes: 'menerima notifikasi',
    });
    world.telegram.removeBotFromGroup(group, { by: budi });
    await eventually(async () => (await world.app.db.groups.get(group.id)) === undefined);
  });

  it('/linkgroup in a private chat says where to run it', async () => {
    world = await startWorld();
    const budi = await buyer(world);
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/linkgroup') });
    expect(reply.text).toContain('grup');
  });

  it('every private-only command, and its alias, used in a group gets one answer: open a private chat', async () => {
    // 39 commands in a group within seconds: more than Telegram's 20 messages a minute there, which
    // the emulator does not enforce. On a fleet every message to a group keeps that limit (replies
    // too), so it is lifted here as the world lifts the ceiling and a chat's gap.
    world = await startWorld({ app: { floodLimit: { updates: 100, windowMs: 3000 }, outboxLimits: { perGroupPerMinute: 100_000 } } });
    const budi = await buyer(world);
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    for (const name of privateOnlyCommands.flatMap((command) => commandNames(command))) {
      const answer = await world.telegram.waitForBotMessage(group, { after: world.telegram.sendText(budi, `/${name}`, { chat: group }) });
      expect(answer.text, `/${name}`).toBe(
        'Perintah ini hanya bisa dipakai di chat pribadi dengan bot, supaya data Anda aman. Buka chat pribadi dengan saya lalu coba lagi.',
      );
    }
    expect(world.telegram.botMessages(group)).toHaveLength(privateOnlyCommands.flatMap((command) => commandNames(command)).length);
  });

  it('ADMIN_CHAT_ID receives new users and failed purchases', async () => {
    world = await startWorld({
      env: { ADMIN_CHAT_ID: '-100777' },
      jobs: true,
      app: { outboxLimits: { perChatMs: 10 } },
      sandbox: { reseller: { instant: true } },
    });
    const ops = world.telegram.createGroup({ id: -100777, title: 'Operator', type: 'supergroup', members: [] });
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(ops, { textIncludes: 'Pengguna baru: Budi' });
    const summary = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('/beli TSEL10 081200000000'),
      where: (m) => m.buttons.flat().includes('✅ Konfirmasi'),
    });
    budi.tap(summary, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(ops, { textIncludes: 'Transaksi gagal' });
  });

  it('ADMIN_CHAT_ID hears once when a provider refuses a stored account, never for credentials being tried', async () => {
    world = await startWorld({
      env: { ADMIN_CHAT_ID: '-100777', PUBLIC_IP: '203.0.113.7' },
      jobs: true,
      app: { outboxLimits: { perChatMs: 10 } },
    });
    const ops = world.telegram.createGroup({ id: -100777, title: 'Operator', type: 'supergroup', members: [] });
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(ops, { textIncludes: 'Pengguna baru: Budi' });
    world.sandbox.inject({
      service: 'reseller',
      path: '/cek-saldo',
      times: 2,
      fault: { kind: 'status', status: 403, body: { success: false, message: 'IP tidak terdaftar' } },
    });
    const first = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    expect(first.text).toContain('203.0.113.7');
    expect(first.text).toContain('"IP tidak terdaftar"');
    const line = await world.telegram.waitForBotMessage(ops, { textIncludes: 'menolak akun pengguna' });
    expect(line.text).toContain(String(budi.id));
    expect(line.text).toContain('whitelist IP 203.0.113.7');
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: '203.0.113.7' });

    // Someone typing wrong credentials into /connect is not an operator matter.
    const siti = world.telegram.createUser({ firstName: 'Siti', languageCode: 'id' });
    await expect(connectReseller(world, siti, { apiId: 'NOPE', apiKey: 'wrong-key-123' })).rejects.toThrow(/❌/);
    await world.app.outbox.drain();
    expect(world.telegram.botMessages(ops).filter((m) => m.text?.includes('menolak akun'))).toHaveLength(1);
  });

  it('a failing setMyCommands is logged and the bot keeps answering', async () => {
    world = await startWorld();
    world.telegram.injectError({
      method: 'setMyCommands',
      times: Infinity,
      errorCode: 400,
      description: 'Bad Request: BOT_COMMAND_INVALID',
    });
    const i18n = createI18n({ defaultLocale: 'id', db: world.app.db });
    await publishCommands(world.app.bot.api, i18n, world.app.logger, 'id');
    expect(world.logs.some((line) => line.includes('could not publish the command menu'))).toBe(true);
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    expect(reply.text).toContain('Halo Budi');
  });

  it('a stray button press gets a short answer, and a flood of messages gets one "slow down"', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const start = await world.telegram.waitForBotMessage(budi, { after: budi.send('/start') });
    // A button of a bot message whose data no feature knows (an old release's, say).
    const stray = { id: 'stray-1', from: budi.user, chat_instance: '1', data: 'nothing:here', message: start.message };
    world.telegram.pushUpdate({ callback_query: stray });
    const answer = await world.telegram.waitForCallbackAnswer('stray-1');
    expect(answer.text).toContain('tidak berlaku');

    for (let i = 0; i < 20; i += 1) budi.send(`halo ${i}`);
    await world.telegram.waitFor(() => world.telegram.botMessages(budi).some((m) => m.text?.includes('Pelan-pelan')));
    await world.telegram.waitFor(() => world.logs.some((line) => line.includes('flood limit reached')));
    expect(world.telegram.botMessages(budi).filter((m) => m.text?.includes('Pelan-pelan'))).toHaveLength(1);
  });
});
