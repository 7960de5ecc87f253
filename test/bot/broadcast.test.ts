import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { adminId, copiesOf, startPhotoBroadcast, worldWithUsers, type Audience } from '../helpers/broadcast.ts';

/** Real-time worlds of a few hundred users at most, paced fast (the 2,000-user runs at Telegram's pace are in broadcast-scale.test.ts). */
const fastWorld = (count: number, options: { rate: number; env?: Record<string, string>; globalPerSecond?: number }) =>
  worldWithUsers(count, {
    env: options.env,
    // Telegram's limits enforced (429 with retry_after), with room for the fast pace these tests use.
    telegram: { enforceLimits: { globalPerSecond: options.globalPerSecond ?? 5000, perChatPerSecond: 50 } },
    app: {
      outboxLimits: { perChatMs: 10, globalPerSecond: 5000 },
      broadcast: { rate: options.rate, windowMs: 100, progressEveryMs: 100 },
    },
  });

describe('/broadcast', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world?.stop();
  });

  it('with BROADCAST_PAID=true the copies carry allow_paid_broadcast and go faster than the free 30 per second', async () => {
    let audience: Audience;
    // Telegram enforcing a free limit of 20 per second: only paid copies may go faster without a 429.
    [world, audience] = await fastWorld(200, {
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

  it('a video with its caption is copied to every active user, caption and all', async () => {
    let audience: Audience;
    [world, audience] = await fastWorld(20, { rate: 100 });
    const { admin, users, blocked } = audience;
    const videoCaption = 'Cara top-up lewat bot, 30 detik';
    const video = await world.app.bot.api.sendVideo(adminId, 'https://example.com/tutorial.mp4', { caption: videoCaption });
    const picker = await world.telegram.waitForBotMessage(admin, {
      after: admin.send('/broadcast', { replyTo: video.message_id }),
      textIncludes: 'Kirim ke siapa',
    });
    admin.tap(picker, 'Semua pengguna aktif');
    await world.telegram.waitFor(() => picker.text?.includes('pengguna aktif (Semua pengguna aktif)'));
    admin.tap(picker, '📣 Kirim');
    const report = await world.telegram.waitForBotMessage(admin, { textIncludes: 'Siaran selesai', timeoutMs: 10_000 });
    expect(report.text).toContain(`Terkirim: ${users.length - blocked.size + 1} · diblokir: ${blocked.size} · gagal: 0`);
    for (const user of users) {
      const copies = world.telegram.botMessages(user).filter((m) => m.method === 'copyMessage');
      expect(copies, `user ${user.id}`).toHaveLength(blocked.has(user.id) ? 0 : 1);
      for (const copy of copies) {
        expect(copy.message.video?.file_id).toBe(video.video.file_id);
        expect(copy.message.caption).toBe(videoCaption);
      }
    }
  });

  it('the audience can be the users of a service, of a language, or who bought in the last 7 or 30 days', async () => {
    let audience: Audience;
    [world, audience] = await fastWorld(4, { rate: 100 });
    const { admin, users } = audience;
    const buyer = await seedConnectedUser(world, 'Budi');
    await world.app.db.users.upsert({ id: buyer.id, firstName: 'Budi', locale: 'id' });
    await seedPurchase(world, buyer);
    await world.app.db.users.update(users[0]!.id, { locale: 'en' });
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
    [world, audience] = await fastWorld(3, { rate: 100 });
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
    expect(await world.app.db.broadcasts.running()).toBeUndefined();
    expect(world.telegram.callsTo('copyMessage')).toHaveLength(0);
  });
});
