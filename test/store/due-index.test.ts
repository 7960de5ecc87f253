/**
 * The due-time index behind `transactions.due` and `nextDueAt`: after random creates, updates
 * (moving nextCheckAt), settlements, failed writes and restarts, it answers exactly what a naive
 * filter + sort over every open transaction answers.
 */
import { describe, expect } from 'vitest';
import { openStore, type Store } from '../../src/store/store.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import type { DueOptions } from '../../src/store/transactions.ts';
import { createTestDisk } from '../helpers/disk.ts';
import { createClock, purchase, storeTest, testVault } from './helpers.ts';

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const at = (tx: TransactionRecord) => Date.parse(tx.nextCheckAt ?? tx.createdAt);

/** The answer worked out the slow way: every open transaction, filtered and sorted. */
function reference(open: TransactionRecord[], nowMs: number, options: DueOptions = {}): string[] {
  const due = open.filter((tx) => at(tx) <= nowMs).sort((a, b) => at(a) - at(b) || (a.refId < b.refId ? -1 : 1));
  const accounts = new Map<number, TransactionRecord[]>();
  for (const tx of due) accounts.set(tx.userId, [...(accounts.get(tx.userId) ?? []), tx]);
  const order = [...accounts.entries()].sort(
    ([a, txsA], [b, txsB]) => at(txsA[0] as TransactionRecord) - at(txsB[0] as TransactionRecord) || (String(a) < String(b) ? -1 : 1),
  );
  const out: string[] = [];
  const limit = options.limit ?? Infinity;
  for (const [userId, txs] of order) {
    const room = options.room?.(userId) ?? Infinity;
    out.push(
      ...txs
        .filter((tx) => !options.skip?.(tx.refId))
        .slice(0, room)
        .map((tx) => tx.refId),
    );
  }
  return out.slice(0, limit);
}

const base = Date.parse('2025-01-31T06:00:00Z');
const minute = 60_000;

describe('transactions due-time index', () => {
  storeTest(
    'due() and nextDueAt() match a filter + sort over listOpen() through random changes, failed writes and restarts',
    async ({ stores }) => {
      const dataDir = stores.dir();
      const clock = createClock('2025-01-31T06:00:00Z');
      const disk = createTestDisk();
      const open = () => openStore({ dataDir, vault: testVault(), now: clock.now, writeFile: disk.write });
      let store: Store = await open();
      const rand = random(15);
      const iso = (offsetMinutes: number) => new Date(base + offsetMinutes * minute).toISOString();
      let made = 0;
      let checked = 0;
      try {
        for (let step = 0; step < 300; step++) {
          const openTxs = store.transactions.listOpen();
          const pick = () => openTxs[rand(openTxs.length)]?.refId ?? 'none';
          const op = rand(10);
          if (op < 4 || openTxs.length === 0) {
            const refId = `ref-${String(made++).padStart(4, '0')}`;
            clock.set(iso(rand(60)));
            await store.transactions.create(
              purchase(refId, {
                userId: 1 + rand(4),
                ...(rand(3) > 0 ? { nextCheckAt: iso(rand(60)) } : {}),
                ...(rand(2) ? { status: 'Pending' as const } : {}),
              }),
            );
          } else if (op < 7) {
            await store.transactions.update(pick(), { status: 'Pending', nextCheckAt: rand(5) ? iso(rand(60)) : undefined });
          } else if (op < 8) {
            await store.transactions.settle(pick(), { status: rand(2) ? 'Sukses' : 'Gagal' });
          } else if (op < 9) {
            // A failed write puts back what is on disk: the index must follow.
            disk.failNext(1);
            await expect(store.transactions.update(pick(), { status: 'Pending', nextCheckAt: iso(rand(60)) })).rejects.toThrow(/ENOSPC/);
          } else {
            await store.close();
            store = await open();
          }

          const all = store.transactions.listOpen();
          expect(store.transactions.nextDueAt()).toBe(all.length > 0 ? Math.min(...all.map(at)) : undefined);
          for (let probe = 0; probe < 3; probe++) {
            const nowMs = base + (rand(80) - 10) * minute;
            const rooms = [rand(3), rand(3), rand(3), rand(3)];
            const skipped = new Set(all.filter(() => rand(5) === 0).map((tx) => tx.refId));
            const options: DueOptions[] = [
              {},
              { limit: 1 + rand(8) },
              { limit: 1 + rand(8), room: (userId) => rooms[userId - 1] ?? 0, skip: (refId) => skipped.has(refId) },
            ];
            for (const option of options) {
              const got = store.transactions.due(nowMs, option);
              expect(got.map((tx) => tx.refId)).toEqual(reference(all, nowMs, option));
              checked += got.length;
            }
            // Copies: changing them changes nothing stored.
            const [first] = store.transactions.due(nowMs, { limit: 1 });
            if (first) {
              first.nextCheckAt = iso(999);
              expect(store.transactions.get(first.refId)?.nextCheckAt).not.toBe(first.nextCheckAt);
            }
          }
        }
      } finally {
        await store.close();
      }
      // The run exercised the index (not only empty answers).
      expect(made).toBeGreaterThan(50);
      expect(checked).toBeGreaterThan(500);
    },
  );
});
