import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';

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
});
