import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, eventually, sandboxTransactions, waitForSummary } from '../helpers/buy.ts';
import { anotherDownline, tsel10Cost, uplineAndDownline } from '../helpers/downline-world.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { PurchaseRefusedError } from '../../src/services/purchases.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';

/** TSEL10 costs the upline Rp 10.450 in the sandbox; Bronze adds Rp 500. */
const cost = tsel10Cost;
const levelPrice = 10_950;

describe('a downline buys from their wallet through the upline account (DOWNLINES=true)', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /** Budi (connected, downline mode open, Bronze = cost + Rp 500); Sari his downline with `wallet` in her wallet. */
  const withDownline = async (
    wallet: number,
    settles: 'at once' | 'on a re-check' = 'at once',
  ): Promise<{ budi: EmulatedUser; sari: EmulatedUser }> => {
    world = await startWorld({
      jobs: true,
      env: { DOWNLINES: 'true', RECHECK_FIRST_SECONDS: '1', ADMIN_IDS: '990001' },
      app: { outboxLimits: { perChatMs: 20 } },
      sandbox: { reseller: settles === 'at once' ? { instant: true } : { settleAfterChecks: 1 } },
    });
    return uplineAndDownline(world, { wallet });
  };

  /** Sari types `line`, confirms the summary; resolves the summary and the result message once it shows `result`. */
  const buy = async (sari: EmulatedUser, line: string, result: string | RegExp) => {
    const summary = await waitForSummary(world, sari, sari.send(line));
    sari.tap(summary, '✅ Konfirmasi');
    const shown = await world.telegram.waitForBotMessage(sari, { after: summary, textIncludes: result, timeoutMs: 10_000 });
    return { summary, shown };
  };

  const everythingSari = (sari: EmulatedUser) =>
    world.telegram
      .botMessages(sari)
      .map((m) => `${m.text ?? ''} ${JSON.stringify(m.buttons)}`)
      .join('\n');

  it('the price list and the summary show the level price and the wallet; Sukses debits it once, on the upline account', async () => {
    const { budi, sari } = await withDownline(50_000);
    // Her price list is Budi's at her level: TSEL10 at Rp 10.950, never his Rp 10.450.
    const list = await world.app.services.catalogue.priceList(sari.id);
    expect(list.find((p) => p.code === 'TSEL10')?.price).toBe(levelPrice);
    expect((await world.app.services.catalogue.priceList(budi.id)).find((p) => p.code === 'TSEL10')?.price).toBe(cost);
    const { summary, shown } = await buy(sari, 'TSEL10.081234567890', 'Sukses');
    expect(summary.text).toContain('Rp 10.950');
    expect(summary.text).toContain('Saldo dompet Anda: Rp 50.000');
    expect(shown.text).toContain('Rp 10.950');

    expect(await world.app.db.ledger.balance(sari.id)).toBe(50_000 - levelPrice);
    const kinds = (await world.app.db.ledger.statement(sari.id)).map((e) => [e.kind, e.amount]);
    expect(kinds).toEqual([
      ['final', 0],
      ['hold', -levelPrice],
      ['adjust', 50_000],
    ]);
    // Sent once, on Budi's provider account; the record keeps his cost and margin.
    expect(sandboxTransactions(world, resellerDemoAccounts.main.apiId)).toHaveLength(1);
    const [tx] = await world.app.db.transactions.listByUser(sari.id, { limit: 5 });
    expect(tx).toMatchObject({ price: levelPrice, status: 'Sukses', upline: { id: budi.id, cost, margin: levelPrice - cost } });
    // The operator's audit: the wallet adds up against its ledger and purchases.
    const admin = world.telegram.createUser({ firstName: 'Admin', languageCode: 'id', id: 990_001 });
    const audit = await world.telegram.waitForBotMessage(admin, { after: admin.send('/audit'), textIncludes: 'Audit dompet' });
    expect(audit.text).toContain(
      '1 dompet, 3 catatan, semuanya cocok. Isi dompet Rp 39.050, ditahan untuk pembelian yang belum selesai Rp 0.',
    );
    // Her /saldo is the wallet.
    const saldo = await world.telegram.waitForBotMessage(sari, { after: sari.send('/saldo'), textIncludes: 'Rp 39.050' });
    expect(saldo.text).not.toContain('1.000.000');
    // Nothing Sari was shown names Budi's cost or his provider balance.
    const seen = everythingSari(sari);
    expect(seen).not.toContain('10.450');
    expect(seen).not.toMatch(/989\.550|1\.000\.000/);
    expect(seen).not.toContain(resellerDemoAccounts.main.apiId);
  });

  it('a Pending purchase stays held until the watcher settles it Gagal, then is refunded once; a short wallet buys nothing', async () => {
    const { sari } = await withDownline(15_000, 'on a re-check');
    const pending = await buy(sari, 'TSEL10.081200000000', 'Sedang diproses');
    expect(pending.shown.text).toContain('Rp 10.950');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(15_000 - levelPrice);
    await world.telegram.waitForBotMessage(sari, {
      after: pending.summary,
      textIncludes: 'Transaksi gagal — Telkomsel 10.000 081200000000. Saldo dompet Anda sudah dikembalikan.',
      timeoutMs: 10_000,
    });
    await eventually(async () => (await world.app.db.ledger.balance(sari.id)) === 15_000);
    const entries = await world.app.db.ledger.statement(sari.id);
    expect(entries.map((e) => e.kind)).toEqual(['refund', 'hold', 'adjust']);

    // Two lines cost Rp 21.900: all or none.
    const summary = await waitForSummary(world, sari, sari.send('TSEL10.081234567890\nTSEL10.085712345678'));
    expect(summary.text).toContain('kurang Rp 6.900');
    sari.tap(summary, '✅ Konfirmasi');
    const short = await world.telegram.waitForBotMessage(sari, { after: summary, textIncludes: 'Saldo dompet Anda Rp 15.000' });
    expect(short.text).toContain('kurang Rp 6.900');
    expect(short.buttons).toEqual([['➕ Deposit']]);
    expect(await world.app.db.ledger.balance(sari.id)).toBe(15_000);
    expect(sandboxTransactions(world)).toHaveLength(1);
  });

  it("the upline's low provider balance: the downline is told the product is unavailable and refunded; the upline gets one alert", async () => {
    const { budi, sari } = await withDownline(50_000);
    world.sandbox.reseller.setBalance(resellerDemoAccounts.main.apiId, 1_000);
    const { shown } = await buy(sari, 'TSEL10.081234567890', 'sedang tidak tersedia');
    expect(shown.text).not.toContain('Saldo tidak mencukupi');
    await buy(sari, 'TSEL10.085712345678', 'sedang tidak tersedia');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(50_000);
    await world.telegram.waitForBotMessage(budi, { textIncludes: 'Provider menolak pembelian downline Anda' });
    await world.idle();
    const alerts = world.telegram.botMessages(budi).filter((m) => (m.text ?? '').includes('Provider menolak pembelian downline'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toContain('saldo deposit akun provider Anda tidak cukup');
    expect(everythingSari(sari)).not.toMatch(/Saldo tidak mencukupi|1\.000/);
  });

  it('two confirmations at once on a wallet with room for one: one is held and bought, the other refused; never negative', async () => {
    const { sari } = await withDownline(15_000);
    await world.telegram.waitForBotMessage(sari, { after: sari.send('/harga'), where: (m) => m.buttons.length > 0 });
    const purchases = world.app.services.purchases;
    const line = { code: 'TSEL10', productName: 'Telkomsel 10.000', target: '081234567890', price: levelPrice };
    const results = await Promise.allSettled(
      ['c-1', 'c-2'].map((confirmationId) => purchases.confirm({ confirmationId, userId: sari.id, chatId: sari.id, lines: [line] })),
    );
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(PurchaseRefusedError);
    expect((refused[0] as PurchaseRefusedError).refusal).toEqual({
      reason: 'wallet-short',
      balance: 15_000 - levelPrice,
      shortBy: levelPrice * 2 - 15_000,
    });
    expect(await world.app.db.ledger.balance(sari.id)).toBe(15_000 - levelPrice);
    // A price that is not the level's price any more is refused before anything is held.
    await expect(
      purchases.confirm({ confirmationId: 'c-3', userId: sari.id, chatId: sari.id, lines: [{ ...line, price: cost }] }),
    ).rejects.toMatchObject({ refusal: { reason: 'price-changed' } });
  });

  it("a removed downline's open purchase still settles through the upline's account and is refunded", async () => {
    const { budi, sari } = await withDownline(20_000, 'on a re-check');
    const pending = await buy(sari, 'TSEL10.081200000000', 'Sedang diproses');
    expect(await world.app.services.downlines.changeDownline(budi.id, sari.id, { kind: 'remove' })).toMatchObject({ kind: 'changed' });
    expect((await world.app.db.users.get(sari.id))?.membership).toBeUndefined();
    await world.telegram.waitForBotMessage(sari, {
      after: pending.summary,
      textIncludes: 'Saldo dompet Anda sudah dikembalikan',
      timeoutMs: 10_000,
    });
    await eventually(async () => (await world.app.db.ledger.balance(sari.id)) === 20_000);
    expect(sandboxTransactions(world, resellerDemoAccounts.main.apiId)).toHaveLength(1);
  });

  it('an Unresolved purchase stays held until the upline decides it, once: /selesaikan gagal refunds, sukses spends', async () => {
    const { budi, sari } = await withDownline(30_000, 'on a re-check');
    const refIds: string[] = [];
    for (const target of ['081299999999', '085799999999']) {
      await buy(sari, `TSEL10.${target}`, 'Sedang diproses');
      const [tx] = await world.app.db.transactions.listByUser(sari.id, { limit: 1 });
      refIds.push(tx!.refId);
      await world.app.services.purchases.markUnresolved(tx!.refId);
    }
    const [first = '', second = ''] = refIds;
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Saldonya tetap ditahan sampai jelas; hubungi upline Anda' });
    const held = await world.telegram.waitForBotMessage(budi, { textIncludes: `/selesaikan ${first} gagal` });
    expect(held.text).toContain('Pembelian downline Sari statusnya belum pasti');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(30_000 - 2 * levelPrice);

    const refunded = await world.telegram.waitForBotMessage(budi, {
      after: budi.send(`/selesaikan ${first} gagal`),
      textIncludes: 'dikembalikan',
    });
    expect(refunded.text).toContain(`Saldo Sari sekarang Rp ${(30_000 - levelPrice).toLocaleString('id-ID')}`);
    await world.telegram.waitForBotMessage(sari, { textIncludes: 'Upline Anda mengembalikan Rp 10.950' });
    const again = await world.telegram.waitForBotMessage(budi, {
      after: budi.send(`/selesaikan ${first} sukses`),
      textIncludes: 'sudah selesai',
    });
    expect(again.text).toContain('sudah dikembalikan');
    await world.telegram.waitForBotMessage(budi, { after: budi.send(`/selesaikan ${second} sukses`), textIncludes: 'terpakai' });
    expect(await world.app.db.ledger.balance(sari.id)).toBe(30_000 - levelPrice);
    expect((await world.app.db.ledger.byRef(sari.id, second)).map((e) => e.kind)).toEqual(['hold', 'final']);
    // Only the upline of the purchase decides it; anyone else is told it is not theirs.
    const other = await buyer(world, 'Rudi');
    const notTheirs = await world.telegram.waitForBotMessage(other, { after: other.send(`/selesaikan ${first} gagal`) });
    expect(notTheirs.text).toContain('bukan pembelian downline Anda');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(30_000 - levelPrice);
  });

  it("the upline's daily limit: a purchase past what is left today is refused before anything is held", async () => {
    const { budi, sari } = await withDownline(50_000);
    expect(await world.app.services.downlines.changeDownline(budi.id, sari.id, { kind: 'limit', amount: 15_000 })).toMatchObject({
      kind: 'changed',
    });
    await buy(sari, 'TSEL10.081234567890', 'Sukses');
    const summary = await waitForSummary(world, sari, sari.send('TSEL10.085712345678'));
    sari.tap(summary, '✅ Konfirmasi');
    const refused = await world.telegram.waitForBotMessage(sari, { after: summary, textIncludes: 'melewati batas belanja harian' });
    expect(refused.text).toContain('sisa hari ini Rp 4.050');
    expect(await world.app.db.ledger.balance(sari.id)).toBe(50_000 - levelPrice);
    expect(sandboxTransactions(world)).toHaveLength(1);
  });

  it('two downlines and the upline buy at once against one provider balance with room for two: the refused downline is refunded, nothing negative', async () => {
    const { budi, sari } = await withDownline(20_000);
    const rudi = await anotherDownline(world, budi, 'Rudi');
    await world.app.services.wallets.adjust(budi.id, rudi.id, 20_000, 'modal awal', 'test-rudi');
    // Room at the provider for two purchases at the upline's cost, not three.
    world.sandbox.reseller.setBalance(resellerDemoAccounts.main.apiId, 2 * cost + 100);
    await world.app.services.catalogue.priceList(budi.id, { fresh: true });
    const { purchases } = world.app.services;
    const line = (target: string, price: number) => [{ code: 'TSEL10', productName: 'Telkomsel 10.000', target, price }];
    const bought = await Promise.all(
      [
        { user: budi, price: cost, target: '081211110001' },
        { user: sari, price: levelPrice, target: '081211110002' },
        { user: rudi, price: levelPrice, target: '081211110003' },
      ].map(async ({ user, price, target }) => {
        const [tx] = await purchases.confirm({
          confirmationId: `at-once-${user.id}`,
          userId: user.id,
          chatId: user.id,
          lines: line(target, price),
        });
        return purchases.submit(tx!.refId);
      }),
    );
    expect(bought.map((tx) => tx.status).sort()).toEqual(['Rejected', 'Sukses', 'Sukses']);
    expect(world.sandbox.reseller.balanceOf(resellerDemoAccounts.main.apiId)).toBe(100);
    expect(sandboxTransactions(world).filter((tx) => tx.status === 'Sukses')).toHaveLength(2);
    // Each downline's wallet: debited for a Sukses, whole again for the refusal; the ledger agrees.
    for (const [user, tx] of [
      [sari, bought[1]!],
      [rudi, bought[2]!],
    ] as const) {
      const balance = await world.app.db.ledger.balance(user.id);
      expect(balance).toBe(tx.status === 'Sukses' ? 20_000 - levelPrice : 20_000);
      expect((await world.app.db.ledger.byRef(user.id, tx.refId)).map((e) => e.kind)).toEqual([
        'hold',
        tx.status === 'Sukses' ? 'final' : 'refund',
      ]);
    }
    const audits = await world.app.services.walletAudit.run();
    expect(audits.flatMap((audit) => audit.findings)).toEqual([]);
  });

  it('a suspended downline cannot buy', async () => {
    const { budi, sari } = await withDownline(50_000);
    await world.app.services.downlines.changeDownline(budi.id, sari.id, { kind: 'suspend' });
    const told = await world.telegram.waitForBotMessage(sari, { after: sari.send('TSEL10.081234567890'), textIncludes: 'ditangguhkan' });
    expect(told.buttons).toEqual([]);
    expect(sandboxTransactions(world)).toHaveLength(0);
  });
});
