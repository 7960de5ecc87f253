import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';

describe('/jual: sell-price rules', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('shows no rules at first; sets the default markup and rounding, a brand and a product override by buttons', async () => {
    const budi = await buyer(world);
    const screen = await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual') });
    expect(screen.text).toContain('Belum ada aturan');
    expect(screen.buttons).toEqual([['✏️ Markup default'], ['🏷 Per brand', '📦 Per produk']]);

    budi.tap(screen, '✏️ Markup default');
    await world.telegram.waitForBotMessage(budi, { after: screen, textIncludes: 'markup default' });
    const bad = await world.telegram.waitForBotMessage(budi, { after: budi.send('lima persen') });
    expect(bad.text).toContain('"lima persen" bukan markup');
    expect(bad.text).toContain('2,5%');
    const askStep = await world.telegram.waitForBotMessage(budi, { after: budi.send('2,5%'), textIncludes: 'dibulatkan' });
    expect(askStep.text).toContain('Markup +2,5%');
    expect(askStep.buttons).toEqual([['Tanpa pembulatan', 'Rp 100', 'Rp 500', 'Rp 1.000'], ['❌ Batal']]);
    budi.tap(askStep, 'Rp 500');
    const saved = await world.telegram.waitForBotMessage(budi, { after: askStep, textIncludes: 'disimpan' });
    expect(saved.text).toContain('Default: +2,5%');
    expect(saved.text).toContain('kelipatan Rp 500');
    expect(world.app.store.users.get(budi.id)?.sellRules).toMatchObject({ default: { kind: 'percent', percent: 2.5 }, step: 500 });

    budi.tap(saved, '🏷 Per brand');
    await world.telegram.waitForBotMessage(budi, { after: saved, textIncludes: 'per brand' });
    const badBrand = await world.telegram.waitForBotMessage(budi, { after: budi.send('TELKOMSEL banyak') });
    expect(badBrand.text).toContain('TELKOMSEL 1000');
    const brand = await world.telegram.waitForBotMessage(budi, { after: budi.send('telkomsel 1000\nXL Rp 500'), textIncludes: 'disimpan' });
    expect(brand.text).toContain('TELKOMSEL: +Rp 1.000');
    expect(brand.text).toContain('XL: +Rp 500');

    budi.tap(brand, '📦 Per produk');
    await world.telegram.waitForBotMessage(budi, { after: brand, textIncludes: 'per produk' });
    const product = await world.telegram.waitForBotMessage(budi, { after: budi.send('TSEL10 =10000\nNOPE1 500'), textIncludes: 'disimpan' });
    expect(product.text).toContain('TSEL10 · Rp 10.450 → Rp 10.000 (⚠️ rugi -450)');
    expect(product.text).toContain('NOPE1: tidak ada di daftar harga');
    expect(product.text).toContain('TSEL10: harga jual Rp 10.000');

    budi.tap(product, '📦 Per produk');
    await world.telegram.waitForBotMessage(budi, { after: product, textIncludes: 'per produk' });
    const removed = await world.telegram.waitForBotMessage(budi, { after: budi.send('tsel10 hapus\nNOPE1 hapus'), textIncludes: 'disimpan' });
    expect(removed.text).not.toContain('TSEL10');
    expect(Object.keys(world.app.store.users.get(budi.id)?.sellRules?.products ?? {})).toEqual([]);
  });
});
