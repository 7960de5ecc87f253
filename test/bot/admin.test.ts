import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';

describe('admin commands', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('only ADMIN_IDS may broadcast; the broadcast reaches every active user once, through the outbox', async () => {
    world = await startWorld({ jobs: true, app: { outboxLimits: { perChatMs: 10 } }, env: { ADMIN_IDS: '990001' } });
    const boss = world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: 990001 });
    const a = world.telegram.createUser({ firstName: 'Ani', languageCode: 'id' });
    const b = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    for (const user of [a, b]) await world.telegram.waitForBotMessage(user, { after: user.send('/start') });

    const refused = await world.telegram.waitForBotMessage(a, { after: a.send('/broadcast halo semua') });
    expect(refused.text).toContain('/help');
    const stats = await world.telegram.waitForBotMessage(a, { after: a.send('/stats') });
    expect(stats.text).not.toContain('Pengguna:');

    const preview = await world.telegram.waitForBotMessage(boss, {
      after: boss.send('/broadcast Server provider perawatan pukul 23.00 <b>& lainnya'),
    });
    expect(preview.text).toBe('Server provider perawatan pukul 23.00 <b>& lainnya');
    const confirm = await world.telegram.waitForBotMessage(boss, { after: preview, textIncludes: 'Kirim ke siapa' });
    boss.tap(confirm, 'Semua pengguna aktif');
    await world.telegram.waitFor(() => confirm.text?.includes('3 pengguna aktif') === true);
    boss.tap(confirm, '📣 Kirim');
    await world.telegram.waitFor(() => confirm.text?.includes('antrean') === true);
    for (const user of [a, b]) {
      await world.telegram.waitForBotMessage(user, { textIncludes: 'Server provider perawatan' });
    }
    await world.telegram.waitForBotMessage(boss, { textIncludes: 'Siaran selesai' });
    await world.app.outbox.drain();
    expect(world.telegram.botMessages(a).filter((m) => m.text === 'Server provider perawatan pukul 23.00 <b>& lainnya')).toHaveLength(1);
    const adminStats = await world.telegram.waitForBotMessage(boss, { after: boss.send('/stats') });
    expect(adminStats.text).toContain('Pengguna: 3');
  });

  it('/stats shows what the stats service counts: users, connections, today and 7 days, queues, broadcast, uptime', async () => {
    world = await startWorld({ env: { ADMIN_IDS: '990001' } });
    const boss = world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: 990001 });
    await world.telegram.waitForBotMessage(boss, { after: boss.send('/start') });
    const reseller = await seedConnectedUser(world, 'Sari');
    await seedPurchase(world, reseller, { price: 10_500 });
    await seedPurchase(world, reseller, { target: '081200000000', price: 20_000 });

    const stats = await world.telegram.waitForBotMessage(boss, { after: boss.send('/stats') });
    const figures = await world.app.services.stats.collect();
    expect(figures.today.count).toBe(2);
    expect(stats.text).toContain(`Pengguna: ${figures.users.total} (aktif ${figures.users.active}, diblokir admin 0)`);
    expect(stats.text).toContain('Terhubung: 1 top-up reseller · 0 marketplace · 0 toko game');
    const { today } = figures;
    expect(stats.text).toContain(`Hari ini: 2 transaksi · Rp ${today.volume.toLocaleString('id-ID')} sukses`);
    expect(stats.text).toContain(`✅ ${today.success} sukses · ❌ ${today.failed} gagal · ⏳ ${today.pending} diproses`);
    expect(stats.text).toContain('7 hari: 2 transaksi');
    expect(stats.text).toContain(`Antrean pengecekan: ${figures.watcherBacklog}`);
    expect(stats.text).toContain('Siaran berjalan: tidak ada');
    expect(stats.text).toMatch(/Aktif sejak: 0 hari 0 jam \d+ menit/);
  });

  it('a non-admin gets the unknown-command answer for every admin command, with or without arguments', async () => {
    world = await startWorld({ env: { ADMIN_IDS: '990001' }, app: { floodLimit: { updates: 100, windowMs: 1000 } } });
    const ani = world.telegram.createUser({ firstName: 'Ani', languageCode: 'id' });
    await world.telegram.waitForBotMessage(ani, { after: ani.send('/start') });
    const unknown = await world.telegram.waitForBotMessage(ani, { after: ani.send('/nosuchcommand') });
    for (const command of [
      '/broadcast',
      '/broadcast halo',
      '/broadcast_cancel',
      '/stats',
      '/user',
      '/user 990001',
      '/ban 990001',
      '/unban @ani',
      '/STATS',
    ]) {
      const answer = await world.telegram.waitForBotMessage(ani, { after: ani.send(command) });
      expect(answer.text, command).toBe(unknown.text);
    }
    expect(await world.app.db.users.get(990001)).toBeUndefined();
  });
});
