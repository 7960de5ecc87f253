/**
 * Edges of group notifications and the operator feed, end to end: a linked group upgraded to a
 * supergroup keeps receiving settlement notices (whether the bot hears of the upgrade first or the
 * outbox meets it first), /linkgroup needs a group admin even from a connected user, and
 * ADMIN_CHAT_ID hears of unresolved transactions, account pauses and bot errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld, TestWorldOptions } from '../helpers/app.ts';
import { buyPending, recheck, startSettlementWorld, testClock, waitForSettled, type TestClock } from '../helpers/settlement.ts';
import { buyer, eventually, sandboxTransactions } from '../helpers/buy.ts';
import { seedConnectedUser, seedPurchase, transactionRequests } from '../helpers/seed-transactions.ts';

const opsChatId = -100777;

describe('group notification and operator feed edges', () => {
  let world: TestWorld;
  let clock: TestClock;
  const start = async (options: TestWorldOptions = {}) => {
    clock = testClock();
    world = await startSettlementWorld(clock, options);
    return world;
  };
  afterEach(async () => {
    await world.stop();
  });

  const successPosts = (chat: { readonly id: number }) =>
    world.telegram.botMessages(chat).filter((m) => m.text?.includes('Transaksi sukses'));

  it('a linked group upgraded to a supergroup: the link follows and the next settlement notice reaches the supergroup', async () => {
    await start();
    const budi = await buyer(world);
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/linkgroup', { chat: group }),
      textIncludes: 'menerima notifikasi',
    });
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');

    const supergroup = world.telegram.migrateGroup(group);
    expect(supergroup.id).not.toBe(group.id);
    await eventually(async () => (await world.app.db.groups.get(supergroup.id))?.ownerId === budi.id);
    expect(await world.app.db.groups.get(group.id)).toBeUndefined();

    await recheck(world, clock, 3);
    await waitForSettled(world, budi, pending, 'Transaksi sukses');
    const post = await world.telegram.waitForBotMessage(supergroup, { textIncludes: 'Transaksi sukses' });
    expect(post.text).toContain('0812****7890');
    await recheck(world, clock, 2);
    await world.app.outbox.drain();
    expect(successPosts(supergroup)).toHaveLength(1);
    expect(successPosts(group)).toHaveLength(0);
  });

  it('a notice queued for the group before the upgrade is delivered to the supergroup once', async () => {
    await start();
    const budi = await buyer(world);
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/linkgroup', { chat: group }),
      textIncludes: 'menerima notifikasi',
    });
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');

    // The settlement is stored (its notices queued for the old group id) while the outbox is stopped.
    await world.app.outbox.stop();
    await recheck(world, clock, 3);
    expect(sandboxTransactions(world)[0]?.status).toBe('Sukses');
    expect((await world.app.db.outbox.entries()).some((entry) => entry.chatId === group.id)).toBe(true);

    const supergroup = world.telegram.migrateGroup(group);
    world.app.outbox.start();
    const post = await world.telegram.waitForBotMessage(supergroup, { textIncludes: 'Transaksi sukses' });
    expect(post.text).toContain('0812****7890');
    await waitForSettled(world, budi, pending, 'Transaksi sukses');
    await world.app.outbox.drain();
    expect(successPosts(supergroup)).toHaveLength(1);
    expect(successPosts(group)).toHaveLength(0);
    expect((await world.app.db.groups.get(supergroup.id))?.ownerId).toBe(budi.id);
    expect(await world.app.db.groups.get(group.id)).toBeUndefined();
  });

  it('the outbox alone follows an upgrade it meets first: the notice reaches the supergroup and the link moves there', async () => {
    // No polling: the bot never sees the migration message, only the outbox's 400 migrate_to_chat_id.
    await start({ polling: false });
    const budi = await seedConnectedUser(world, 'Budi');
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    await world.app.db.groups.link({ chatId: group.id, ownerId: budi.id, title: 'Konter Budi' });
    await seedPurchase(world, budi);
    const supergroup = world.telegram.migrateGroup(group);

    await recheck(world, clock, 3);
    const post = await world.telegram.waitForBotMessage(supergroup, { textIncludes: 'Transaksi sukses' });
    expect(post.text).toContain('0812****7890');
    await eventually(async () => (await world.app.db.groups.get(supergroup.id))?.ownerId === budi.id);
    expect(await world.app.db.groups.get(group.id)).toBeUndefined();
    await world.app.outbox.drain();
    expect(successPosts(supergroup)).toHaveLength(1);
  });

  it('/linkgroup from a connected member who is not a group admin is refused; a connected admin links it', async () => {
    await start();
    const ani = world.telegram.createUser({ firstName: 'Ani', languageCode: 'id' });
    const sari = await buyer(world, 'Sari');
    const budi = await buyer(world, 'Budi');
    // Ani owns the group; Budi is an administrator; Sari a plain member with a connected account.
    const group = world.telegram.createGroup({ title: 'Konter', owner: ani, members: [ani, sari, budi], admins: [ani, budi] });

    const refused = await world.telegram.waitForBotMessage(group, { after: world.telegram.sendText(sari, '/linkgroup', { chat: group }) });
    expect(refused.text).toContain('Hanya admin grup');
    expect(await world.app.db.groups.get(group.id)).toBeUndefined();
    expect(await world.app.db.groups.byOwner(sari.id)).toHaveLength(0);

    const linked = await world.telegram.waitForBotMessage(group, { after: world.telegram.sendText(budi, '/linkgroup', { chat: group }) });
    expect(linked.text).toContain('menerima notifikasi');
    expect((await world.app.db.groups.get(group.id))?.ownerId).toBe(budi.id);
  });

  it('ADMIN_CHAT_ID hears of a transaction left unresolved past the horizon', async () => {
    await start({ env: { ADMIN_CHAT_ID: String(opsChatId), PENDING_HORIZON_HOURS: '1' } });
    const ops = world.telegram.createGroup({ id: opsChatId, title: 'Operator', type: 'supergroup', members: [] });
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081299999999');
    const refId = sandboxTransactions(world)[0]?.refId ?? 'missing';
    clock.advance(2 * 3600_000);
    await world.app.watcher.runOnce();
    await waitForSettled(world, budi, pending, 'Status belum pasti');
    const line = await world.telegram.waitForBotMessage(ops, { textIncludes: 'Transaksi tak terselesaikan' });
    expect(line.text).toContain(refId);
    expect(line.text).toContain(String(budi.id));
  });

  it('ADMIN_CHAT_ID hears once when a re-check pauses an account (IP blocked)', async () => {
    await start({ env: { ADMIN_CHAT_ID: String(opsChatId), PUBLIC_IP: '203.0.113.7' } });
    const ops = world.telegram.createGroup({ id: opsChatId, title: 'Operator', type: 'supergroup', members: [] });
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const refId = sandboxTransactions(world)[0]?.refId ?? 'missing';
    world.sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times: Infinity,
      fault: { kind: 'status', status: 403, body: { success: false, message: 'IP tidak terdaftar' } },
    });
    await recheck(world, clock, 3);
    await world.telegram.waitForBotMessage(budi, { after: pending, textIncludes: 'memblokir IP' });
    const line = await world.telegram.waitForBotMessage(ops, { textIncludes: 'menolak akun pengguna' });
    expect(line.text).toContain(String(budi.id));
    expect(line.text).toContain('IP server diblokir');
    expect(line.text).toContain('203.0.113.7');
    await recheck(world, clock, 3);
    await world.app.outbox.drain();
    expect(transactionRequests(world, refId)).toBe(2);
    expect(world.telegram.botMessages(ops).filter((m) => m.text?.includes('menolak akun pengguna'))).toHaveLength(1);
  });

  it('ADMIN_CHAT_ID hears of a bot error, and the user is told something went wrong', async () => {
    await start({ env: { ADMIN_CHAT_ID: String(opsChatId) } });
    const ops = world.telegram.createGroup({ id: opsChatId, title: 'Operator', type: 'supergroup', members: [] });
    const budi = await buyer(world);
    // Telegram refuses the bot's answer to /bantuan once: the update handler fails.
    world.telegram.injectError({
      method: 'sendMessage',
      chatId: budi.id,
      times: 1,
      errorCode: 400,
      description: 'Bad Request: injected refusal',
    });
    const told = await world.telegram.waitForBotMessage(budi, { after: budi.send('/bantuan') });
    expect(told.text).toContain('Maaf');
    const line = await world.telegram.waitForBotMessage(ops, { textIncludes: 'Kesalahan bot' });
    expect(line.text).toContain('injected refusal');
  });

  it('ADMIN_CHAT_ID gets a burst of the same bot error as one line, then one count when the window ends', async () => {
    const timers: Array<() => void> = [];
    await start({
      env: { ADMIN_CHAT_ID: String(opsChatId) },
      app: { floodLimit: { updates: 100, windowMs: 1000 }, operatorFeed: { setTimer: (callback) => (timers.push(callback), {}) } },
    });
    const ops = world.telegram.createGroup({ id: opsChatId, title: 'Operator', type: 'supergroup', members: [] });
    const budi = await buyer(world);
    world.telegram.injectError({
      method: 'sendMessage',
      chatId: budi.id,
      times: 12,
      errorCode: 400,
      description: 'Bad Request: injected refusal',
    });
    for (let i = 0; i < 12; i++) budi.send('/bantuan');
    await world.idle();
    await world.app.outbox.drain();
    const lines = () => world.telegram.botMessages(ops).filter((m) => m.text?.includes('Kesalahan bot'));
    expect(lines()).toHaveLength(1);
    // The 5-minute window ends.
    expect(timers).toHaveLength(1);
    timers.shift()?.();
    await eventually(async () => (await world.app.db.outbox.size()) > 0);
    await world.app.outbox.drain();
    expect(lines()).toHaveLength(2);
    expect(lines()[1]?.text).toContain('injected refusal');
    expect(lines()[1]?.text).toMatch(/Terjadi lagi ×\d+ dalam 5 menit terakhir/);
  });
});
