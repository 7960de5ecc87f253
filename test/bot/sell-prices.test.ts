import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';
import { periodRange } from '../../src/services/export-periods.ts';

describe('/jual: sell-price rules', () => {
  let world: TestWorld;
  beforeEach(async () => {
    // Purchases settle at creation (Sukses with an SN), so they count in /laporan.
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
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
    expect((await world.app.db.users.get(budi.id))?.sellRules).toMatchObject({ default: { kind: 'percent', percent: 2.5 }, step: 500 });

    budi.tap(saved, '🏷 Per brand');
    await world.telegram.waitForBotMessage(budi, { after: saved, textIncludes: 'per brand' });
    const badBrand = await world.telegram.waitForBotMessage(budi, { after: budi.send('TELKOMSEL banyak') });
    expect(badBrand.text).toContain('TELKOMSEL 1000');
    const brand = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('telkomsel 1000\nXL Rp 500\nTSEL 200'),
      textIncludes: 'disimpan',
    });
    expect(brand.text).toContain('TELKOMSEL: 15 produk, misalnya TSEL5 · Rp 5.');
    expect(brand.text).toContain('TSEL: tidak ada produk brand ini di daftar harga Anda');
    expect(brand.text).toContain('misalnya Telkomsel,');
    expect(brand.text).toContain('TELKOMSEL: +Rp 1.000');
    expect(brand.text).toContain('XL: +Rp 500');

    budi.tap(brand, '📦 Per produk');
    await world.telegram.waitForBotMessage(budi, { after: brand, textIncludes: 'per produk' });
    const product = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('TSEL10 =10000\nNOPE1 500'),
      textIncludes: 'disimpan',
    });
    expect(product.text).toContain('TSEL10 · Rp 10.450 → Rp 10.000 (⚠️ rugi -450)');
    expect(product.text).toContain('NOPE1: tidak ada di daftar harga');
    expect(product.text).toContain('TSEL10: harga jual Rp 10.000');

    // Cancel leaves the rules as they were.
    budi.tap(product, '✏️ Markup default');
    const ask = await world.telegram.waitForBotMessage(budi, { after: product, textIncludes: 'markup default' });
    budi.tap(ask, '❌ Batal');
    await world.telegram.waitForBotMessage(budi, { after: ask, textIncludes: 'Dibatalkan' });
    expect((await world.app.db.users.get(budi.id))?.sellRules?.default).toEqual({ kind: 'percent', percent: 2.5 });

    budi.tap(product, '📦 Per produk');
    await world.telegram.waitForBotMessage(budi, { after: product, textIncludes: 'per produk' });
    const removed = await world.telegram.waitForBotMessage(budi, {
      after: budi.send('tsel10 hapus\nNOPE1 hapus'),
      textIncludes: 'disimpan',
    });
    expect(removed.text).not.toContain('TSEL10');
    expect(Object.keys((await world.app.db.users.get(budi.id))?.sellRules?.products ?? {})).toEqual([]);
  });

  it('stores the sell price in force at the confirmation; a later rule change rewrites no transaction, /riwayat or /laporan', async () => {
    const budi = await buyer(world);
    const set = await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 1000'), textIncludes: 'disimpan' });
    expect(set.text).toContain('Default: +Rp 1.000');
    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga telkomsel') });
    expect(list.text).toContain('TSEL10 Telkomsel 10.000 — Rp 10.450 → Rp 11.450 (+1.000)');

    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    expect(summary.text).toContain('Modal → jual: Rp 10.450 → Rp 11.450 (+1.000)');
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    const refId = sandboxTransactions(world)[0]?.refId ?? '';
    expect(await world.app.db.transactions.find(refId)).toMatchObject({ price: 10_450, sellPrice: 11_450, margin: 1_000 });

    await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 5%'), textIncludes: 'disimpan' });
    const after = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga telkomsel') });
    expect(after.text).toContain('TSEL10 Telkomsel 10.000 — Rp 10.450 → Rp 10.973 (+523)');
    expect(await world.app.db.transactions.find(refId)).toMatchObject({ sellPrice: 11_450, margin: 1_000 });

    const history = await world.telegram.waitForBotMessage(budi, { after: budi.send('/riwayat') });
    expect(history.text).toContain('Rp 10.450 → Rp 11.450 (+1.000)');
    const today = periodRange('today', new Date()).from;
    const report = await world.telegram.waitForBotMessage(budi, { after: budi.send(`/laporan ${today} ${today}`) });
    expect(report.text).toContain('Omzet (harga jual): Rp 11.450');
    expect(report.text).toContain('Omzet (harga modal): Rp 10.450');
    expect(report.text).toContain('Margin: +1.000');
    expect(report.text).toContain('TSEL10 Telkomsel 10.000 · 1× · Rp 10.450 · margin +1.000');
  });

  it('a multi-line summary shows each line cost → sell and the sell total; a loss is flagged', async () => {
    const budi = await buyer(world);
    const screen = await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 500'), textIncludes: 'disimpan' });
    expect(screen.text).toContain('Default: +Rp 500');
    budi.tap(screen, '📦 Per produk');
    await world.telegram.waitForBotMessage(budi, { after: screen, textIncludes: 'per produk' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('XL10 =10000'), textIncludes: 'disimpan' });
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890\nXL10.087712345678'));
    expect(summary.text).toContain('Rp 10.450 → Rp 10.950 (+500)');
    expect(summary.text).toMatch(/→ Rp 10\.000 \(⚠️ rugi -\d/);
    expect(summary.text).toMatch(/Total jual: Rp 20\.950 \(margin [+-][\d.]+\)/);
  });

  it('speaks English as /sellprice, and explains the syntax of a bad one-shot markup', async () => {
    const ann = await buyer(world, 'Ann', { languageCode: 'en' });
    const bad = await world.telegram.waitForBotMessage(ann, { after: ann.send('/sellprice lots') });
    expect(bad.text).toContain('"lots" is not a markup I know');
    expect(bad.text).toContain('/sellprice 5%');
    const set = await world.telegram.waitForBotMessage(ann, { after: ann.send('/sellprice 2.5%'), textIncludes: 'saved' });
    expect(set.text).toContain('Default: +2.5%');
    const cleared = await world.telegram.waitForBotMessage(ann, { after: ann.send('/sellprice remove') });
    expect(cleared.text).toContain('Every sell-price rule removed');
    expect((await world.app.db.users.get(ann.id))?.sellRules).toBeUndefined();
    const list = await world.telegram.waitForBotMessage(ann, { after: ann.send('/prices telkomsel') });
    expect(list.text).toContain('TSEL10 Telkomsel 10.000 — Rp 10.450');
    expect(list.text).not.toContain('→');
  });

  it('does not guess what a bare small number means: /jual 10 and the flow ask for 10% or Rp 10 and change nothing', async () => {
    const budi = await buyer(world);
    const oneShot = await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 10') });
    expect(oneShot.text).toContain('/jual 10%');
    expect(oneShot.text).toContain('/jual Rp 10');
    expect(oneShot.text).not.toContain('disimpan');
    expect((await world.app.db.users.get(budi.id))?.sellRules).toBeUndefined();
    const percent = await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 10%'), textIncludes: 'disimpan' });
    expect(percent.text).toContain('Default: +10%');

    budi.tap(percent, '✏️ Markup default');
    await world.telegram.waitForBotMessage(budi, { after: percent, textIncludes: 'markup default' });
    const asked = await world.telegram.waitForBotMessage(budi, { after: budi.send('15') });
    expect(asked.text).toContain('15%');
    expect(asked.text).toContain('Rp 15');
    // The question stands: the spelled-out answer is taken.
    const step = await world.telegram.waitForBotMessage(budi, { after: budi.send('Rp 15'), textIncludes: 'dibulatkan' });
    expect(step.text).toContain('Markup +Rp 15');

    const ann = await buyer(world, 'Ann', { languageCode: 'en' });
    const english = await world.telegram.waitForBotMessage(ann, { after: ann.send('/sellprice 10') });
    expect(english.text).toContain('/sellprice 10%');
    expect(english.text).toContain('/sellprice Rp 10');
    expect((await world.app.db.users.get(ann.id))?.sellRules).toBeUndefined();
  });

  it('refuses a markup or sell price above the maximum, saying the maximum, in /jual, its flow and override lines', async () => {
    const budi = await buyer(world);
    const oneShot = await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 1000000000000000') });
    expect(oneShot.text).toContain('terlalu besar');
    expect(oneShot.text).toContain('Rp 10.000.000');
    expect(oneShot.text).toContain('1.000%');
    expect((await world.app.db.users.get(budi.id))?.sellRules).toBeUndefined();
    const percent = await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual 5000%') });
    expect(percent.text).toContain('terlalu besar');

    const screen = await world.telegram.waitForBotMessage(budi, { after: budi.send('/jual') });
    budi.tap(screen, '📦 Per produk');
    await world.telegram.waitForBotMessage(budi, { after: screen, textIncludes: 'per produk' });
    const line = await world.telegram.waitForBotMessage(budi, { after: budi.send('TSEL10 1000\nXL10 =Rp 10.000.001') });
    expect(line.text).toContain('XL10 =Rp 10.000.001');
    expect(line.text).toContain('terlalu besar');
    expect(line.text).toContain('Rp 10.000.000');
    // The question stands: the largest allowed price is taken.
    const saved = await world.telegram.waitForBotMessage(budi, { after: budi.send('XL10 =10.000.000'), textIncludes: 'disimpan' });
    expect(saved.text).toContain('XL10: harga jual Rp 10.000.000');
    expect((await world.app.db.users.get(budi.id))?.sellRules?.products).toEqual({ XL10: { kind: 'price', price: 10_000_000 } });

    const ann = await buyer(world, 'Ann', { languageCode: 'en' });
    const english = await world.telegram.waitForBotMessage(ann, { after: ann.send('/sellprice 1000000000000000') });
    expect(english.text).toContain('too large');
    expect(english.text).toContain('Rp 10.000.000');
    expect(english.text).toContain('1,000%');
  });
});
