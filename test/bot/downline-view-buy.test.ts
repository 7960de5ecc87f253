import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, waitForSummary } from '../helpers/buy.ts';
import { periodRange } from '../../src/services/export-periods.ts';
import { maskTarget } from '../../src/text/format.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

/** TSEL10 costs the upline Rp 10.450 in the sandbox; Bronze adds Rp 500. */
const levelPrice = 10_950;

describe("the upline's view of a purchase a downline made from the wallet (DOWNLINES=true)", () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it("a Sukses purchase shows on the list, in /laporan dl and in the upline's margin line, and is posted masked to the upline's group", async () => {
    world = await startWorld({
      jobs: true,
      env: { DOWNLINES: 'true' },
      app: { outboxLimits: { perChatMs: 20 } },
      sandbox: { reseller: { instant: true } },
    });
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Level' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline level Bronze Rp 500'), textIncludes: 'Level disimpan' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline auto nyala'), textIncludes: 'nyala' });
    const made = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline undang'), textIncludes: 'Link undangan baru' });
    const payload = /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(made.text ?? '')?.[1] ?? '';
    const sari: EmulatedUser = world.telegram.createUser({ firstName: 'Sari', username: 'sari', languageCode: 'id' });
    await world.telegram.waitForBotMessage(sari, { after: sari.send(`/start ${payload}`), textIncludes: 'Anda sekarang downline' });
    await world.app.services.wallets.adjust(budi.id, sari.id, 50_000, 'modal awal', 'test-start');
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/linkgroup', { chat: group }),
      textIncludes: 'tertaut',
    });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline grup nyala'), textIncludes: 'Notifikasi grup nyala' });

    const summary = await waitForSummary(world, sari, sari.send('TSEL10.081234567890'));
    sari.tap(summary, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(sari, { after: summary, textIncludes: 'Sukses', timeoutMs: 10_000 });

    const post = await world.telegram.waitForBotMessage(group, { textIncludes: 'Downline Sari' });
    expect(post.text).toContain(`👥 Downline Sari: ✅ Sukses — Telkomsel 10.000 ${maskTarget('081234567890')}`);
    expect(post.text).not.toMatch(/081234567890|Rp/);

    const home = await world.telegram.waitForBotMessage(budi, { after: budi.send('/downline'), textIncludes: 'Downline (1)' });
    expect(home.text).toContain(`└ saldo Rp ${(50_000 - levelPrice).toLocaleString('id-ID')} · hari ini 1 trx · margin Anda Rp 500`);
    const today = periodRange('today', new Date()).from;
    const report = await world.telegram.waitForBotMessage(budi, {
      after: budi.send(`/laporan dl ${today} ${today}`),
      textIncludes: 'Laporan downline',
    });
    expect(report.text).toContain('Penjualan (harga downline): Rp 10.950');
    expect(report.text).toContain('Modal Anda: Rp 10.450');
    expect(report.text).toContain('Margin Anda: Rp 500');
    const own = await world.telegram.waitForBotMessage(budi, {
      after: budi.send(`/laporan ${today} ${today}`),
      textIncludes: 'Margin dari downline',
    });
    expect(own.text).toContain('👥 Margin dari downline: Rp 500');

    // Sari's own report: her price is her cost; nothing of Budi's.
    const hers = await world.telegram.waitForBotMessage(sari, { after: sari.send(`/laporan ${today} ${today}`), textIncludes: 'Laporan' });
    expect(hers.text).toContain('Omzet (harga modal): Rp 10.950');
    expect(hers.text).not.toMatch(/10\.450|Margin dari downline/);
  });
});
