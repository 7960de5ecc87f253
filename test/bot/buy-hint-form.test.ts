import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buyer, sandboxTransactions } from '../helpers/buy.ts';
import { startWorld, type TestWorld } from '../helpers/app.ts';

describe('a hint about a wrong purchase follows the form the user typed', () => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await startWorld({ sandbox: { reseller: { instant: true } } });
  });
  afterEach(async () => {
    await world.stop();
  });

  it('space form: the hint shows /beli KODE TUJUAN, not KODE.TUJUAN', async () => {
    const budi = await buyer(world);
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli TSEL10 0812') });
    expect(reply.text).toContain('/beli KODE TUJUAN');
    expect(reply.text).not.toContain('KODE.TUJUAN');
    expect(sandboxTransactions(world)).toHaveLength(0);
  });

  it('space form in English: the hint shows /buy CODE TARGET', async () => {
    const jane = await buyer(world, 'Jane', { languageCode: 'en' });
    const reply = await world.telegram.waitForBotMessage(jane, { after: jane.send('/buy TSEL10 0812') });
    expect(reply.text).toContain('/buy CODE TARGET');
    expect(reply.text).not.toContain('CODE.TARGET');
  });

  it('dotted form: the hint shows KODE.TUJUAN', async () => {
    const budi = await buyer(world);
    const reply = await world.telegram.waitForBotMessage(budi, { after: budi.send('/beli TSEL10.0812') });
    expect(reply.text).toContain('KODE.TUJUAN');
    expect(reply.text).not.toContain('/beli KODE TUJUAN');
  });
});
