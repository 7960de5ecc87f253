import { afterEach, describe, expect, it } from 'vitest';
import { PurchaseService, repeatWindowMs, type PurchaseLine } from '../../src/services/purchases.ts';
import type { CredentialService } from '../../src/services/credentials.ts';
import { createLogger } from '../../src/logger.ts';
import { createClock, createTempDirs, openTestStore } from '../store/helpers.ts';

/*
 * "The same purchase less than a minute ago?" without Telegram: a real store in a temporary
 * directory, purchases recorded through the service itself, and a clock only the test moves.
 */

const budi = 1;
const sari = 2;
const start = '2025-01-31T06:00:00.000Z';

const clock = createClock(start);
const dirs = createTempDirs();
afterEach(() => {
  clock.set(start);
  dirs.cleanup();
});

async function setup() {
  const { store, db } = await openTestStore(dirs.make(), { now: clock.now });
  const purchases = new PurchaseService({
    db,
    // Nothing is sent in these tests: no provider client is needed.
    credentials: { client: () => undefined } as unknown as CredentialService,
    logger: createLogger({ level: 'error', write: () => undefined }),
    now: clock.now,
  });
  let confirmations = 0;
  /** Records a purchase of `lines` for `userId` now (as the buy flow does after the tap); returns its ref ids. */
  const bought = async (userId: number, ...lines: Array<Pick<PurchaseLine, 'code' | 'target'>>) => {
    const txs = await purchases.confirm({
      confirmationId: `earlier-${++confirmations}`,
      userId,
      chatId: userId,
      lines: lines.map((line) => ({ ...line, productName: `Produk ${line.code}`, price: 10_500 })),
    });
    return txs.map((tx) => tx.refId);
  };
  return { store, purchases, bought };
}

const tsel = { code: 'TSEL10', target: '081234567890' };

describe('recentRepeats', () => {
  it('finds a purchase of the same code and target less than a minute ago, with how long ago', async () => {
    const { purchases, bought } = await setup();
    await bought(budi, tsel);
    clock.advance(30_000);
    expect(await purchases.recentRepeats(budi, [tsel], 'new')).toEqual([{ index: 0, seconds: 30 }]);
  });

  it('compares codes regardless of case, targets exactly', async () => {
    const { purchases, bought } = await setup();
    await bought(budi, tsel);
    clock.advance(5_000);
    expect(await purchases.recentRepeats(budi, [{ code: 'tsel10', target: tsel.target }], 'new')).toEqual([{ index: 0, seconds: 5 }]);
    expect(await purchases.recentRepeats(budi, [{ code: 'TSEL10', target: '081234567891' }], 'new')).toEqual([]);
    expect(await purchases.recentRepeats(budi, [{ code: 'TSEL20', target: tsel.target }], 'new')).toEqual([]);
  });

  it('says at least one second, and nothing once the minute is over', async () => {
    const { purchases, bought } = await setup();
    await bought(budi, tsel);
    clock.advance(200);
    expect(await purchases.recentRepeats(budi, [tsel], 'new')).toEqual([{ index: 0, seconds: 1 }]);
    clock.set(start);
    clock.advance(repeatWindowMs - 1);
    expect(await purchases.recentRepeats(budi, [tsel], 'new')).toEqual([{ index: 0, seconds: 60 }]);
    clock.advance(1);
    expect(await purchases.recentRepeats(budi, [tsel], 'new')).toEqual([]);
  });

  it("does not count purchases that failed or were refused, nor other users' purchases", async () => {
    const { store, purchases, bought } = await setup();
    const [failed] = await bought(budi, tsel);
    const [refused] = await bought(budi, { code: 'XL5', target: '087712345678' });
    await bought(sari, { code: 'ISAT5', target: '085612345678' });
    await store.transactions.settle(failed ?? 'missing', { status: 'Gagal', settledAt: clock.now().toISOString() });
    await store.transactions.settle(refused ?? 'missing', { status: 'Rejected', settledAt: clock.now().toISOString() });
    clock.advance(10_000);
    const lines = [tsel, { code: 'XL5', target: '087712345678' }, { code: 'ISAT5', target: '085612345678' }];
    expect(await purchases.recentRepeats(budi, lines, 'new')).toEqual([]);
  });

  it('counts a settled Sukses purchase and an open one', async () => {
    const { store, purchases, bought } = await setup();
    const [done] = await bought(budi, tsel);
    await store.transactions.settle(done ?? 'missing', { status: 'Sukses', settledAt: clock.now().toISOString() });
    clock.advance(20_000);
    await bought(budi, { code: 'XL5', target: '087712345678' });
    clock.advance(10_000);
    expect(await purchases.recentRepeats(budi, [{ code: 'XL5', target: '087712345678' }, tsel], 'new')).toEqual([
      { index: 0, seconds: 10 },
      { index: 1, seconds: 30 },
    ]);
  });

  it('does not count the purchase of the same confirmation (a replay after it was recorded)', async () => {
    const { purchases } = await setup();
    await purchases.confirm({
      confirmationId: 'this-one',
      userId: budi,
      chatId: budi,
      lines: [{ ...tsel, productName: 'Telkomsel 10.000', price: 10_500 }],
    });
    clock.advance(1_000);
    expect(await purchases.recentRepeats(budi, [tsel], 'this-one')).toEqual([]);
    expect(await purchases.recentRepeats(budi, [tsel], 'another')).toEqual([{ index: 0, seconds: 1 }]);
  });

  it('finds a line repeated in the same request (no time: it is the same message)', async () => {
    const { purchases } = await setup();
    const lines = [tsel, { code: 'XL5', target: '087712345678' }, { code: 'tsel10', target: tsel.target }];
    expect(await purchases.recentRepeats(budi, lines, 'new')).toEqual([{ index: 2 }]);
  });
});
