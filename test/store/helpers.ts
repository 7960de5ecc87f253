import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { test } from 'vitest';
import path from 'node:path';
import type { AtomicWriter, WriteEvent } from '../../src/store/durable-file.ts';
import { decodeLine, type SegmentAppender } from '../../src/store/history-lines.ts';
import type { GameOrderRecord } from '../../src/store/records/game-orders.ts';
import type { NewTransaction, TransactionRecord } from '../../src/store/records/transactions.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { createVault, type Vault } from '../../src/store/vault.ts';
import { createDb, type Db } from '../../src/store/db.ts';
import { createLowdbEngine } from '../../src/store/lowdb-engine.ts';
import { shardOfUser, userShardCount, userShardFileName, userShardVersion, type UserShardData } from '../../src/store/user-shards.ts';

export { userShardCount };

/** The key the v1 fixture's sealed credentials were made with. */
export const testKey = Buffer.alloc(32, 7);

export function testVault(): Vault {
  return createVault({ key: testKey });
}

/** A purchase as the bot records it before calling the provider. */
export const purchase = (refId: string, overrides: Partial<NewTransaction> = {}): NewTransaction => ({
  refId,
  userId: 42,
  chatId: 42,
  code: 'TSEL10',
  productName: 'Telkomsel 10.000',
  target: '081234567890',
  price: 10250,
  ...overrides,
});

/** A game shop order as the bot stores it (user 42, unpaid, expiring an hour after 08:00 UTC 2026-03-01). */
export const gameOrder = (orderId: string, createdAt: string): GameOrderRecord => ({
  orderId,
  userId: 42,
  chatId: 42,
  game: 'mlbb',
  productId: 7,
  paymentMethodId: 3,
  quantity: 1,
  totalPrice: 15000,
  paymentStatus: 'UNPAID',
  expiredAt: '2026-03-01T09:00:00.000Z',
  createdAt,
});

/** A fresh temporary directory, removed by `cleanup()`. */
export function createTempDirs(): { make(): string; cleanup(): void } {
  const made: string[] = [];
  return {
    make() {
      const dir = mkdtempSync(path.join(tmpdir(), 'kiosbot-store-'));
      made.push(dir);
      return dir;
    },
    cleanup() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clock tests can move. */
export function createClock(start: string): { now: () => Date; set(iso: string): void; advance(ms: number): void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), set: (iso) => (t = Date.parse(iso)), advance: (ms) => (t += ms) };
}

/** Opens a store in `dataDir` that records every file write. */
export async function openTestStore(
  dataDir: string,
  options: { now?: () => Date; vault?: Vault; appendFile?: SegmentAppender; writeFile?: AtomicWriter } = {},
): Promise<{ store: Store; db: Db; writes: WriteEvent[] }> {
  const writes: WriteEvent[] = [];
  const vault = options.vault ?? testVault();
  const store = await openStore({
    dataDir,
    vault,
    onWrite: (event) => writes.push(event),
    ...(options.now ? { now: options.now } : {}),
    ...(options.appendFile ? { appendFile: options.appendFile } : {}),
    ...(options.writeFile ? { writeFile: options.writeFile } : {}),
  });
  return { store, db: dbOf(store, { vault, ...(options.now ? { now: options.now } : {}) }), writes };
}

/** The store contract over an open lowdb `store`, as services and jobs take it (vault: the test key's unless given). */
export function dbOf(store: Store, options: { vault?: Vault; now?: () => Date } = {}): Db {
  return createDb(createLowdbEngine(store, options.now), options.vault ?? testVault(), options.now);
}

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * A month's history segment as an operator would read it by hand: every line checked, the last
 * copy of each refId is the record; `lines` counts the record lines (duplicates too).
 */
export function historyOnDisk(dataDir: string, month: string): { transactions: Record<string, TransactionRecord>; lines: number } {
  const text = readFileSync(path.join(dataDir, 'history', `${month}.jsonl`), 'utf8');
  const transactions: Record<string, TransactionRecord> = {};
  let lines = 0;
  for (const line of text.split('\n').slice(1)) {
    if (line === '') continue;
    const value = decodeLine(line);
    if (value === undefined) throw new Error(`${month}.jsonl has a line that fails its checksum`);
    transactions[(value as TransactionRecord).refId] = value as TransactionRecord;
    lines++;
  }
  return { transactions, lines };
}

/** Spoils the checksum of `refId`'s line(s) in a segment, keeping the file's length (a damaged sector). */
export function damageLine(file: string, refId: string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const damaged = lines.map((line) => (line.includes(`"refId":"${refId}"`) ? `${line.slice(0, -8)}zzzzzzzz` : line));
  writeFileSync(file, damaged.join('\n'));
}

export function modeOf(file: string): number {
  return statSync(file).mode & 0o777;
}

/** What a store test is given: fresh directories and stores, all closed and removed after it. */
export interface StoreKit {
  /** A fresh temporary data directory. */
  dir(): string;
  /** Opens a store in `dataDir` that records every file write (see `openTestStore`), closed after the test. */
  open(
    dataDir: string,
    options?: { now?: () => Date; vault?: Vault; appendFile?: SegmentAppender },
  ): Promise<{ store: Store; db: Db; writes: WriteEvent[] }>;
}

/** `it` with a `stores` fixture: every store it opens is closed and every directory removed afterwards. */
export const storeTest = test.extend<{ stores: StoreKit }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads the fixture's dependencies from this pattern
  stores: async ({}, use) => {
    const dirs = createTempDirs();
    const opened: Store[] = [];
    await use({
      dir: () => dirs.make(),
      async open(dataDir, options) {
        const result = await openTestStore(dataDir, options);
        opened.push(result.store);
        return result;
      },
    });
    await Promise.all(opened.map((store) => store.close()));
    dirs.cleanup();
  },
});

/** The path of the shard file holding `userId`'s data. */
export function shardPathOf(dataDir: string, userId: number): string {
  return path.join(dataDir, userShardFileName(shardOfUser(userId)));
}

/** The shard file holding `userId`'s data, as it is on disk. */
export function shardOnDisk(dataDir: string, userId: number): UserShardData {
  const file = shardPathOf(dataDir, userId);
  if (!existsSync(file)) return { version: userShardVersion, shard: shardOfUser(userId), users: {}, credentials: {}, conversations: {} };
  // Without the checksum the store leads it with (an edit written back is then checked field by field).
  const { sum: _sum, ...data } = readJson(file) as UserShardData & { sum?: string };
  return data;
}

/** Changes the shard file holding `userId`'s data on disk (the store must be closed). */
export function editShard(dataDir: string, userId: number, edit: (data: UserShardData) => void): void {
  const data = shardOnDisk(dataDir, userId);
  edit(data);
  writeFileSync(shardPathOf(dataDir, userId), JSON.stringify(data));
}
