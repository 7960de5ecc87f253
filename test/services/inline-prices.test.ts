import { describe, expect, it } from 'vitest';
import { InlinePriceService } from '../../src/services/inline-prices.ts';
import type { SellPriceOf } from '../../src/services/pricing.ts';
import type { CatalogueService } from '../../src/services/catalogue.ts';
import type { Db } from '../../src/store/db.ts';
import type { PricedCard } from '../../src/services/pricing.ts';
import { resellerDemoProducts } from '../../tools/sandbox/reseller.ts';
import type { TradingAccount } from '../../src/services/trading.ts';
import { emptySellRules } from '../../src/services/pricing.ts';

const wire = resellerDemoProducts.map((p) => ({ product_name: p.name, code: p.code, price: p.price, status: p.status }));

/** A store with one connected reseller (id 1) who bought nothing, and a catalogue answering the sandbox's list. */
function service(sellPriceOf?: SellPriceOf, fetches: number[] = []) {
  const db = {
    transactions: { listByUser: () => Promise.resolve([]) },
    users: { get: () => Promise.resolve(undefined) },
  } as unknown as Db;
  const catalogue = {
    priceList: (userId: number) => {
      fetches.push(userId);
      return Promise.resolve(wire);
    },
  } as unknown as CatalogueService;
  const sellPrices = sellPriceOf && ((userId: number) => Promise.resolve((product: PricedCard) => sellPriceOf(userId, product)));
  // 1: a connected reseller; 2: a downline whose upline's account is not connected; others: neither.
  const accounts = new Map<number, TradingAccount>([
    [1, { kind: 'own', accountId: 1 }],
    [2, { kind: 'downline', accountId: 1, level: { id: 'b', name: 'B', rules: emptySellRules() }, active: true, connected: false }],
  ]);
  const trading = { of: (id: number) => Promise.resolve(accounts.get(id)) };
  return new InlinePriceService({ db, catalogue, trading, sellPrices, pageSize: 5 });
}

describe('inline prices', () => {
  it('prices every card with the injected sell price, given the product code, brand and cost', async () => {
    const asked: Array<{ code: string; brand: string; price: number }> = [];
    const found = await service((_userId, product) => {
      asked.push(product);
      return product.price * 2;
    }).search(1, 'ml 86', '');
    expect(found.kind).toBe('page');
    if (found.kind !== 'page') return;
    expect(found.cards[0]).toMatchObject({ code: 'ML86', name: 'Mobile Legends 86 Diamonds', available: true });
    expect(found.cards[0]?.sellPrice).toBe(2 * (wire.find((p) => p.code === 'ML86')?.price ?? 0));
    expect(asked[0]).toEqual({
      code: 'ML86',
      name: 'Mobile Legends 86 Diamonds',
      brand: 'Mobile Legends',
      price: wire.find((p) => p.code === 'ML86')?.price,
    });
    expect(Object.keys(found.cards[0] ?? {})).not.toContain('price');
  });

  it('sells at cost without a pricing function', async () => {
    const found = await service().search(1, 'tsel 10', '');
    expect(found.kind === 'page' && found.cards[0]?.sellPrice).toBe(10450);
  });

  it('pages by offset and ends without a next offset; a garbage offset is the first page', async () => {
    const s = service();
    const first = await s.search(1, 'tsel', '');
    const last = await s.search(1, 'tsel', '10');
    const garbage = await s.search(1, 'tsel', 'x');
    expect(first.kind === 'page' && first.nextOffset).toBe('5');
    expect(last.kind === 'page' && [last.cards.length, last.nextOffset]).toEqual([5, undefined]);
    expect(garbage).toEqual(first);
  });

  it('refuses a user without a reseller account without reading any price list', async () => {
    const fetches: number[] = [];
    expect(await service(undefined, fetches).search(3, 'tsel', '')).toEqual({ kind: 'not-connected' });
    expect(fetches).toEqual([]);
  });

  it("answers a downline whose upline's account cannot sell now as unavailable (not 'connect first'), reading nothing", async () => {
    const fetches: number[] = [];
    expect(await service(undefined, fetches).search(2, 'tsel', '')).toEqual({ kind: 'unavailable' });
    expect(fetches).toEqual([]);
  });
});
