import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buttonStarting, buyer, eventually, sandboxTransactions, tapThrough, waitForResult, waitForSummary } from '../helpers/buy.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';

/**
 * /beli without arguments: category → brand → product → target by taps, then the usual summary.
 * Purchases settle at creation (Sukses, or Pending for a target ending in 9999); a loose flood
 * limit because a purchase by taps is more updates in a row than the default allows in a test.
 */
const options = { sandbox: { reseller: { instant: true } }, app: { floodLimit: { updates: 100, windowMs: 3000 } } };

describe('buy by taps (/beli without arguments)', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  /** /beli, then the category message. */
  const openPicker = (user: EmulatedUser) =>
    world.telegram.waitForBotMessage(user, { after: user.send('/beli'), textIncludes: 'kategori' });

  /** From the category message down to the target question of a Telkomsel pulsa product. */
  const pickTelkomsel = async (user: EmulatedUser, picker: EmulatedMessage, product: string) => {
    await tapThrough(world, user, picker, '📱 Pulsa', 'Telkomsel');
    await tapThrough(world, user, picker, 'Telkomsel', 'Rp 10.450');
    await tapThrough(world, user, picker, product, 'nomor HP');
  };

  it('buys by taps alone: categories, brands, products, a typed target, then a target from history', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    const picker = await openPicker(budi);
    expect(picker.buttons.flat()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^📱 Pulsa/),
        expect.stringMatching(/^🌐 Paket Data/),
        expect.stringMatching(/^⚡ PLN/),
        expect.stringMatching(/^💳 E-Money/),
        expect.stringMatching(/^🎮 Game/),
        '❌ Batal',
      ]),
    );
    await tapThrough(world, budi, picker, '📱 Pulsa', 'Telkomsel');
    expect(picker.buttons.flat()).toEqual(expect.arrayContaining([expect.stringMatching(/^Telkomsel/), expect.stringMatching(/^Indosat/)]));
    expect(picker.buttons.flat()).not.toContainEqual(expect.stringMatching(/^PLN|^Mobile Legends/));
    await tapThrough(world, budi, picker, 'Telkomsel', 'Rp 10.450');
    expect(picker.buttons.flat()).toContain('Telkomsel 10.000 · Rp 10.450');
    expect(picker.buttons.flat()).toContain('⛔ Telkomsel 150.000 · gangguan');
    await tapThrough(world, budi, picker, 'Telkomsel 10.000', 'nomor HP');
    // No purchase yet: no earlier targets to offer.
    expect(picker.buttons).toEqual([['⬅️ Kembali', '❌ Batal']]);

    const summary = await waitForSummary(world, budi, budi.send('0812 3456 7890'));
    expect(summary.text).toContain('Telkomsel 10.000 (TSEL10)');
    expect(summary.text).toContain('081234567890');
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');

    // Again, to another Telkomsel product: the number bought before is offered as a button.
    const again = await openPicker(budi);
    await pickTelkomsel(budi, again, 'Telkomsel 5.000');
    expect(again.buttons).toEqual([['081234567890'], ['⬅️ Kembali', '❌ Batal']]);
    budi.tap(again, '081234567890');
    const second = await waitForSummary(world, budi, again);
    expect(second.text).toContain('Telkomsel 5.000 (TSEL5)');
    budi.tap(second, '✅ Konfirmasi');
    await waitForResult(world, budi, second, 'Sukses');
    expect(sandboxTransactions(world).map((tx) => [tx.code, tx.target])).toEqual([
      ['TSEL10', '081234567890'],
      ['TSEL5', '081234567890'],
    ]);
  });

  it('/saldo in the middle of the picker is answered, the step comes back below it, and a tap there goes on', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    const picker = await openPicker(budi);
    await tapThrough(world, budi, picker, '📱 Pulsa', 'Telkomsel');
    const balance = await world.telegram.waitForBotMessage(budi, { after: budi.send('/saldo'), textIncludes: 'Rp' });
    const again = await world.telegram.waitForBotMessage(budi, { after: balance, textIncludes: 'pilih brand' });
    expect(again.buttons.flat()).toEqual(expect.arrayContaining([expect.stringMatching(/^Telkomsel/), '⬅️ Kembali']));
    await tapThrough(world, budi, again, 'Telkomsel', 'Rp 10.450');
    await tapThrough(world, budi, again, 'Telkomsel 10.000', 'nomor HP');
    // The first copy of the step no longer offers anything.
    await world.telegram.waitFor(() => picker.buttons.length === 0);
    const summary = await waitForSummary(world, budi, budi.send('081234567890'));
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
  });

  it('offers up to five distinct earlier targets of the brand, newest first, and a Pending result', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    const targets = ['081200000001', '081200000002', '081200000003', '081200000004', '081200000005', '081200000006'];
    // The last one again, with another product (the same code and target within a minute would ask "again?").
    for (const [code, target] of [...targets.map((target) => ['TSEL5', target]), ['TSEL15', '081200000002']]) {
      const summary = await waitForSummary(world, budi, budi.send(`${code}.${target}`));
      budi.tap(summary, '✅ Konfirmasi');
      await waitForResult(world, budi, summary, 'Sukses');
    }
    // Another brand's purchase is not offered for Telkomsel.
    const xl = await waitForSummary(world, budi, budi.send('XL10.081700000001'));
    budi.tap(xl, '✅ Konfirmasi');
    await waitForResult(world, budi, xl, 'Sukses');

    const picker = await openPicker(budi);
    await pickTelkomsel(budi, picker, 'Telkomsel 10.000');
    expect(picker.buttons).toEqual([
      ['081200000002'],
      ['081200000006'],
      ['081200000005'],
      ['081200000004'],
      ['081200000003'],
      ['⬅️ Kembali', '❌ Batal'],
    ]);
    // A typed target works as well; 9999 at the end stays Pending in the sandbox.
    const summary = await waitForSummary(world, budi, budi.send('081234569999'));
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sedang diproses');
  });

  it('⬅️ Kembali goes back one step at a time; ❌ Batal cancels and nothing is bought', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    const picker = await openPicker(budi);
    await pickTelkomsel(budi, picker, 'Telkomsel 10.000');
    await tapThrough(world, budi, picker, '⬅️ Kembali', 'Rp 10.450');
    await tapThrough(world, budi, picker, '⬅️ Kembali', 'brand');
    expect(buttonStarting(picker, 'Indosat')).toBeDefined();
    await tapThrough(world, budi, picker, '⬅️ Kembali', 'kategori');
    expect(buttonStarting(picker, '🎮 Game')).toBeDefined();
    // The first step has no Back, only Cancel.
    expect(picker.buttons.flat()).not.toContain('⬅️ Kembali');
    await tapThrough(world, budi, picker, '🎮 Game', 'Mobile Legends');
    // Thirteen Mobile Legends products: two pages.
    await tapThrough(world, budi, picker, 'Mobile Legends', 'Halaman 1/2');
    expect(picker.buttons.at(-2)).toEqual(['Berikutnya ›']);
    await tapThrough(world, budi, picker, 'Berikutnya', 'Halaman 2/2');
    expect(picker.buttons.at(-2)).toEqual(['‹ Sebelumnya']);
    await tapThrough(world, budi, picker, '⬅️ Kembali', 'Free Fire');
    budi.tap(picker, '❌ Batal');
    await world.telegram.waitForBotMessage(budi, { after: picker, textIncludes: 'Pembelian dibatalkan' });
    expect(picker.buttons).toEqual([]);
    expect(sandboxTransactions(world)).toHaveLength(0);
  });

  it('an unavailable product says so and stays on the list', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    const picker = await openPicker(budi);
    await tapThrough(world, budi, picker, '📱 Pulsa', 'Telkomsel');
    await tapThrough(world, budi, picker, 'Telkomsel', 'Rp 10.450');
    const before = picker.text;
    const tap = budi.tap(picker, '⛔ Telkomsel 150.000 · gangguan');
    const answer = await world.telegram.waitForCallbackAnswer(tap);
    expect(answer.text).toContain('tidak tersedia');
    expect(answer.text).toContain('gangguan');
    expect(picker.text).toBe(before);
    // The list still works.
    await tapThrough(world, budi, picker, 'Telkomsel 20.000', 'nomor HP');
  });

  it('a typed code at the category step goes straight to the target; CODE.TARGET at the brand step to the summary', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    await openPicker(budi);
    const ask = await world.telegram.waitForBotMessage(budi, { after: budi.send('xl10'), textIncludes: 'nomor HP' });
    expect(ask.text).toContain('XL 10.000');
    expect(ask.buttons).toEqual([['⬅️ Kembali', '❌ Batal']]);
    // Back from there: the step where the code was typed.
    await tapThrough(world, budi, ask, '⬅️ Kembali', 'kategori');
    await tapThrough(world, budi, ask, '📱 Pulsa', 'Telkomsel');
    const unknown = await world.telegram.waitForBotMessage(budi, { after: budi.send('NOPE99'), textIncludes: 'tidak ada' });
    expect(unknown.text).toContain('NOPE99');
    const summary = await waitForSummary(world, budi, budi.send('TSEL10 081234567890'));
    expect(summary.text).toContain('Telkomsel 10.000 (TSEL10)');
    expect(ask.buttons).toEqual([]);
  });

  it('an outdated button (an earlier step, or an earlier flow) is answered as no longer valid and changes nothing', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    const first = await openPicker(budi);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/batal') });
    const picker = await openPicker(budi);
    const pulsa = await tapThrough(world, budi, picker, '📱 Pulsa', 'Telkomsel');
    const shown = picker.text;

    // The same tap delivered again (the category step is over).
    const answered = world.telegram.callsTo('answerCallbackQuery').length;
    world.telegram.pushUpdate({ callback_query: pulsa });
    await world.telegram.waitFor(() => world.telegram.callsTo('answerCallbackQuery').length > answered);
    expect(world.telegram.callsTo('answerCallbackQuery').at(-1)?.params.text).toContain('tidak berlaku');
    // A button of the first (cancelled) flow.
    const old = budi.tap(first, buttonStarting(first, '🎮 Game'));
    expect((await world.telegram.waitForCallbackAnswer(old)).text).toContain('tidak berlaku');
    expect(picker.text).toBe(shown);
    // The current step still works.
    await tapThrough(world, budi, picker, 'Telkomsel', 'Rp 10.450');

    // Once the flow is over, its buttons are answered too, and taken away.
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/batal') });
    const late = budi.tap(picker, 'Telkomsel 10.000 · Rp 10.450');
    expect((await world.telegram.waitForCallbackAnswer(late)).text).toContain('tidak berlaku');
    await world.telegram.waitFor(() => picker.buttons.length === 0);
    expect(sandboxTransactions(world)).toHaveLength(0);
  });

  it('/beli CODE asks for the target with the recent ones; ⬅️ Kembali shows the products of its brand', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    const earlier = await waitForSummary(world, budi, budi.send('ISAT10.085700000001'));
    budi.tap(earlier, '✅ Konfirmasi');
    await waitForResult(world, budi, earlier, 'Sukses');
    const ask = await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli ISAT5'), textIncludes: 'nomor HP' });
    expect(ask.buttons).toEqual([['085700000001'], ['⬅️ Kembali', '❌ Batal']]);
    await tapThrough(world, budi, ask, '⬅️ Kembali', 'Indosat 10.000');
    await tapThrough(world, budi, ask, '⬅️ Kembali', 'Telkomsel');
    await tapThrough(world, budi, ask, '⬅️ Kembali', 'kategori');
  });

  it('survives a restart in the middle of the picker', async () => {
    world = await startWorld(options);
    const budi = await buyer(world);
    const picker = await openPicker(budi);
    await tapThrough(world, budi, picker, '📱 Pulsa', 'Telkomsel');
    await world.idle();
    await eventually(async () => (await world.app.db.conversations.read(`${budi.id}:${budi.id}`)) !== undefined);
    await world.restart();
    await tapThrough(world, budi, picker, 'Telkomsel', 'Rp 10.450');
    await tapThrough(world, budi, picker, 'Telkomsel 10.000', 'nomor HP');
    const summary = await waitForSummary(world, budi, budi.send('081234567890'));
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    expect(sandboxTransactions(world)).toHaveLength(1);
  });
});
