import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser } from '../helpers/seed-transactions.ts';
import { codesShown } from '../helpers/prices.ts';

describe('price search: categories, brand aliases and amounts, as a reseller types them', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(async () => {
    await world.stop();
  });

  it('finds "pulsa xl", "data telkomsel" and "token pln 50" typed as plain messages', async () => {
    const budi = await seedConnectedUser(world, 'Budi', { languageCode: 'id' });
    const pulsa = await world.telegram.waitForBotMessage(budi, { after: budi.send('pulsa xl') });
    expect(pulsa.text).toContain('Hasil pencarian "pulsa xl" — 7 produk');
    expect(codesShown(pulsa)).toEqual(['XL5', 'XL10', 'XL15', 'XL25', 'XL50', 'XL100', 'XL200']);

    const data = await world.telegram.waitForBotMessage(budi, { after: budi.send('data telkomsel') });
    expect(codesShown(data)).toEqual(['TSELD1GB', 'TSELD3GB', 'TSELD5GB', 'TSELD10GB', 'TSELD25GB']);

    const token = await world.telegram.waitForBotMessage(budi, { after: budi.send('token pln 50') });
    expect(codesShown(token)).toEqual(['PLN50']);

    const amount = await world.telegram.waitForBotMessage(budi, { after: budi.send('tsel 10rb') });
    expect(codesShown(amount)).toEqual(['TSEL10']);
  });

  it('the same words work after /harga and as the answer to 🔍', async () => {
    const budi = await seedConnectedUser(world, 'Budi', { languageCode: 'id' });
    const command = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga ml 86') });
    expect(codesShown(command)).toEqual(['ML86']);

    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga') });
    budi.tap(list, '🔍 Cari');
    await world.telegram.waitForBotMessage(budi, { after: list, textIncludes: 'Ketik nama produk' });
    const answer = await world.telegram.waitForBotMessage(budi, { after: budi.send('data isat 10gb') });
    expect(codesShown(answer)).toEqual(['ISATD10GB']);
  });

  it('puts what is available first: an unavailable product comes last', async () => {
    world.sandbox.reseller.setProductStatus('TSEL5', 'gangguan');
    const budi = await seedConnectedUser(world, 'Budi', { languageCode: 'id' });
    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga pulsa tsel') });
    expect(list.text).toContain('10 produk, halaman 1/1');
    expect(codesShown(list)).toEqual([
      'TSEL10',
      'TSEL15',
      'TSEL20',
      'TSEL25',
      'TSEL50',
      'TSEL75',
      'TSEL100',
      'TSEL200',
      'TSEL5',
      'TSEL150',
    ]);
  });

  it('no match: says how the words were read and suggests searches that work', async () => {
    const budi = await seedConnectedUser(world, 'Budi', { languageCode: 'id' });
    const none = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga pulsa xl 30') });
    expect(none.text).toContain('Tidak ada produk yang cocok dengan "pulsa xl 30"');
    expect(none.text).toContain('Dicari: pulsa · XL · 30 (Rp 30.000)');
    expect(none.text).toContain('Coba: pulsa xl 25 · pulsa xl 50');
    expect(none.text).toContain('10rb');

    const jane = await seedConnectedUser(world, 'Jane', { languageCode: 'en' });
    const english = await world.telegram.waitForBotMessage(jane, { after: jane.send('/prices credit xl 30') });
    expect(english.text).toContain('No product matches "credit xl 30"');
    expect(english.text).toContain('Searched for: credit · XL · 30 (Rp 30.000)');
    expect(english.text).toContain('Try: pulsa xl 25 · pulsa xl 50');
  });

  it('chatter (a greeting that is also an alias, a word inside a product name) still gets the ordinary answer', async () => {
    const budi = await seedConnectedUser(world, 'Budi', { languageCode: 'id' });
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('halo') });
    expect(reply.text).toContain('/help');
    // "ok" is inside "Token", but a plain message needs whole words to count as a search.
    const ok = await world.telegram.waitForBotMessage(budi, { after: budi.send('ok') });
    expect(ok.text).toContain('/help');
    // The start of a code is enough.
    const code = await world.telegram.waitForBotMessage(budi, { after: budi.send('tseld') });
    expect(codesShown(code)).toEqual(['TSELD1GB', 'TSELD3GB', 'TSELD5GB', 'TSELD10GB', 'TSELD25GB']);
  });
});
