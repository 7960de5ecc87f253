import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { StoreCorruptError, StoreError } from '../../src/store/errors.ts';
import type { HotData } from '../../src/store/schema.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import { hotFileName } from '../../src/store/store.ts';
import { type StoreKit, createClock, damageLine, historyOnDisk, modeOf, purchase, readJson, storeTest } from './helpers.ts';

async function setup(stores: StoreKit, start = '2025-01-31T06:00:00Z') {
  const dataDir = stores.dir();
  const clock = createClock(start);
  const { store, writes } = await stores.open(dataDir, { now: clock.now });
  const reopen = async () => {
    await store.close();
    const again = (await stores.open(dataDir, { now: clock.now })).store;
    return again;
  };
  return { dataDir, clock, store, writes, reopen };
}

const hotOnDisk = (dataDir: string) => readJson(path.join(dataDir, hotFileName)) as HotData;

describe('transactions', () => {
  storeTest('stores a new purchase as Created, on disk before create resolves', async ({ stores }) => {
    const { store, dataDir } = await setup(stores);
    const tx = await store.transactions.create(purchase('ref-1'));
    expect(tx).toMatchObject({ refId: 'ref-1', status: 'Created', checks: 0, createdAt: '2025-01-31T06:00:00.000Z' });
    expect(hotOnDisk(dataDir).transactions['ref-1']).toEqual(tx);
  });

  storeTest('refuses a second transaction with the same refId, open or settled', async ({ stores }) => {
    const { store } = await setup(stores);
    await store.transactions.create(purchase('ref-1'));
    const [a, b] = await Promise.allSettled([store.transactions.create(purchase('ref-2')), store.transactions.create(purchase('ref-2'))]);
    expect(a.status).toBe('fulfilled');
    expect(b.status === 'rejected' && (b.reason as StoreError).code).toBe('duplicate');
    await expect(store.transactions.create(purchase('ref-1'))).rejects.toThrow(/exists already/);
    await store.transactions.settle('ref-1', { status: 'Gagal' });
    await expect(store.transactions.create(purchase('ref-1'))).rejects.toThrow(/exists already/);
  });

  storeTest('creates a batch in one write, or nothing at all', async ({ stores }) => {
    const { store, writes } = await setup(stores);
    const before = writes.length;
    await store.transactions.createMany([purchase('b-1', { batchId: 'c1' }), purchase('b-2', { batchId: 'c1' })]);
    expect(writes.length - before).toBe(1);
    await expect(store.transactions.createMany([purchase('b-3'), purchase('b-1')])).rejects.toThrow(StoreError);
    expect(store.transactions.get('b-3')).toBeUndefined();
  });

  storeTest('refuses invalid records without storing anything', async ({ stores }) => {
    const { store } = await setup(stores);
    await expect(store.transactions.create(purchase('bad', { price: 10.5 }))).rejects.toThrow(/invalid transaction: price/);
    await expect(store.transactions.create(purchase('bad', { status: 'Sukses' }))).rejects.toThrow(StoreError);
    expect(store.transactions.listOpen()).toEqual([]);
  });

  storeTest('updates open transactions, keeps unknown statuses verbatim, and refuses a final status outside settle', async ({ stores }) => {
    const { store, clock } = await setup(stores);
    await store.transactions.create(purchase('ref-1'));
    clock.advance(5000);
    const updated = await store.transactions.update('ref-1', {
      status: 'Diproses',
      providerStatus: 'Diproses',
      checks: 1,
      refId: 'other',
    } as never);
    expect(updated).toMatchObject({ refId: 'ref-1', status: 'Diproses', checks: 1, updatedAt: '2025-01-31T06:00:05.000Z' });
    expect(store.transactions.listOpen().map((tx) => tx.refId)).toEqual(['ref-1']);
    await expect(store.transactions.update('ref-1', { status: 'Sukses' })).rejects.toThrow(/settle/);
    expect(await store.transactions.update('nope', { checks: 2 })).toBeUndefined();
  });

  storeTest('settles: final status and notification in one write, then moves the transaction to history (0600)', async ({ stores }) => {
    const { store, dataDir, clock } = await setup(stores);
    await store.transactions.create(purchase('ref-1', { status: 'Pending' }));
    clock.advance(60_000);
    const settled = await store.transactions.settle(
      'ref-1',
      { status: 'Sukses', sn: 'SN-123' },
      { notify: [{ chatId: 42, kind: 'settled', payload: { refId: 'ref-1' }, dedupeKey: 'settled:ref-1' }] },
    );
    expect(settled).toMatchObject({ status: 'Sukses', sn: 'SN-123', notified: true, settledAt: '2025-01-31T06:01:00.000Z' });
    expect(store.transactions.get('ref-1')).toBeUndefined();
    expect(store.transactions.listOpen()).toEqual([]);
    expect(hotOnDisk(dataDir).transactions).toEqual({});
    expect(Object.values(hotOnDisk(dataDir).outbox)).toMatchObject([{ kind: 'settled', dedupeKey: 'settled:ref-1' }]);
    expect(historyOnDisk(dataDir, '2025-01').transactions['ref-1']).toEqual(settled);
    expect(modeOf(path.join(dataDir, 'history', '2025-01.jsonl'))).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'history'))).toBe(0o700);

    // Settling again changes nothing and queues nothing.
    expect(
      await store.transactions.settle('ref-1', { status: 'Gagal' }, { notify: [{ chatId: 42, kind: 'x', payload: null }] }),
    ).toBeUndefined();
    expect(store.outbox.size()).toBe(1);
    await expect(store.transactions.settle('nope', { status: 'Sukses' })).resolves.toBeUndefined();
  });

  storeTest('refuses to settle with a status that is not final', async ({ stores }) => {
    const { store } = await setup(stores);
    await store.transactions.create(purchase('ref-1'));
    await expect(store.transactions.settle('ref-1', { status: 'Pending' })).rejects.toThrow(/final status/);
    expect(store.transactions.get('ref-1')?.status).toBe('Created');
  });

  storeTest('lists a user’s transactions newest first across the hot file and history months, page by page', async ({ stores }) => {
    const { store, clock, reopen } = await setup(stores, '2024-11-15T00:00:00Z');
    const made: string[] = [];
    for (const [i, month] of ['2024-11', '2024-12', '2025-01'].entries()) {
      clock.set(`${month}-10T00:00:00Z`);
      for (let n = 0; n < 3; n++) {
        clock.advance(1000);
        const refId = `${month}-${n}`;
        await store.transactions.create(purchase(refId));
        made.push(refId);
        if (!(i === 2 && n === 2)) await store.transactions.settle(refId, { status: n === 1 ? 'Gagal' : 'Sukses' });
      }
    }
    await store.transactions.create(purchase('other-user', { userId: 7, chatId: 7 }));
    const newestFirst = [...made].reverse();

    const again = await reopen();
    expect((await again.transactions.listByUser(42, { limit: 4 })).map((tx) => tx.refId)).toEqual(newestFirst.slice(0, 4));
    expect((await again.transactions.listByUser(42, { limit: 4, offset: 4 })).map((tx) => tx.refId)).toEqual(newestFirst.slice(4, 8));
    expect((await again.transactions.listByUser(42, { limit: 20 })).map((tx) => tx.refId)).toEqual(newestFirst);
    expect((await again.transactions.listByUser(7)).map((tx) => tx.refId)).toEqual(['other-user']);
    expect(await again.transactions.listByUser(99)).toEqual([]);
  });

  storeTest('finds a user’s transaction by provider trx id and lists those to one target, across history months', async ({ stores }) => {
    const { store, clock, reopen } = await setup(stores, '2024-12-10T00:00:00Z');
    await store.transactions.create(purchase('dec', { trxId: 'TRX-DEC' }));
    await store.transactions.settle('dec', { status: 'Sukses' });
    clock.set('2025-01-10T00:00:00Z');
    await store.transactions.create(purchase('jan', { trxId: 'TRX-JAN' }));
    await store.transactions.create(purchase('jan-other-target', { target: '085700001111' }));
    await store.transactions.create(purchase('siti', { userId: 7, chatId: 7, trxId: 'TRX-SITI' }));

    const again = await reopen();
    expect((await again.transactions.findByTrxId(42, 'trx-dec'))?.refId).toBe('dec');
    expect((await again.transactions.findByTrxId(42, 'TRX-JAN'))?.refId).toBe('jan');
    expect(await again.transactions.findByTrxId(42, 'TRX-SITI')).toBeUndefined();
    expect(await again.transactions.findByTrxId(42, 'TRX-NONE')).toBeUndefined();
    expect((await again.transactions.listByTarget(42, '081234567890')).map((tx) => tx.refId)).toEqual(['jan', 'dec']);
    expect((await again.transactions.listByTarget(42, '081234567890', { limit: 1 })).map((tx) => tx.refId)).toEqual(['jan']);
    expect((await again.transactions.listByTarget(7, '081234567890')).map((tx) => tx.refId)).toEqual(['siti']);
    expect(await again.transactions.listByTarget(42, '089999999999')).toEqual([]);
  });

  storeTest('reads only the history records a page needs', async ({ stores }) => {
    const { store, dataDir, clock, reopen } = await setup(stores);
    for (const ref of ['old-1', 'old-2']) {
      await store.transactions.create(
        purchase(ref, { createdAt: ref === 'old-1' ? '2020-01-10T00:00:00.000Z' : '2020-01-11T00:00:00.000Z' }),
      );
      await store.transactions.settle(ref, { status: 'Sukses' });
    }
    await store.transactions.create(purchase('recent'));
    await store.transactions.settle('recent', { status: 'Sukses' });
    clock.advance(1000);
    await store.transactions.create(purchase('open'));
    const again = await reopen();
    damageLine(path.join(dataDir, 'history', '2020-01.jsonl'), 'old-1');
    expect((await again.transactions.listByUser(42, { limit: 2 })).map((tx) => tx.refId)).toEqual(['open', 'recent']);
    expect((await again.transactions.listByUser(42, { limit: 1, offset: 2 })).map((tx) => tx.refId)).toEqual(['old-2']);
    // Asking for more reaches the damaged line, which is reported, not skipped.
    await expect(again.transactions.listByUser(42, { limit: 4 })).rejects.toThrow(StoreCorruptError);
  });

  storeTest('finds a transaction only for its owner, open or settled', async ({ stores }) => {
    const { store } = await setup(stores);
    await store.transactions.create(purchase('01JJWDXE00AAAAAAAAAAAAAAAA'));
    await store.transactions.create(purchase('01JJWDXE00BBBBBBBBBBBBBBBB'));
    await store.transactions.settle('01JJWDXE00BBBBBBBBBBBBBBBB', { status: 'Gagal' });
    expect(await store.transactions.findForUser(42, '01JJWDXE00AAAAAAAAAAAAAAAA')).toMatchObject({ status: 'Created' });
    expect(await store.transactions.findForUser(42, '01JJWDXE00BBBBBBBBBBBBBBBB')).toMatchObject({ status: 'Gagal' });
    expect(await store.transactions.findForUser(7, '01JJWDXE00AAAAAAAAAAAAAAAA')).toBeUndefined();
    expect(await store.transactions.findForUser(7, '01JJWDXE00BBBBBBBBBBBBBBBB')).toBeUndefined();
    expect(await store.transactions.findForUser(42, 'no-such-ref')).toBeUndefined();
    expect(await store.transactions.find('01JJWDXE00BBBBBBBBBBBBBBBB')).toMatchObject({ userId: 42 });
  });

  storeTest('hands out copies: changing a returned record changes nothing stored', async ({ stores }) => {
    const { store } = await setup(stores);
    const tx = await store.transactions.create(purchase('ref-1'));
    tx.status = 'Sukses';
    (store.transactions.get('ref-1') as TransactionRecord).price = 1;
    expect(store.transactions.get('ref-1')).toMatchObject({ status: 'Created', price: 10250 });
  });

  storeTest('lists the transactions created since a time, open and settled, reading only the months they can be in', async ({ stores }) => {
    const { store, clock, dataDir, reopen } = await setup(stores, '2025-02-27T10:00:00Z');
    await store.transactions.create(purchase('feb-old', { createdAt: '2025-02-20T10:00:00.000Z' }));
    await store.transactions.create(purchase('feb-in', { createdAt: '2025-02-25T10:00:00.000Z' }));
    await store.transactions.settle('feb-old', { status: 'Sukses' });
    await store.transactions.settle('feb-in', { status: 'Gagal' });
    clock.set('2025-03-02T10:00:00Z');
    await store.transactions.create(purchase('mar-open'));
    await store.transactions.create(purchase('mar-done'));
    await store.transactions.settle('mar-done', { status: 'Sukses' });
    for (const ref of ['jan-1', 'jan-2']) {
      await store.transactions.create(purchase(ref, { createdAt: '2025-01-20T10:00:00.000Z' }));
      await store.transactions.settle(ref, { status: 'Sukses' });
    }
    const again = await reopen();
    // A month the 7 days never reach: were it read, its damaged line would throw.
    damageLine(path.join(dataDir, 'history', '2025-01.jsonl'), 'jan-1');
    const since = await again.transactions.listCreatedSince(new Date('2025-02-23T10:00:00Z'));
    expect(since.map((tx) => [tx.refId, tx.status]).sort()).toEqual([
      ['feb-in', 'Gagal'],
      ['mar-done', 'Sukses'],
      ['mar-open', 'Created'],
    ]);
  });

  storeTest("lists a user's transactions of a time range, oldest first, reading only the range's months", async ({ stores }) => {
    const { store, clock, dataDir, reopen } = await setup(stores, '2025-02-27T10:00:00Z');
    await store.transactions.create(purchase('feb-before', { createdAt: '2025-02-20T09:59:59.999Z' }));
    await store.transactions.create(purchase('feb-first', { createdAt: '2025-02-20T10:00:00.000Z' }));
    await store.transactions.create(purchase('feb-other', { userId: 7, createdAt: '2025-02-21T10:00:00.000Z' }));
    for (const ref of ['feb-before', 'feb-first', 'feb-other']) await store.transactions.settle(ref, { status: 'Sukses' });
    clock.set('2025-03-02T10:00:00Z');
    await store.transactions.create(purchase('mar-open'));
    await store.transactions.create(purchase('mar-end', { createdAt: '2025-03-02T10:00:00.000Z' }));
    await store.transactions.create(purchase('apr-after', { createdAt: '2025-04-02T10:00:00.000Z' }));
    await store.transactions.settle('mar-end', { status: 'Gagal' });
    await store.transactions.settle('apr-after', { status: 'Gagal' });
    await store.transactions.create(purchase('apr-later', { createdAt: '2025-04-03T10:00:00.000Z' }));
    await store.transactions.settle('apr-later', { status: 'Gagal' });
    await store.transactions.create(purchase('jan-1', { createdAt: '2025-01-20T10:00:00.000Z' }));
    await store.transactions.settle('jan-1', { status: 'Gagal' });
    await store.transactions.create(purchase('jan-2', { createdAt: '2025-01-21T10:00:00.000Z' }));
    await store.transactions.settle('jan-2', { status: 'Gagal' });
    const again = await reopen();
    // Records outside the range are never read: were they, their damaged lines would throw.
    damageLine(path.join(dataDir, 'history', '2025-01.jsonl'), 'jan-1');
    damageLine(path.join(dataDir, 'history', '2025-04.jsonl'), 'apr-after');
    const rows = await again.transactions.listByUserBetween(42, new Date('2025-02-20T10:00:00Z'), new Date('2025-03-02T10:00:00.001Z'));
    expect(rows.map((tx) => tx.refId)).toEqual(['feb-first', 'mar-end', 'mar-open']);
    const none = await again.transactions.listByUserBetween(42, new Date('2025-03-02T10:00:00.001Z'), new Date('2025-03-31T00:00:00Z'));
    expect(none).toEqual([]);
  });

  describe('after a crash during settle', () => {
    /** Builds the state a crash leaves: `hot` status in the hot file, the final record in history. */
    async function crashState(stores: StoreKit, hotStatus: 'Sukses' | 'Pending') {
      const { store, dataDir, clock } = await setup(stores);
      await store.transactions.create(purchase('ref-1', { status: 'Pending' }));
      const settled = await store.transactions.settle('ref-1', { status: 'Sukses', sn: 'SN-9' });
      await store.close();
      // Put the transaction back into the hot file as it was before the removal.
      const hot = hotOnDisk(dataDir);
      hot.transactions['ref-1'] = {
        ...settled!,
        status: hotStatus,
        ...(hotStatus === 'Pending' ? { sn: undefined, settledAt: undefined } : {}),
      };
      writeFileSync(path.join(dataDir, hotFileName), JSON.stringify(hot));
      const again = (await stores.open(dataDir, { now: clock.now })).store;
      return { store: again, dataDir };
    }

    storeTest('(history written, final transaction still in the hot file) reopens with exactly one copy', async ({ stores }) => {
      const { store, dataDir } = await crashState(stores, 'Sukses');
      expect(hotOnDisk(dataDir).transactions).toEqual({});
      // The settlement that finished on open appended the record a second time; it is read once.
      expect(historyOnDisk(dataDir, '2025-01').lines).toBe(2);
      expect(Object.keys(historyOnDisk(dataDir, '2025-01').transactions)).toEqual(['ref-1']);
      expect((await store.transactions.listByUser(42)).map((tx) => [tx.refId, tx.status])).toEqual([['ref-1', 'Sukses']]);
      expect(store.transactions.listOpen()).toEqual([]);
    });

    storeTest('(history written, hot copy still open) lists one copy and keeps it open for the watcher', async ({ stores }) => {
      const { store } = await crashState(stores, 'Pending');
      expect((await store.transactions.listByUser(42)).map((tx) => [tx.refId, tx.status])).toEqual([['ref-1', 'Pending']]);
      expect(store.transactions.listOpen().map((tx) => tx.refId)).toEqual(['ref-1']);
      // Settling again replaces the history copy instead of adding one.
      await store.transactions.settle('ref-1', { status: 'Sukses', sn: 'SN-9' });
      expect((await store.transactions.listByUser(42)).map((tx) => [tx.refId, tx.status])).toEqual([['ref-1', 'Sukses']]);
    });

    storeTest('(final status stored, history not yet written) finishes the move on open', async ({ stores }) => {
      const { store, dataDir, clock } = await setup(stores);
      await store.transactions.create(purchase('ref-1', { status: 'Pending' }));
      await store.close();
      const hot = hotOnDisk(dataDir);
      hot.transactions['ref-1'] = { ...hot.transactions['ref-1']!, status: 'Gagal', settledAt: '2025-01-31T06:00:00.000Z' };
      writeFileSync(path.join(dataDir, hotFileName), JSON.stringify(hot));
      expect(readdirSync(path.join(dataDir, 'history')).filter((name) => name.endsWith('.jsonl'))).toEqual([]);
      await stores.open(dataDir, { now: clock.now });
      expect(hotOnDisk(dataDir).transactions).toEqual({});
      expect(historyOnDisk(dataDir, '2025-01').transactions['ref-1']?.status).toBe('Gagal');
    });
  });
});
