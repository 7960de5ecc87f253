import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';
import { seedConnectedUser } from '../helpers/seed-transactions.ts';
import { testClock } from '../helpers/settlement.ts';

describe('buying: the repeat guard and the price list', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('the same code and target after more than a minute buys without the repeat question; within a minute it asks', async () => {
    const clock = testClock();
    world = await startWorld({ app: { now: clock.now }, sandbox: { reseller: { instant: true } } });
    const budi = await buyer(world);

    const first = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    budi.tap(first, '✅ Konfirmasi');
    await waitForResult(world, budi, first, 'Sukses');

    clock.advance(61_000);
    const second = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    budi.tap(second, '✅ Konfirmasi');
    const secondResult = await waitForResult(world, budi, second, 'Sukses');
    expect(sandboxTransactions(world)).toHaveLength(2);
    expect(world.telegram.botMessages(budi).filter((m) => m.text?.includes('baru saja'))).toHaveLength(0);

    // 59 s after the second purchase the guard still applies.
    clock.advance(59_000);
    const third = await waitForSummary(world, budi, budi.send('TSEL10.081234567890'));
    budi.tap(third, '✅ Konfirmasi');
    const question = await world.telegram.waitForBotMessage(budi, { after: third, textIncludes: 'baru saja' });
    expect(question.text).toMatch(/(59|60) detik lalu/);
    expect(question.buttons).toEqual([['✅ Ya, beli lagi', '❌ Batal']]);
    expect(sandboxTransactions(world)).toHaveLength(2);
    expect(secondResult.text).toContain('Sukses');
  });

  it('tapping an available product in /harga asks for the target, then buys that product once confirmed', async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
    const budi = await seedConnectedUser(world, 'Budi');
    const list = await world.telegram.waitForBotMessage(budi, { after: budi.send('/harga telkomsel') });
    const button = list.buttons.flat().find((text) => text.startsWith('TSEL10 '));
    expect(button, `no TSEL10 button under: ${JSON.stringify(list.buttons)}`).toBeDefined();
    budi.tap(list, button!);

    const ask = await world.telegram.waitForBotMessage(budi, { after: list, textIncludes: 'nomor HP tujuan' });
    expect(ask.text).toContain('TSEL10');
    expect(ask.text).toContain('Rp 10.450');
    expect(sandboxTransactions(world)).toHaveLength(0);

    const summary = await waitForSummary(world, budi, budi.send('+62 812-3456-7890'));
    expect(summary.text).toContain('TSEL10');
    expect(summary.text).toContain('081234567890');
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    expect(sandboxTransactions(world).map((tx) => [tx.code, tx.target])).toEqual([['TSEL10', '081234567890']]);
  });

  it('bulk lines: one without a clear provider answer is shown as not certain, with the advice not to buy it again', async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.081234567890\nXL10.081398765432'));
    world.sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times: 1,
      fault: { kind: 'status', status: 502, body: { message: 'Bad Gateway' } },
    });
    budi.tap(summary, '✅ Konfirmasi');
    const result = await waitForResult(world, budi, summary, 'Hasil 2 transaksi');
    expect(result.text?.match(/Sukses/g)).toHaveLength(1);
    expect(result.text).toContain('Jangan beli ulang');
    expect((await world.app.db.transactions.listOpen()).map((tx) => tx.message)).toEqual(['unknown_outcome']);
  });
});
