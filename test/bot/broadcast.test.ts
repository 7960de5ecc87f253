import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';

const adminId = 990001;
const caption = 'Harga pulsa naik mulai besok';
const button = { text: 'Lihat harga', url: 'https://example.com/harga' };

interface Audience {
  admin: EmulatedUser;
  users: EmulatedUser[];
  blocked: Set<number>;
}

/** The world with `count` known users (stored as after their /start); every 20th of them blocked the bot (Telegram answers 403). */
async function worldWithUsers(
  count: number,
  options: { rate: number; windowMs?: number; env?: Record<string, string>; globalPerSecond?: number },
): Promise<[TestWorld, Audience]> {
  const world = await startWorld({
    jobs: true,
    env: { ADMIN_IDS: String(adminId), ...options.env },
    // Telegram's limits enforced (429 with retry_after), with room for the fast pace tests use.
    telegram: { enforceLimits: { globalPerSecond: options.globalPerSecond ?? 5000, perChatPerSecond: 50 } },
    app: {
      outboxLimits: { perChatMs: 10, globalPerSecond: 5000 },
      // The admin taps through the audience choices quickly.
      floodLimit: { updates: 100, windowMs: 3000 },
      broadcast: { rate: options.rate, windowMs: options.windowMs ?? 100, progressEveryMs: 100 },
    },
  });
  const admin = world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: adminId });
  const users = Array.from({ length: count }, (_, i) => world.telegram.createUser({ firstName: `Pengguna ${i}`, languageCode: 'id' }));
  await Promise.all(
    [admin, ...users].map((user) => world.app.store.users.upsert({ id: user.id, firstName: user.user.first_name, locale: 'id' })),
  );
  const blocked = new Set<number>();
  users.forEach((user, i) => {
    if (i % 20 !== 7) return;
    // Blocked without the bot being told (no my_chat_member seen): only a send finds out.
    world.telegram.injectError({ chatId: user.id, errorCode: 403, description: 'Forbidden: bot was blocked by the user', times: Infinity });
    blocked.add(user.id);
  });
  await world.idle();
  return [world, { admin, users, blocked }];
}

/** The admin has a photo with a caption and a URL button in their chat, replies to it with /broadcast and picks everyone. */
async function startPhotoBroadcast(world: TestWorld, admin: EmulatedUser): Promise<EmulatedMessage> {
  const photo = await world.app.bot.api.sendPhoto(adminId, 'https://example.com/promo.jpg', {
    caption,
    reply_markup: { inline_keyboard: [[button]] },
  });
  const picker = await world.telegram.waitForBotMessage(admin, {
    after: admin.send('/broadcast', { replyTo: photo.message_id }),
    textIncludes: 'Kirim ke siapa',
  });
  const preview = world.telegram.botMessages(admin).find((m) => m.messageId > photo.message_id && m.message.caption === caption);
  expect(preview?.inlineKeyboard?.inline_keyboard[0]?.[0], JSON.stringify(world.telegram.botMessages(admin))).toMatchObject(button);
  admin.tap(picker, 'Semua pengguna aktif');
  await world.telegram.waitFor(() => picker.text?.includes('pengguna aktif (Semua pengguna aktif)'));
  return picker;
}

/** Copies of the broadcast the user received (for the admin: besides the preview). */
const copiesOf = (world: TestWorld, user: EmulatedUser) =>
  world.telegram
    .botMessages(user)
    .filter(
      (m) => m.method === 'copyMessage' && m.message.caption === caption && m.inlineKeyboard?.inline_keyboard[0]?.[0]?.text === button.text,
    ).length - (user.id === adminId ? 1 : 0);

const formatted = (count: number) => new Intl.NumberFormat('id').format(count);

describe('/broadcast', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.stop();
  });

  it('copies a photo with its caption and URL button to 500 users exactly once, skips and marks the blocked ones, and reports', async () => {
    let audience: Audience;
    [world, audience] = await worldWithUsers(500, { rate: 300 });
    const { admin, users, blocked } = audience;
    const picker = await startPhotoBroadcast(world, admin);
    expect(picker.text).toContain(`${formatted(users.length + 1)} pengguna aktif`);
    admin.tap(picker, '📣 Kirim');

    // A user's command during the broadcast is answered before the broadcast ends.
    const asker = users[3]!;
    const answer = await world.telegram.waitForBotMessage(asker, {
      after: asker.send('/saldo'),
      where: (m) => m.method !== 'copyMessage',
      timeoutMs: 10_000,
    });
    expect(answer.text).toContain('reseller');
    expect(world.app.store.broadcasts.running(), 'the reply came after the broadcast ended').toBeDefined();

    const report = await world.telegram.waitForBotMessage(admin, { textIncludes: 'Siaran selesai', timeoutMs: 30_000 });
    const active = users.length - blocked.size + 1;
    expect(report.text).toContain(`Terkirim: ${formatted(active)} · diblokir: ${blocked.size} · gagal: 0`);
    for (const user of users) expect(copiesOf(world, user), `user ${user.id}`).toBe(blocked.has(user.id) ? 0 : 1);
    expect(copiesOf(world, admin)).toBe(1);
    for (const id of blocked) expect(world.app.store.users.get(id)?.active).toBe(false);
    // The progress message ends with the counts too.
    expect(picker.text).toContain('Siaran selesai');
    // A later broadcast leaves out who blocked the bot.
    expect(await world.app.deps.broadcasts.recipients({ kind: 'all' })).toHaveLength(active);
  }, 60_000);

  it('killed halfway and restarted, it resumes where it stopped: nobody gets it twice', async () => {
    let audience: Audience;
    [world, audience] = await worldWithUsers(400, { rate: 20 });
    const { admin, users, blocked } = audience;
    const picker = await startPhotoBroadcast(world, admin);
    admin.tap(picker, '📣 Kirim');
    await world.telegram.waitFor(() => world.telegram.callsTo('copyMessage').length >= 120);
    await world.restart();
    const afterRestart = world.telegram.callsTo('copyMessage').length;
    expect(afterRestart, 'the restart must interrupt the broadcast').toBeLessThan(users.length);
    await world.telegram.waitForBotMessage(admin, { textIncludes: 'Siaran selesai', timeoutMs: 30_000 });
    for (const user of users) expect(copiesOf(world, user), `user ${user.id}`).toBe(blocked.has(user.id) ? 0 : 1);
  }, 60_000);

  it('/broadcast_cancel stops it and the report says how many got it', async () => {
    let audience: Audience;
    [world, audience] = await worldWithUsers(300, { rate: 5 });
    const { admin, users } = audience;
    const picker = await startPhotoBroadcast(world, admin);
    admin.tap(picker, '📣 Kirim');
    await world.telegram.waitFor(() => world.telegram.callsTo('copyMessage').length >= 30);
    await world.telegram.waitForBotMessage(admin, { after: admin.send('/broadcast_cancel'), textIncludes: 'dihentikan' });
    const report = await world.telegram.waitForBotMessage(admin, { textIncludes: 'Siaran dihentikan.', timeoutMs: 10_000 });
    const copies = users.reduce((sum, user) => sum + copiesOf(world, user), 0) + copiesOf(world, admin);
    expect(copies).toBeLessThan(users.length / 2);
    expect(report.text).toContain(`Terkirim: ${copies}`);
    await world.app.outbox.drain();
    expect(users.reduce((sum, user) => sum + copiesOf(world, user), 0) + copiesOf(world, admin)).toBe(copies);
    expect(world.app.store.broadcasts.running()).toBeUndefined();
  }, 30_000);

  it('with BROADCAST_PAID=true the copies carry allow_paid_broadcast and go faster than the free 30 per second', async () => {
    let audience: Audience;
    // Telegram enforcing a free limit of 20 per second: only paid copies may go faster without a 429.
    [world, audience] = await worldWithUsers(200, {
      rate: 50,
      env: { BROADCAST_PAID: 'true', BROADCAST_RATE: '500' },
      globalPerSecond: 20,
    });
    const { admin, users, blocked } = audience;
    const picker = await startPhotoBroadcast(world, admin);
    admin.tap(picker, '📣 Kirim');
    await world.telegram.waitForBotMessage(admin, { textIncludes: 'Siaran selesai', timeoutMs: 20_000 });
    // The first copy is the admin's preview; every copy of the broadcast is paid.
    const [, ...copies] = world.telegram.callsTo('copyMessage');
    expect(copies.length).toBeGreaterThan(0);
    expect(copies.every((call) => call.params.allow_paid_broadcast === true)).toBe(true);
    expect(world.telegram.calls.filter((call) => call.status === 429)).toHaveLength(0);
    expect(world.telegram.maxSendsInWindow('all', 1000)).toBeGreaterThan(20);
    for (const user of users) expect(copiesOf(world, user), `user ${user.id}`).toBe(blocked.has(user.id) ? 0 : 1);
  }, 30_000);

  it('the audience can be the users of a service, of a language, or who bought in the last 7 or 30 days', async () => {
    let audience: Audience;
    [world, audience] = await worldWithUsers(4, { rate: 100 });
    const { admin, users } = audience;
    const buyer = await seedConnectedUser(world, 'Budi');
    await world.app.store.users.upsert({ id: buyer.id, firstName: 'Budi', locale: 'id' });
    await seedPurchase(world, buyer);
    await world.app.store.users.update(users[0]!.id, { locale: 'en' });
    const picker = await world.telegram.waitForBotMessage(admin, {
      after: admin.send('/broadcast Promo'),
      textIncludes: 'Kirim ke siapa',
    });
    const sizeOf = async (choice: string) => {
      admin.tap(picker, choice);
      const size = await world.telegram.waitFor(
        () => /ke (\d+) pengguna aktif|Tidak ada/.exec(picker.text ?? '')?.[1] ?? (picker.text?.includes('Tidak ada') ? '0' : undefined),
      );
      admin.tap(picker, '⬅️ Kembali');
      await world.telegram.waitFor(() => picker.text?.includes('Kirim ke siapa'));
      return Number(size);
    };
    expect(await sizeOf('Semua pengguna aktif')).toBe(6);
    expect(await sizeOf('Terhubung ke Top-up reseller')).toBe(1);
    expect(await sizeOf('Terhubung ke Marketplace')).toBe(0);
    expect(await sizeOf('Bahasa Inggris')).toBe(1);
    expect(await sizeOf('Bahasa Indonesia')).toBe(5);
    expect(await sizeOf('Beli dalam 7 hari terakhir')).toBe(1);
    expect(await sizeOf('Beli dalam 30 hari terakhir')).toBe(1);

    // A banned user (/ban) is in no audience.
    admin.send(`/ban ${users[1]!.id}`);
    await world.telegram.waitForBotMessage(admin, { textIncludes: 'diblokir' });
    expect(await sizeOf('Semua pengguna aktif')).toBe(5);
  });

  it('only ADMIN_IDS may run /broadcast and /broadcast_cancel or tap its buttons', async () => {
    let audience: Audience;
    [world, audience] = await worldWithUsers(3, { rate: 100 });
    const { admin, users } = audience;
    const intruder = users[0]!;
    for (const command of ['/broadcast halo semua', '/broadcast_cancel']) {
      const refused = await world.telegram.waitForBotMessage(intruder, { after: intruder.send(command) });
      expect(refused.text).toContain('/help');
    }
    const preview = await world.telegram.waitForBotMessage(admin, { after: admin.send('/broadcast Server <b>& perawatan') });
    expect(preview.text).toBe('Server <b>& perawatan');
    await world.telegram.waitForBotMessage(admin, { textIncludes: 'Kirim ke siapa' }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${world.logs.filter((l) => l.includes('error')).join('\n')}`);
    });
    expect(world.app.store.broadcasts.running()).toBeUndefined();
    expect(world.telegram.callsTo('copyMessage')).toHaveLength(0);
  });
});
