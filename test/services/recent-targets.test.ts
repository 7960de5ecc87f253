import { describe, expect } from 'vitest';
import { RecentTargetsService } from '../../src/services/recent-targets.ts';
import type { NewTransaction } from '../../src/store/records/transactions.ts';
import { createClock, storeTest } from '../store/helpers.ts';

const purchase = (n: number, code: string, productName: string, target: string, userId = 42): NewTransaction => ({
  refId: `ref-${n}`,
  userId,
  chatId: userId,
  code,
  productName,
  target,
  price: 10_250,
});

describe('recent targets of a brand', () => {
  storeTest('the last five distinct targets of the brand, newest first, settled ones included, only the user’s own', async ({ stores }) => {
    const clock = createClock('2025-01-31T06:00:00Z');
    const { store, db } = await stores.open(stores.dir(), { now: clock.now });
    const bought: Array<[string, string, string]> = [
      ['TSEL10', 'Telkomsel 10.000', '081200000001'],
      ['TSELD1GB', 'Telkomsel Data 1GB 7 Hari', '081200000002'],
      ['XL10', 'XL 10.000', '081700000001'],
      ['TSEL5', 'Telkomsel 5.000', '081200000003'],
      ['TSEL5', 'Telkomsel 5.000', '081200000004'],
      ['TSEL5', 'Telkomsel 5.000', '081200000005'],
      ['TSEL5', 'Telkomsel 5.000', '081200000006'],
      ['TSEL20', 'Telkomsel 20.000', '081200000003'],
    ];
    for (const [i, [code, name, target]] of bought.entries()) {
      await store.transactions.create(purchase(i, code, name, target));
      clock.advance(60_000);
    }
    await store.transactions.create(purchase(99, 'TSEL10', 'Telkomsel 10.000', '089999999999', 7));
    await store.transactions.settle('ref-0', { status: 'Sukses' });
    const service = new RecentTargetsService({ db });
    expect(await service.forBrand(42, 'Telkomsel')).toEqual([
      '081200000003',
      '081200000006',
      '081200000005',
      '081200000004',
      '081200000002',
    ]);
    expect(await service.forBrand(42, 'Telkomsel', 10)).toContain('081200000001');
    expect(await service.forBrand(42, 'xl')).toEqual(['081700000001']);
    expect(await service.forBrand(42, 'Indosat')).toEqual([]);
  });
});
