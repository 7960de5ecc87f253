/**
 * What the reseller is shown is what is charged: the summary is built from the freshest price
 * list the bot has (the price watcher's fetch replaces the catalogue's copy), and a price that
 * changed between the summary and the Confirm tap is shown again and asked again, never bought
 * silently at another cost.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';

let world: TestWorld;
afterEach(async () => {
  await world?.stop();
});

const start = async () => {
  world = await startWorld({ sandbox: { reseller: { instant: true } }, env: { PRICE_WATCH_MINUTES: '0' } });
  return world;
};

describe('the price shown is the price charged', () => {
  it("a summary after the watcher saw a new price shows the watcher's price, not the catalogue's older copy", async () => {
    await start();
    const budi = await buyer(world);
    await world.app.services.priceWatch.update(budi.id, { brands: [], group: false });
    // The catalogue caches the list with the first summary.
    const first = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    expect(first.text).toContain('Rp 10.450');
    budi.tap(first, '❌ Batal');
    await world.telegram.waitForBotMessage(budi, { textIncludes: 'dibatalkan' });

    world.sandbox.reseller.setProduct('TSEL10', { price: 10600 });
    await world.app.services.priceWatch.checkAll();

    const second = await waitForSummary(world, budi, budi.send('TSEL10.081234567812'));
    expect(second.text).toContain('Rp 10.600');
    expect(second.text).not.toContain('Rp 10.450');
  });

  it('a price raised between the summary and the tap is shown again and asked again; the purchase stores the new cost', async () => {
    await start();
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    expect(summary.text).toContain('Rp 10.450');

    world.sandbox.reseller.setProduct('TSEL10', { price: 10600 });
    budi.tap(summary, '✅ Konfirmasi');
    const again = await waitForSummary(world, budi, summary);
    expect(again.text).toContain('Rp 10.600');
    expect(again.text).toMatch(/Harga berubah/);
    expect(again.text).toContain('Rp 10.450 → Rp 10.600');
    // Nothing bought at the old price, and the old summary's buttons are gone.
    expect(sandboxTransactions(world)).toHaveLength(0);
    expect(summary.buttons).toEqual([]);

    budi.tap(again, '✅ Konfirmasi');
    await waitForResult(world, budi, again, 'Sukses');
    expect(sandboxTransactions(world)).toHaveLength(1);
    const [tx] = sandboxTransactions(world);
    const stored = await world.app.db.transactions.find(tx?.refId ?? '');
    expect(stored?.price).toBe(10600);
  });

  it('an unchanged price is bought at the first tap', async () => {
    await start();
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    expect(sandboxTransactions(world)).toHaveLength(1);
  });
});
