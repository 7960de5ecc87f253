import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { eventually } from '../helpers/buy.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { periodRange } from '../../src/services/export-periods.ts';
import { formatRupiah } from '../../src/text/format.ts';

describe('/laporan: the balance movements the bot saw', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('records each balance read that changed (connect, /saldo) and lists first, last, lowest and the changes', async () => {
    const { apiId } = resellerDemoAccounts.main;
    const budi = await seedConnectedUser(world, 'Budi');
    const start = world.sandbox.reseller.balanceOf(apiId);
    // Same balance again: nothing new is recorded.
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    await seedPurchase(world, budi);
    const afterPurchase = world.sandbox.reseller.balanceOf(apiId);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });
    world.sandbox.reseller.setBalance(apiId, afterPurchase + 1_000_000);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo') });

    // /saldo answers before its balance is stored (recorded in the background).
    await eventually(async () => (await world.app.db.balances.list(budi.id)).length === 3);
    const stored = await world.app.db.balances.list(budi.id);
    expect(stored.map((entry) => entry.balance)).toEqual([start, afterPurchase, afterPurchase + 1_000_000]);
    const account = (await world.app.db.credentials.info(budi.id, 'reseller'))?.label;
    expect(stored.every((entry) => entry.account === account)).toBe(true);

    const today = periodRange('today', new Date()).from;
    const report = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/laporan ${today} ${today}`) });
    expect(report.text).toContain('Pergerakan saldo');
    // Three readings: the first is the starting point, two are changes.
    expect(report.text).toContain('2 perubahan tercatat');
    expect(report.text).toContain(`Awal ${formatRupiah(start)}`);
    expect(report.text).toContain(`Akhir ${formatRupiah(afterPurchase + 1_000_000)}`);
    expect(report.text).toContain(`Terendah ${formatRupiah(afterPurchase)}`);
    expect(report.text).toContain(`${formatRupiah(afterPurchase + 1_000_000)} (+Rp 1.000.000)`);
    expect(report.text).toContain(`${formatRupiah(afterPurchase)} (-${formatRupiah(start - afterPurchase)})`);
  });

  it('lists the movements in English for an English user', async () => {
    const ann = await seedConnectedUser(world, 'Ann', { languageCode: 'en' });
    const failed = await seedPurchase(world, ann);
    await world.app.db.transactions.settle(failed, { status: 'Gagal' });
    const report = await world.telegram.waitForBotMessage(ann, { after: ann.send('/report 2020-01-01 2020-01-01') });
    expect(report.text).toContain('No transactions');
    const yesterday = periodRange('yesterday', new Date()).from;
    const today = periodRange('today', new Date()).from;
    const long = await world.telegram.waitForBotMessage(ann, { after: ann.send(`/report ${yesterday} ${today}`) });
    expect(long.text).toContain('Balance movements');
    // One reading (at connecting): a starting point, no change yet.
    expect(long.text).toContain('no change yet');
  });
});
