import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

/*
 * A removed downline's wallet: the money stays with their former upline, in their sight (/saldo,
 * /mutasi) with who to ask for it; the former upline can pay it out (deduct only); the user joins
 * another upline only once it is empty, and the new upline's credits then land in the same wallet.
 */

describe("a removed downline's wallet (DOWNLINES=true)", () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /** `upline` opens downline mode with auto-approve and an invite link; resolves its /start payload. */
  const openInvite = async (upline: EmulatedUser): Promise<string> => {
    await world.telegram.waitForBotMessage(upline, { after: upline.send('/downline'), textIncludes: 'Level' });
    await world.telegram.waitForBotMessage(upline, { after: upline.send('/downline auto nyala'), textIncludes: 'nyala' });
    const made = await world.telegram.waitForBotMessage(upline, {
      after: upline.send('/downline undang'),
      textIncludes: 'Link undangan baru',
    });
    return /\?start=(dl_\d+_[A-Za-z0-9]+)/.exec(made.text ?? '')?.[1] ?? '';
  };
  const say = (user: EmulatedUser, text: string, textIncludes?: string) =>
    world.telegram.waitForBotMessage(user, { after: user.send(text), ...(textIncludes ? { textIncludes } : {}) });

  it('stays in sight with who keeps it, is paid out by the former upline only, and blocks joining another upline until empty', async () => {
    world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, app: { outboxLimits: { perChatMs: 20 } } });
    const budi = await buyer(world);
    const rina = await buyer(world, 'Rina', { account: resellerDemoAccounts.second });
    const budiLink = await openInvite(budi);
    const rinaLink = await openInvite(rina);
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    await say(sari, `/start ${budiLink}`, 'Anda sekarang downline dari Budi');
    await say(budi, `/saldodl ${sari.id} +50000 bonus`, 'ditambah');
    await world.app.services.downlines.changeDownline(budi.id, sari.id, { kind: 'remove' });
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'mengeluarkan Anda' });

    const balance = await say(sari, '/saldo', 'Saldo deposit Anda');
    expect(balance.text).toContain('Rp 50.000');
    expect(balance.text).toContain('disimpan oleh mantan upline Anda, Budi');
    expect(balance.text).toContain('Hubungi Budi untuk mencairkannya');
    expect(balance.buttons).toEqual([['📜 Mutasi']]);
    const statement = await say(sari, '/mutasi', 'Mutasi saldo');
    expect(statement.text).toContain('Koreksi upline +Rp 50.000 · saldo Rp 50.000 · bonus');
    expect(statement.text).toContain('disimpan oleh mantan upline Anda, Budi');
    sari.tap(balance, '📜 Mutasi');
    await world.telegram.waitForBotMessage(sari, { after: statement, textIncludes: 'Mutasi saldo' });
    expect((await say(sari, '/deposit 100000')).text).toContain('Perintah ini untuk downline');

    // Joining Rina is refused while Budi keeps the money; nothing is stored.
    const refused = await say(sari, `/start ${rinaLink}`);
    expect(refused.text).toContain('Saldo deposit Anda Rp 50.000 masih disimpan oleh mantan upline Anda, Budi');
    expect((await world.app.db.users.get(sari.id))?.membership).toBeUndefined();

    // Budi may only pay it out; anyone else is refused as before.
    const credit = await say(budi, `/saldodl ${sari.id} +1000 salah`);
    expect(credit.text).toContain('Sari bukan downline Anda lagi');
    expect(credit.text).toContain(`/saldodl ${sari.id} -50000 dibayar tunai`);
    expect((await say(rina, `/saldodl ${sari.id} -1000 coba`)).text).toContain('bukan downline Anda');
    const paid = await say(budi, `/saldodl ${sari.id} -50000 dibayar tunai`, 'dikurangi');
    expect(paid.text).toContain('Saldo sekarang Rp 0');
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Budi mengurangi saldo Anda Rp 50.000 (dibayar tunai)' });
    expect(await world.app.db.ledger.summary(sari.id)).toMatchObject({ upline: budi.id, balance: 0, openHolds: 0 });

    // Empty: she joins Rina, and Rina's credits land in the same wallet, now kept by Rina.
    await say(sari, `/start ${rinaLink}`, 'Anda sekarang downline dari Rina');
    await say(rina, `/saldodl ${sari.id} +20000 saldo awal`, 'ditambah');
    expect(await world.app.db.ledger.summary(sari.id)).toMatchObject({ upline: rina.id, balance: 20_000 });
    const now = await say(sari, '/saldo', 'Saldo deposit Anda');
    expect(now.text).toContain('Rp 20.000');
    expect(now.text).toContain('Disimpan di upline Anda, Rina');
    // Budi keeps nothing of hers any more: his deduction is refused as not his.
    expect((await say(budi, `/saldodl ${sari.id} -1000 lagi`)).text).toContain('bukan downline Anda');
  });

  it('a join request approved while the joiner’s wallet is kept elsewhere is void, and the joiner told why', async () => {
    world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, app: { outboxLimits: { perChatMs: 20 } } });
    const budi = await buyer(world);
    const rina = await buyer(world, 'Rina', { account: resellerDemoAccounts.second });
    const budiLink = await openInvite(budi);
    const rinaLink = await openInvite(rina);
    await say(rina, '/downline auto mati', 'mati');
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    // She asks Rina first (nothing kept anywhere yet), then joins Budi, who credits her.
    await say(sari, `/start ${rinaLink}`, 'Permintaan bergabung terkirim ke Rina');
    const request = await world.telegram.waitForBotMessage(rina, { textIncludes: 'Sari (ID' });
    await say(sari, `/start ${budiLink}`, 'Anda sekarang downline dari Budi');
    await say(budi, `/saldodl ${sari.id} +30000 bonus`, 'ditambah');
    await world.app.services.downlines.changeDownline(budi.id, sari.id, { kind: 'remove' });

    const tap = rina.tap(request, '✅ Setujui: Bronze');
    expect((await world.telegram.waitForCallbackAnswer(tap)).text).toContain('masih disimpan oleh upline sebelumnya');
    await world.telegram.waitForBotMessage(sari, {
      textIncludes: 'tidak bisa disetujui: saldo deposit Anda masih disimpan oleh mantan upline Anda, Budi',
    });
    expect((await world.app.db.users.get(sari.id))?.membership).toBeUndefined();
  });

  it('a deposit ticket of a downline removed since asking cannot be accepted, and can still be rejected', async () => {
    world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, app: { outboxLimits: { perChatMs: 20 } } });
    const budi = await buyer(world);
    const link = await openInvite(budi);
    await say(budi, '/carabayar BCA 1234567890 a.n. Budi', 'disimpan');
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    await say(sari, `/start ${link}`, 'Anda sekarang downline dari Budi');
    await say(sari, '/deposit 100000', 'Tiket deposit');
    const request = await world.telegram.waitForBotMessage(budi, { textIncludes: 'Tiket deposit dari Sari' });
    await world.app.services.downlines.changeDownline(budi.id, sari.id, { kind: 'remove' });

    const accept = budi.tap(request, '✅ Terima');
    expect((await world.telegram.waitForCallbackAnswer(accept)).text).toContain('bukan downline Anda lagi');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(0);
    const reject = budi.tap(request, '❌ Tolak');
    expect((await world.telegram.waitForCallbackAnswer(reject)).text).toContain('Ditolak');
  });
  it('a former upline’s late credit racing a join: the new upline cannot credit until it is paid out, and is told why', async () => {
    world = await startWorld({ jobs: true, env: { DOWNLINES: 'true' }, app: { outboxLimits: { perChatMs: 20 } } });
    const budi = await buyer(world);
    const rina = await buyer(world, 'Rina', { account: resellerDemoAccounts.second });
    await openInvite(budi);
    const rinaLink = await openInvite(rina);
    await say(rina, '/carabayar DANA 081234567890', 'disimpan');
    const sari = world.telegram.createUser({ firstName: 'Sari', languageCode: 'id' });
    await say(sari, `/start ${rinaLink}`, 'Anda sekarang downline dari Rina');
    await say(sari, '/deposit 100000', 'Tiket deposit');
    const request = await world.telegram.waitForBotMessage(rina, { textIncludes: 'Tiket deposit dari Sari' });
    // As if Budi's credit of a ticket accepted before he removed her landed just after she joined Rina.
    await world.app.db.ledger.append([{ wallet: sari.id, upline: budi.id, kind: 'deposit', amount: 30_000, key: 'deposit:late' }]);

    expect((await say(rina, `/saldodl ${sari.id} +1000 bonus`)).text).toContain('masih disimpan oleh upline sebelumnya');
    const accept = rina.tap(request, '✅ Terima');
    expect((await world.telegram.waitForCallbackAnswer(accept)).text).toContain('masih disimpan oleh upline sebelumnya');
    expect((await world.app.db.users.get(rina.id))?.depositDesk?.requests[0]?.status).toBe('pending');
    // Budi pays it out; then Rina's credits land.
    await say(budi, `/saldodl ${sari.id} -30000 dibayar tunai`, 'dikurangi');
    await say(rina, `/saldodl ${sari.id} +1000 bonus`, 'ditambah');
    expect(await world.app.db.ledger.summary(sari.id)).toMatchObject({ upline: rina.id, balance: 1000 });
  });
});
