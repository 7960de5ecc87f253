/**
 * What a downline reaches besides buying (DOWNLINES=true): /cek re-checks their open purchase
 * through the upline's account, /riwayat and the receipts (🧾 Struk pelanggan) show their level
 * price and their own /jual price over it, /alert (the provider balance alert) says it is not for
 * them, /linkgroup links their group, /start and /help speak to a downline; nothing names the
 * upline's cost, margin or account.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { sandboxTransactions, waitForSummary } from '../helpers/buy.ts';
import { tsel10Cost, uplineAndDownline } from '../helpers/downline-world.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

let world: TestWorld;
afterEach(async () => {
  await world.stop();
});

const levelPrice = tsel10Cost + 500;

/** Everything the bot sent `user`, text and buttons. */
const everything = (user: EmulatedUser) =>
  world.telegram
    .botMessages(user)
    .map((m) => `${m.text ?? ''} ${JSON.stringify(m.buttons)}`)
    .join('\n');

/** Sari (wallet Rp 50.000, /jual +Rp 1.000) confirms TSEL10; resolves the message that shows `result`. */
async function sariBuys(sari: EmulatedUser, result: string) {
  await world.telegram.waitForBotMessage(sari, { after: sari.send('/jual 1000'), textIncludes: '1.000' });
  const summary = await waitForSummary(world, sari, sari.send('TSEL10.081234567890'));
  sari.tap(summary, '✅ Konfirmasi');
  return await world.telegram.waitForBotMessage(sari, { after: summary, textIncludes: result, timeoutMs: 10_000 });
}

describe('a downline outside the buy flow', () => {
  it("/cek of an open purchase re-checks it on the upline's account; /riwayat and 🧾 Struk pelanggan show their prices only", async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' }, sandbox: { reseller: { settleAfterChecks: 1 } } });
    const { sari } = await uplineAndDownline(world, { wallet: 50_000 });
    await sariBuys(sari, 'Sedang diproses');
    const [tx] = await world.app.db.transactions.listByUser(sari.id, { limit: 1 });
    expect(tx?.status).toBe('Pending');

    const open = await world.telegram.waitForBotMessage(sari, { after: sari.send('/cek'), textIncludes: 'Telkomsel 10.000' });
    expect(open.text).toContain('081234567890');
    const receipt = await world.telegram.waitForBotMessage(sari, { after: sari.send(`/cek ${tx!.refId}`), textIncludes: 'Sukses' });
    // Checked on Budi's account, the one it was bought on: still one transaction there.
    expect(sandboxTransactions(world, resellerDemoAccounts.main.apiId)).toHaveLength(1);
    expect(receipt.text).toContain(`Rp ${(levelPrice / 1000).toFixed(3)}`);
    expect(receipt.text).toContain('Rp 11.950');
    expect(receipt.buttons.flat()).toContain('🧾 Struk pelanggan');

    const before = world.telegram.botMessages(sari).length;
    sari.tap(receipt, '🧾 Struk pelanggan');
    await world.telegram.waitFor(() => world.telegram.botMessages(sari).length >= before + 2);
    const customer = world.telegram.botMessages(sari)[before];
    expect(customer?.text).toContain('STRUK PEMBELIAN');
    expect(customer?.text).toContain('Rp 11.950');
    expect(customer?.text).not.toContain('10.950');

    const history = await world.telegram.waitForBotMessage(sari, { after: sari.send('/riwayat'), textIncludes: 'Telkomsel 10.000' });
    expect(history.text).toContain('Rp 11.950');
    await world.idle();
    const seen = everything(sari);
    expect(seen).not.toContain('10.450');
    expect(seen).not.toContain(resellerDemoAccounts.main.apiId);
    expect(seen).not.toMatch(/\/connect|hubungkan/i);
  });

  it("/cek of an open purchase while the upline's account is disconnected: the upline's service is unavailable, not 'connect'", async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' }, sandbox: { reseller: { settleAfterChecks: 5 } } });
    const { budi, sari } = await uplineAndDownline(world, { wallet: 50_000 });
    await sariBuys(sari, 'Sedang diproses');
    const [tx] = await world.app.db.transactions.listByUser(sari.id, { limit: 1 });
    await world.app.services.credentials.remove(budi.id, 'reseller');
    const receipt = await world.telegram.waitForBotMessage(sari, { after: sari.send(`/cek ${tx!.refId}`), textIncludes: 'Telkomsel' });
    expect(receipt.text).toContain('Layanan upline Anda sedang tidak tersedia');
    expect(receipt.text).not.toMatch(/\/connect|belum terhubung/);
  });

  it('/alert (the provider balance alert) tells a downline it is not theirs and saves nothing', async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' } });
    const { sari } = await uplineAndDownline(world);
    for (const command of ['/alert 50000', '/alert']) {
      const answer = await world.telegram.waitForBotMessage(sari, { after: sari.send(command) });
      expect(answer.text).toContain('saldo deposit akun provider upline Anda');
      expect(answer.text).toContain('/saldo');
      expect(answer.text).not.toMatch(/\/connect|belum terhubung/);
    }
    expect((await world.app.db.users.get(sari.id))?.alertThreshold).toBeUndefined();
  });

  it("/linkgroup links a downline's group (their notices and /pantau digests can go there), as for a connected reseller", async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' } });
    const { sari } = await uplineAndDownline(world);
    const group = world.telegram.createGroup({ title: 'Konter Sari', members: [sari], admins: [sari] });
    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(sari, '/linkgroup', { chat: group }),
      textIncludes: 'menerima notifikasi',
    });
    expect((await world.app.db.groups.byOwner(sari.id)).map((g) => g.chatId)).toEqual([group.id]);
    const screen = await world.telegram.waitForBotMessage(sari, { after: sari.send('/pantau'), textIncludes: 'Konter Sari' });
    expect(screen.buttons.flat()).toContain('👥 Kirim juga ke grup');
  });

  it('/start welcomes a downline as one (their level, their wallet), and /help does not mark the reseller commands "connect first"', async () => {
    world = await startWorld({ env: { DOWNLINES: 'true' } });
    const { sari } = await uplineAndDownline(world);
    const welcome = await world.telegram.waitForBotMessage(sari, { after: sari.send('/start') });
    expect(welcome.text).toContain('di level Bronze');
    expect(welcome.text).not.toMatch(/hubungkan|terhubung|\/connect/i);
    const help = await world.telegram.waitForBotMessage(sari, { after: sari.send('/help') });
    const reseller = (help.text ?? '').split('\n\n').find((section) => section.includes('/pantau')) ?? '';
    expect(reseller).toContain('/harga');
    expect(reseller).not.toContain('(hubungkan dulu)');
  });
});
