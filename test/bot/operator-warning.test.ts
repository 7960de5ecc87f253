import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';

/**
 * A number of another operator than the product's (an XL number with a Telkomsel product) is
 * pointed out in the summary, before the Confirm button, in every way of buying; the user can
 * still confirm.
 */
describe('operator warning in the purchase summary', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
  });
  afterEach(async () => {
    await world.stop();
  });

  it('TSEL10.087712345678: warns that 0877 is XL, and still buys on Confirm', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.087712345678'));
    expect(summary.text).toContain('⚠️ 0877 adalah nomor XL, produk ini Telkomsel');
    // The warning comes before the question and the buttons.
    expect(summary.text?.indexOf('⚠️ 0877')).toBeLessThan(summary.text?.indexOf('Lanjutkan?') ?? 0);
    budi.tap(summary, '✅ Konfirmasi');
    await waitForResult(world, budi, summary, 'Sukses');
    expect(sandboxTransactions(world).map((tx) => [tx.code, tx.target])).toEqual([['TSEL10', '087712345678']]);
  });

  it('/beli CODE TARGET (with +62) and /beli step by step warn too', async () => {
    const budi = await buyer(world);
    const direct = await waitForSummary(world, budi, budi.send('/beli ISAT10 +62 812-3456-7890'));
    expect(direct.text).toContain('⚠️ 0812 adalah nomor Telkomsel, produk ini Indosat');

    await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli'), textIncludes: 'kode produk' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('xld5gb'), textIncludes: 'nomor HP' });
    const guided = await waitForSummary(world, budi, budi.send('089512345678'));
    expect(guided.text).toContain('⚠️ 0895 adalah nomor Tri, produk ini XL');
  });

  it('several lines: only the mismatched line is marked; XL on Axis, PLN, e-wallets and games are not', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(
      world,
      budi,
      budi.send(
        [
          'TSEL10.081234567890',
          'XL10.083812345678',
          'AXIS10.087812345678',
          'PLN20.087712345678',
          'DANA10.087712345678',
          'ML86.087712345678',
          'SMART10.081234567890',
        ].join('\n'),
      ),
    );
    expect(summary.text).toContain('7 transaksi');
    expect(summary.text?.match(/⚠️ 08/g)).toHaveLength(1);
    expect(summary.text).toContain('⚠️ 0812 adalah nomor Telkomsel, produk ini Smartfren');
    // The warning sits right under line 7.
    const lines = summary.text?.split('\n') ?? [];
    const seventh = lines.findIndex((line) => line.startsWith('7. '));
    expect(lines[seventh + 1]).toContain('⚠️ 0812');
  });

  it('speaks English to an English client', async () => {
    const jane = await buyer(world, 'Jane', { languageCode: 'en' });
    const summary = await waitForSummary(world, jane, jane.send('TSEL10.087712345678'));
    expect(summary.text).toContain('⚠️ 0877 is an XL number, this product is Telkomsel');
  });

  it('no warning when the number belongs to the product’s operator', async () => {
    const budi = await buyer(world);
    const summary = await waitForSummary(world, budi, budi.send('TSEL10.085212345678'));
    expect(summary.text).not.toContain('⚠️ 08');
  });
});
