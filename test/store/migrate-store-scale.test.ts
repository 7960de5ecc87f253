/**
 * `npm run migrate-store -- --to postgres` at the size the issue names: a data directory with
 * 10,000 users (each with sealed credentials) and 100,000 settled transactions over three months
 * reads the same through the store contract on lowdb and on PostgreSQL after the copy. Its own
 * file, so it runs beside the other store tests (test/sequencer.ts starts it early).
 */
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { sealCredential } from '../../src/store/records/credentials.ts';
import { openHistory } from '../../src/store/history.ts';
import { createLowdbEngine } from '../../src/store/lowdb-engine.ts';
import { importLowdbIntoPg } from '../../src/ops/import-lowdb.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import { historyDirName, openStore } from '../../src/store/store.ts';
import { describeEngines, quietPool } from './contract/harness.ts';
import { createClock, createTempDirs, purchase, testVault } from './helpers.ts';

const start = '2026-03-01T08:00:00.000Z';
const vault = testVault();

describeEngines(
  'migrate-store at scale',
  (suite) => {
    const dirs = createTempDirs();
    afterEach(() => dirs.cleanup());

    it('10,000 users and 100,000 transactions: identical through the contract after the copy', async () => {
      const clock = createClock(start);
      const dataDir = dirs.make();
      const users = 10_000;
      const store = await openStore({ dataDir, vault, now: clock.now });
      try {
        const writes: Array<Promise<unknown>> = [];
        for (let i = 0; i < users; i++) {
          writes.push(store.users.upsert({ id: 1_000_000 + i, firstName: `Reseller ${i}`, locale: 'id' }));
          writes.push(
            store.credentials.saveSealed(
              1_000_000 + i,
              sealCredential(vault, 1_000_000 + i, 'reseller', { apiKey: `k${i}` }, { at: clock.now() }),
            ),
          );
        }
        await Promise.all(writes);
      } finally {
        await store.close();
      }
      // 100,000 settled purchases over three months, appended as the store archives them.
      const history = await openHistory({ dir: path.join(dataDir, historyDirName) });
      const startMs = Date.parse(start);
      for (let month = 0; month < 3; month++) {
        const batch: TransactionRecord[] = [];
        for (let i = month; i < 100_000; i += 3) {
          const createdAt = new Date(startMs - (3 - month) * 30 * 86_400_000 + i * 1000).toISOString();
          const userId = 1_000_000 + (i % users);
          batch.push({
            ...purchase(`T-${String(i).padStart(6, '0')}`, { userId, chatId: userId, target: `0812${i % 5000}` }),
            status: i % 10 === 0 ? 'Gagal' : 'Sukses',
            trxId: `TRX${i}`,
            ...(i % 10 === 0 ? { message: 'Nomor tujuan salah' } : { sn: `SN${i * 7919}` }),
            checks: 2,
            createdAt,
            sentAt: createdAt,
            settledAt: createdAt,
            updatedAt: createdAt,
          });
        }
        await history.append(batch);
      }
      await history.close();

      const pool = quietPool(suite.databaseUrl(), 4);
      try {
        const report = await importLowdbIntoPg({ dataDir, vault, pool, now: clock.now });
        expect(report.tables).toMatchObject({ users: { rows: users }, credentials: { rows: users }, transactions: { rows: 100_000 } });
      } finally {
        await pool.end();
      }
      const lowdb = createLowdbEngine(await openStore({ dataDir, vault, now: clock.now }), clock.now);
      const postgres = await suite.open(clock.now);
      try {
        expect(await postgres.users.list()).toEqual(await lowdb.users.list());
        // Both engines list newest first (ties by ref id): the same records in the same order.
        const epoch = new Date(0);
        expect(await postgres.transactions.listCreatedSince(epoch)).toEqual(await lowdb.transactions.listCreatedSince(epoch));
        for (const id of [1_000_000, 1_004_321, 1_009_999]) {
          expect(await postgres.credentials.sealed(id, 'reseller')).toEqual(await lowdb.credentials.sealed(id, 'reseller'));
          expect(await postgres.transactions.listByUser(id, { limit: 20 })).toEqual(await lowdb.transactions.listByUser(id, { limit: 20 }));
          expect(await postgres.transactions.findByTrxId(id, `trx${id - 1_000_000}`)).toEqual(
            await lowdb.transactions.findByTrxId(id, `TRX${id - 1_000_000}`),
          );
        }
        expect(await postgres.credentials.countByService()).toEqual({ reseller: users, marketplace: 0, gameshop: 0 });
      } finally {
        await lowdb.close();
      }
    }, 120_000);
  },
  ['postgres'],
);
