import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld, TestWorldOptions } from '../helpers/app.ts';
import { buyPending, recheck, repliesTo, startSettlementWorld, testClock, waitForSettled } from '../helpers/settlement.ts';
import { buyer, sandboxTransactions, waitForSummary } from '../helpers/buy.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';

describe('settlement watcher and notifications', () => {
  let world: TestWorld;
  const clock = testClock();
  const start = async (options: TestWorldOptions = {}) => {
    world = await startSettlementWorld(clock, options);
    return world;
  };
  afterEach(async () => {
    await world.stop();
  });

  it('a Pending purchase settles to Sukses: the original message becomes the receipt with the SN, one ping, the group told with the target masked', async () => {
    await start();
    const budi = await buyer(world);
    const group = world.telegram.createGroup({ title: 'Konter Budi', members: [budi], admins: [budi] });
    await world.telegram.waitForBotMessage(group, {
      after: world.telegram.sendText(budi, '/linkgroup', { chat: group }),
      textIncludes: 'menerima notifikasi',
    });

    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const [tx] = sandboxTransactions(world);
    expect(tx?.status).toBe('Pending');

    await recheck(world, clock, 3);
    const ping = await waitForSettled(world, budi, pending, 'Transaksi sukses');
    const settled = sandboxTransactions(world)[0];
    expect(settled?.status).toBe('Sukses');
    expect(pending.text).toContain(settled?.sn ?? 'missing sn');
    expect(ping.text).toBe('✅ Telkomsel 10.000 · 0812****7890 · Sukses');

    const groupPost = await world.telegram.waitForBotMessage(group, { textIncludes: 'Transaksi sukses' });
    expect(groupPost.text).toContain('0812****7890');
    expect(groupPost.text).not.toContain('081234567890');
    expect(groupPost.text).not.toMatch(/saldo/i);

    // More passes change nothing: exactly one receipt and one ping.
    await recheck(world, clock, 3);
    await world.app.outbox.drain();
    expect(world.telegram.botMessages(budi).filter((m) => m.text?.includes('Transaksi sukses'))).toEqual([pending]);
    expect(world.telegram.botMessages(budi).filter((m) => m.messageId > pending.messageId)).toEqual([ping]);
    expect(world.telegram.botMessages(group).filter((m) => m.text?.includes('Transaksi sukses'))).toHaveLength(1);
  });

  it('Gagal: the original message says it failed, one ping, and the sandbox refunded the balance', async () => {
    await start();
    const budi = await buyer(world);
    const before = world.sandbox.reseller.balanceOf(resellerDemoAccounts.main.apiId);
    const pending = await buyPending(world, budi, 'TSEL10', '081200000000');
    expect(world.sandbox.reseller.balanceOf(resellerDemoAccounts.main.apiId)).toBeLessThan(before);
    await recheck(world, clock, 3);
    const ping = await waitForSettled(world, budi, pending, 'Transaksi gagal');
    expect(pending.text).toContain('TSEL10');
    expect(ping.text).toBe('❌ Telkomsel 10.000 · 0812****0000 · Gagal');
    expect(world.sandbox.reseller.balanceOf(resellerDemoAccounts.main.apiId)).toBe(before);
    await recheck(world, clock, 2);
    await world.app.outbox.drain();
    expect(world.telegram.botMessages(budi).filter((m) => m.text?.includes('Transaksi gagal'))).toEqual([pending]);
    expect(repliesTo(world, budi, pending)).toEqual([ping]);
  });

  it('past the horizon a Pending transaction becomes unresolved, the user is told once, and it is never checked again', async () => {
    await start({ env: { PENDING_HORIZON_HOURS: '1' } });
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081299999999');
    const refId = sandboxTransactions(world)[0]?.refId ?? '';
    clock.advance(2 * 3600_000);
    await world.app.watcher.runOnce();
    const ping = await waitForSettled(world, budi, pending, 'Status belum pasti');
    expect(pending.text).toContain(refId);
    expect(ping.text).toContain('Tidak terselesaikan');
    const checks = world.sandbox.received.filter((r) => (r.body as { ref_id?: string } | undefined)?.ref_id === refId).length;
    await recheck(world, clock, 3);
    expect(world.sandbox.received.filter((r) => (r.body as { ref_id?: string } | undefined)?.ref_id === refId)).toHaveLength(checks);
    expect((await world.app.db.transactions.find(refId))?.status).toBe('Unresolved');
  });

  it('after a restart, 50 Pending transactions of 5 users all settle and each is announced once', async () => {
    await start();
    const users = await Promise.all(['Ani', 'Budi', 'Cici', 'Dodi', 'Euis'].map((name) => buyer(world, name)));
    for (const [u, user] of users.entries()) {
      const lines = Array.from({ length: 10 }, (_, i) => ({
        code: 'TSEL5',
        productName: 'Telkomsel 5.000',
        target: `0812000${u}${String(i).padStart(4, '1')}`,
        price: 5450,
      }));
      const txs = await world.app.services.purchases.confirm({ confirmationId: `bulk-${u}`, userId: user.id, chatId: user.chatId, lines });
      for (const tx of txs) await world.app.services.purchases.submit(tx.refId);
    }
    expect(await world.app.db.transactions.listOpen()).toHaveLength(50);
    await world.restart();
    // The watcher runs at most 8 provider calls at once (2 per account), so it takes a few passes.
    for (let pass = 0; pass < 40 && (await world.app.db.transactions.listOpen()).length > 0; pass += 1) await recheck(world, clock);
    await world.app.outbox.drain();
    for (const user of users) {
      await world.telegram.waitFor(
        () => world.telegram.botMessages(user).filter((m) => m.text?.includes('Transaksi sukses')).length === 10,
      );
    }
    expect(await world.app.db.transactions.listOpen()).toHaveLength(0);
    await recheck(world, clock, 2);
    await world.app.outbox.drain();
    for (const user of users) expect(world.telegram.botMessages(user).filter((m) => m.text?.includes('Transaksi sukses'))).toHaveLength(10);
  });

  it('a 401 on a re-check pauses that account and tells the user once', async () => {
    await start();
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const refused = world.sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times: Infinity,
      fault: { kind: 'status', status: 401, body: { success: false, message: 'Signature tidak valid' } },
    });
    await recheck(world, clock, 3);
    const notice = await world.telegram.waitForBotMessage(budi, { after: pending, textIncludes: 'kredensial' });
    expect(notice.text).toContain('/connect');
    const received = world.sandbox.received.length;
    await recheck(world, clock, 3);
    expect(world.sandbox.received.length).toBe(received);
    await world.app.outbox.drain();
    const told = () => world.telegram.botMessages(budi).filter((m) => m.text?.includes('kredensial'));
    expect(told()).toHaveLength(1);

    // The pause outlives a restart: no re-check, no second notice.
    await world.restart();
    await recheck(world, clock, 3);
    await world.app.outbox.drain();
    expect(world.sandbox.received.length).toBe(received);
    expect(told()).toHaveLength(1);

    // Connecting again resumes the checks, and the purchase settles with one notice.
    refused();
    clock.advance(60_000);
    await world.app.services.credentials.verifyAndSave(budi.id, 'reseller', {
      apiId: resellerDemoAccounts.main.apiId,
      apiKey: resellerDemoAccounts.main.apiKey,
    });
    await recheck(world, clock, 3);
    await waitForSettled(world, budi, pending, 'Transaksi sukses');
    expect((await world.app.db.users.get(budi.id))?.recheckPause).toBeUndefined();
  });

  it('the low-balance alert fires once per crossing', async () => {
    await start({ sandbox: { reseller: { instant: true } } });
    const budi = await buyer(world);
    const alertSet = await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert 995000') });
    expect(alertSet.text).toContain('Rp 995.000');
    const first = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    budi.tap(first, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(budi, { after: first, textIncludes: 'Saldo deposit Anda tinggal' });
    const second = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567891'));
    budi.tap(second, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(budi, { after: second, textIncludes: 'Sukses' });
    await world.app.services.alerts.check(budi.id);
    await world.app.outbox.drain();
    expect(world.telegram.botMessages(budi).filter((m) => m.text?.includes('Saldo deposit Anda tinggal'))).toHaveLength(1);
    // Topped up above the threshold, then down again: a second crossing, a second alert.
    world.sandbox.reseller.setBalance(resellerDemoAccounts.main.apiId, 2_000_000);
    await world.app.services.alerts.check(budi.id);
    world.sandbox.reseller.setBalance(resellerDemoAccounts.main.apiId, 10_000);
    await world.app.services.alerts.check(budi.id);
    await world.app.outbox.drain();
    expect(world.telegram.botMessages(budi).filter((m) => m.text?.includes('Saldo deposit Anda tinggal'))).toHaveLength(2);
  });
});
