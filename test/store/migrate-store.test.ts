/**
 * `npm run migrate-store -- --to postgres` (src/ops/import-lowdb.ts): a lowdb data directory
 * copied into an empty PostgreSQL database reads the same through the store contract on both
 * engines, the directory's files are left byte for byte as they were, and a copy that was cut
 * short or did not verify is never opened.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import type { StoreEngine } from '../../src/store/contract.ts';
import { sealConversation } from '../../src/store/records/conversations.ts';
import { sealCredential } from '../../src/store/records/credentials.ts';
import { sealUpdate } from '../../src/store/records/updates.ts';
import { createLowdbEngine } from '../../src/store/lowdb-engine.ts';
import { openPgEngine } from '../../src/store/pg/engine.ts';
import { createVault } from '../../src/store/vault.ts';
import { importLowdbIntoPg, importedTables, jsonbText, type ImportOptions } from '../../src/ops/import-lowdb.ts';
import { historyDirName, openStore } from '../../src/store/store.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import { describeEngines, quietPool } from './contract/harness.ts';
import { createClock, createTempDirs, gameOrder, purchase, testVault } from './helpers.ts';

const start = '2026-03-01T08:00:00.000Z';
const vault = testVault();

/** sha256 of every data file of `dir` (the history indexes, caches rebuilt at open, left out). */
function fileDigests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub))) {
      const relative = path.join(sub, name);
      if (statSync(path.join(dir, relative)).isDirectory()) {
        if (relative !== path.join(historyDirName, 'index')) walk(relative);
      } else if (!name.endsWith('.lock')) {
        out[relative] = createHash('sha256')
          .update(readFileSync(path.join(dir, relative)))
          .digest('hex');
      }
    }
  };
  walk('');
  return out;
}

/** A data directory with something in every table, made through the store's own API. */
async function fillDataDir(dataDir: string, now: () => Date): Promise<void> {
  const engine = createLowdbEngine(await openStore({ dataDir, vault, now }), now);
  try {
    await engine.users.upsert({ id: 42, firstName: 'Budi', username: 'budi', locale: 'id' });
    await engine.users.upsert({ id: 7, firstName: 'Ani', locale: 'en' });
    await engine.users.update(42, { alertThreshold: 50_000 }, { notify: [{ chatId: 42, kind: 'alert', payload: { balance: 1 } }] });
    await engine.users.setActive(7, false);
    await engine.credentials.saveSealed(42, sealCredential(vault, 42, 'reseller', { apiId: 'R-1', apiKey: 'KEY-SECRET-1' }, { at: now() }));
    await engine.credentials.saveSealed(7, sealCredential(vault, 7, 'gameshop', { apiKey: 'KEY-SECRET-2' }, { at: now() }));
    await engine.conversations.writeSealed('42:42', sealConversation(vault, '42:42', { pin: '123456' }));
    await engine.transactions.createMany([purchase('R-1'), purchase('R-2', { target: '0813' })], { confirmationId: 'c-1' });
    await engine.transactions.update('R-1', { status: 'Pending', nextCheckAt: '2026-03-01T08:05:00.000Z' });
    await engine.transactions.settle(
      'R-2',
      { status: 'Sukses', sn: 'SN-9' },
      { notify: [{ chatId: 42, kind: 'settled', payload: { refId: 'R-2' } }] },
    );
    await engine.groups.link({ chatId: -100, ownerId: 42, title: 'Kios Budi' });
    await engine.gameOrders.save(gameOrder('G-1', start), {
      notify: [{ chatId: 42, kind: 'order-reminder', payload: { orderId: 'G-1' }, notBefore: '2026-03-01T08:50:00.000Z' }],
    });
    const message = (id: number, text: string) => ({
      update_id: id,
      message: {
        message_id: id,
        date: 0,
        chat: { id: 42, type: 'private' as const, first_name: 'Budi' },
        from: { id: 42, is_bot: false, first_name: 'Budi' },
        text,
      },
    });
    await engine.inbox.add([sealUpdate(vault, message(500, '/saldo')), sealUpdate(vault, message(501, '1234'))]);
    await engine.inbox.markDone(500);
    await engine.balances.record(42, 'R-1…', 100_000);
    await engine.balances.record(42, 'R-1…', 90_000);
    await engine.ledger.append([
      { wallet: 7, upline: 42, kind: 'deposit', amount: 50_127, key: 'ticket-1' },
      { wallet: 7, upline: 42, kind: 'adjust', amount: -127, key: 'adjust-1', by: 42, reason: 'kode unik' },
      // Paid out, then kept by another upline: the imported wallet row names the new one.
      { wallet: 7, upline: 42, kind: 'adjust', amount: -50_000, key: 'adjust-2', by: 42, reason: 'dibayar' },
      { wallet: 7, upline: 43, kind: 'deposit', amount: 20_000, key: 'ticket-2' },
    ]);
    const job = await engine.broadcasts.create({
      id: 'B-1',
      adminId: 42,
      fromChatId: 42,
      messageId: 9,
      audience: { kind: 'all' },
      recipients: [7, 42],
    });
    await engine.broadcasts.record(job.id, 1, 'sent');
    await engine.priceWatch.save('acct-1', {
      at: start,
      products: [{ code: 'TSEL10', name: 'Telkomsel 10.000', price: 10_250, status: 'active' }],
    });
  } finally {
    await engine.close();
  }
}

/** Everything the contract shows of the filled data (ids as fillDataDir made them), engine-neutral. */
async function contractView(engine: StoreEngine, userIds: readonly number[]) {
  const byRef = (a: TransactionRecord, b: TransactionRecord) => (a.refId < b.refId ? -1 : 1);
  const perUser = await Promise.all(
    userIds.map(async (id) => ({
      user: await engine.users.get(id),
      services: (await engine.credentials.listServices(id)).sort(),
      credentials: await Promise.all(
        (['reseller', 'marketplace', 'gameshop'] as const).map((service) => engine.credentials.sealed(id, service)),
      ),
      groups: await engine.groups.byOwner(id),
      balances: await engine.balances.list(id),
      orders: await engine.gameOrders.listByUser(id),
      recent: await engine.transactions.listByUser(id, { limit: 5 }),
    })),
  );
  return {
    users: await engine.users.list(),
    activeCount: await engine.users.count({ active: true }),
    perUser,
    countByService: await engine.credentials.countByService(),
    conversation: await engine.conversations.readSealed('42:42'),
    transactions: (await engine.transactions.listCreatedSince(new Date(0))).sort(byRef),
    open: (await engine.transactions.listOpen()).map((tx) => tx.refId),
    nextDueAt: await engine.transactions.nextDueAt(),
    confirmation: await engine.transactions.confirmation('c-1'),
    outbox: (await engine.outbox.list()).sort((a, b) => (a.id < b.id ? -1 : 1)),
    group: await engine.groups.get(-100),
    pendingUpdates: await engine.inbox.pendingIds(),
    seenUpdate: await engine.inbox.has(500),
    broadcast: await engine.broadcasts.get('B-1'),
    running: (await engine.broadcasts.running())?.id,
    prices: await engine.priceWatch.get('acct-1'),
    wallet: {
      balance: await engine.ledger.balance(7),
      statement: await engine.ledger.statement(7),
      summary: await engine.ledger.summary(7),
    },
  };
}

describeEngines(
  'migrate-store: lowdb to PostgreSQL',
  (suite) => {
    const dirs = createTempDirs();
    const pools: pg.Pool[] = [];
    afterEach(async () => {
      await Promise.all(pools.splice(0).map((pool) => pool.end()));
      dirs.cleanup();
    });

    /** A filled data directory (fillDataDir), a pool on the test database, and the copy between them. */
    async function filled() {
      const clock = createClock(start);
      const dataDir = dirs.make();
      await fillDataDir(dataDir, clock.now);
      const pool = quietPool(suite.databaseUrl(), 4);
      pools.push(pool);
      const copy = (options: Partial<ImportOptions> = {}) => importLowdbIntoPg({ dataDir, vault, pool, now: clock.now, ...options });
      return { clock, dataDir, copy, before: fileDigests(dataDir) };
    }

    it('copies every table: the contract reads the same on both engines, and the data files are untouched', async () => {
      const { clock, dataDir, copy, before } = await filled();
      const copied: string[] = [];
      const report = await copy({ onTable: (name) => copied.push(name) });
      expect(copied).toEqual(importedTables);
      expect(report.tables).toMatchObject({
        users: { rows: 2 },
        transactions: { rows: 2 },
        outbox: { rows: 3 },
        inbox: { rows: 2 },
        ledger_wallets: { rows: 1 },
        ledger_entries: { rows: 4 },
      });
      expect(await suite.sql('SELECT state, source FROM store_import')).toEqual([{ state: 'done', source: path.resolve(dataDir) }]);
      expect(fileDigests(dataDir)).toEqual(before);

      const lowdb = createLowdbEngine(await openStore({ dataDir, vault, now: clock.now }), clock.now);
      const postgres = await suite.open(clock.now);
      try {
        const want = await contractView(lowdb, [42, 7]);
        expect(want.transactions).toHaveLength(2);
        expect(want.outbox).toHaveLength(3);
        expect(want.wallet.statement.map((entry) => [entry.key, entry.balance])).toEqual([
          ['ticket-2', 20_000],
          ['adjust-2', 0],
          ['adjust-1', 50_000],
          ['ticket-1', 50_127],
        ]);
        expect(want.wallet.summary).toEqual({ wallet: 7, upline: 43, balance: 20_000, openHolds: 0 });
        expect(await contractView(postgres, [42, 7])).toEqual(want);
      } finally {
        await lowdb.close();
      }
      // Secrets went over sealed.
      const [dump] = await suite.sql<{ text: string }>(
        `SELECT (SELECT string_agg(record::text, '') FROM credentials) || (SELECT string_agg(sealed, '') FROM conversations) ||
                (SELECT string_agg(sealed, '') FROM inbox) AS text`,
      );
      expect(dump?.text).not.toMatch(/KEY-SECRET|123456|"text":"1234"/);
      // The key the data directory opened with is the database's from now on: another is refused.
      const url = suite.databaseUrl();
      await expect(openPgEngine({ connectionString: url, vault: createVault({ key: Buffer.alloc(32, 9) }) })).rejects.toThrow(
        /ENCRYPTION_KEY is not the key/,
      );
      await (await openPgEngine({ connectionString: url, vault })).close();
    });

    it("the checksum's text of a value is PostgreSQL's own jsonb text of it", async () => {
      const values = [
        { b: 1, a: 2, aa: [1, 'x', null, true, { z: false }], '': 0, é: 'é', ab: -12.5, nested: {}, list: [] },
        ['quote " backslash \\ newline \n tab \t control \u0001 \u001f del \u007f', 'line sep \u2028 emoji 🙂 rupiah Rp10.000'],
        { refId: '01J9Z', price: 10_250, userId: 1_000_000_042, chatId: -1001234567890, status: 'Sukses', checks: 0 },
        { key: 'x', undefinedIsLeftOut: undefined },
      ];
      for (const value of values) {
        const [row] = await suite.sql<{ text: string }>('SELECT $1::jsonb::text AS text', [JSON.stringify(value)]);
        expect(jsonbText(value)).toBe(row?.text);
      }
    });

    it('refuses a database that holds kiosbot data, and one that holds a finished copy; nothing changes', async () => {
      const { clock, copy } = await filled();
      const engine = await suite.open(clock.now);
      await engine.users.upsert({ id: 99, firstName: 'Existing' });
      await expect(copy()).rejects.toThrow(/already holds kiosbot data \(users\); nothing was changed.*empty database/);
      expect(await suite.sql('SELECT id FROM users')).toEqual([{ id: '99' }]);
      await suite.sql(`TRUNCATE users, store_import`);
      await copy();
      await expect(copy()).rejects.toThrow(/already holds a finished copy of/);
      expect(await suite.sql('SELECT count(*)::int AS n FROM users')).toEqual([{ n: 2 }]);
    });

    it('a copy cut short leaves the database marked unfinished: the engine refuses it, and running the command again finishes it', async () => {
      const { clock, dataDir, copy, before } = await filled();
      // The process dies after inserting (the transaction never commits).
      await expect(copy({ beforeVerify: () => Promise.reject(new Error('killed')) })).rejects.toThrow('killed');
      expect(await suite.sql('SELECT count(*)::int AS n FROM transactions')).toEqual([{ n: 0 }]);
      await expect(suite.open(clock.now)).rejects.toThrow(/did not finish.*npm run migrate-store -- --to postgres/);

      // A row lost between the copy and its check (say, an operator's DELETE): the check says which table.
      const lose = async (client: pg.PoolClient) => void (await client.query(`DELETE FROM outbox WHERE item->>'kind' = 'alert'`));
      await expect(copy({ beforeVerify: lose })).rejects.toThrow(
        /did not verify: outbox \(3 rows in the data directory, 2 in the database\)/,
      );
      await expect(suite.open(clock.now)).rejects.toMatchObject({ code: 'incomplete' });

      // A changed row with the same count is caught by the checksum.
      const change = async (client: pg.PoolClient) =>
        void (await client.query(`UPDATE users SET record = jsonb_set(record, '{firstName}', '"X"') WHERE id = 42`));
      await expect(copy({ beforeVerify: change })).rejects.toThrow(
        /users \(2 rows in the data directory, 2 in the database, contents differ\)/,
      );

      await copy();
      const engine = await suite.open(clock.now);
      expect((await engine.users.list()).map((user) => user.firstName)).toEqual(['Ani', 'Budi']);
      expect(fileDigests(dataDir)).toEqual(before);
    });

    it('two copies started at once into one database: one copies, the other is refused and changes nothing', async () => {
      const first = await filled();
      const second = await filled();
      const results = await Promise.allSettled([first.copy(), second.copy()]);
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = results.find((result) => result.status === 'rejected');
      expect(String(refused?.reason)).toMatch(/copying into this database right now|already holds a finished copy/);
      const winner = results[0]?.status === 'fulfilled' ? first : second;
      expect(await suite.sql('SELECT state, source FROM store_import')).toEqual([{ state: 'done', source: path.resolve(winner.dataDir) }]);
      expect(await suite.sql('SELECT count(*)::int AS n FROM users')).toEqual([{ n: 2 }]);
    });

    it('a data directory in use by the bot (its lock held) is not copied, and the database is not marked', async () => {
      const { clock, dataDir, copy } = await filled();
      const running = await openStore({ dataDir, vault, now: clock.now });
      try {
        await expect(copy()).rejects.toMatchObject({ code: 'locked' });
        // The database is left as it was: empty, not even marked as receiving a copy.
        expect(await suite.sql('SELECT count(*)::int AS n FROM users')).toEqual([{ n: 0 }]);
        expect(await suite.sql('SELECT * FROM store_import')).toEqual([]);
      } finally {
        await running.close();
      }
    });
  },
  ['postgres'],
);
