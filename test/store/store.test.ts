import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreCorruptError, StoreError, StoreLockedError, StoreVersionError } from '../../src/store/errors.ts';
import { hotFileVersion, type HotData } from '../../src/store/schema.ts';
import { hotFileName } from '../../src/store/store.ts';
import {
  createClock,
  createTempDirs,
  filesUnder,
  modeOf,
  openTestStore,
  readJson,
  shardOnDisk,
  shardPathOf,
  userShardCount,
} from './helpers.ts';

const fixtureV1 = new URL('./fixtures/kiosbot-v1.json', import.meta.url);
const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

const hotOnDisk = (dataDir: string) => readJson(path.join(dataDir, hotFileName)) as HotData;

/** Resolves with what `promise` rejected with (or fails if it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('openStore', () => {
  it('creates the data directory (0700) with the hot file (0600) and a lock file right away', async () => {
    const dataDir = path.join(dirs.make(), 'data');
    const { store } = await openTestStore(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, hotFileName))).toBe(0o600);
    expect(readFileSync(path.join(dataDir, 'kiosbot.lock'), 'utf8').trim()).toBe(String(process.pid));
    expect(hotOnDisk(dataDir).version).toBe(hotFileVersion);
    await store.close();
    expect(existsSync(path.join(dataDir, 'kiosbot.lock'))).toBe(false);
  });

  it('never writes a secret in plain text: credentials and conversation state are sealed', async () => {
    const dataDir = dirs.make();
    const clock = createClock('2025-01-31T06:00:00Z');
    const { store } = await openTestStore(dataDir, { now: clock.now });
    await store.users.upsert({ id: 42, firstName: 'Siti' });
    await store.credentials.save(42, 'reseller', { apiId: 'RS-0042', apiKey: 'SECRET-abc123' }, 'RS-00**');
    await store.credentials.save(42, 'gameshop', { apiKey: 'SECRET-game-456' });
    await store.conversations.write('42:42', { step: 'ask-key', typed: ['SECRET-conv-789'] });
    // Settle a transaction so that history and .bak files exist too.
    await store.transactions.create({
      refId: 'ref-1',
      userId: 42,
      chatId: 42,
      code: 'T10',
      productName: 'Pulsa 10k',
      target: '0812',
      price: 10250,
    });
    await store.transactions.settle('ref-1', { status: 'Sukses', sn: 'SN-1' });
    await store.close();

    const files = filesUnder(dataDir);
    expect(files.some((file) => file.includes(`${path.sep}history${path.sep}`))).toBe(true);
    expect(files.some((file) => file.endsWith('.bak'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const secret of ['SECRET-abc123', 'SECRET-game-456', 'SECRET-conv-789', 'ask-key']) expect(text, file).not.toContain(secret);
    }
    expect(readFileSync(shardPathOf(dataDir, 42), 'utf8')).toContain('Siti');

    const reopened = (await openTestStore(dataDir)).store;
    expect(reopened.credentials.load(42, 'reseller')).toEqual({ apiId: 'RS-0042', apiKey: 'SECRET-abc123' });
    expect(reopened.conversations.read('42:42')).toEqual({ step: 'ask-key', typed: ['SECRET-conv-789'] });
    await reopened.close();
  });

  it('keeps every kind of record across close and reopen', async () => {
    const dataDir = dirs.make();
    const clock = createClock('2025-01-31T06:00:00Z');
    const first = (await openTestStore(dataDir, { now: clock.now })).store;
    await first.users.upsert({ id: 1, firstName: 'Siti', username: 'siti', locale: 'en' });
    await first.credentials.save(1, 'marketplace', { apiKey: 'k-1' });
    await first.transactions.create({
      refId: 'open-1',
      userId: 1,
      chatId: 1,
      code: 'T5',
      productName: 'Pulsa 5k',
      target: '0812',
      price: 5500,
    });
    await first.outbox.enqueue({ chatId: 1, kind: 'text', payload: { key: 'hello' } });
    await first.conversations.write('1:1', { v: 1 });
    await first.groups.link({ chatId: -100123, ownerId: 1, title: 'Toko Siti' });
    await first.close();
    await expect(first.users.update(1, { firstName: 'x' })).rejects.toThrow(StoreError);

    const store = (await openTestStore(dataDir, { now: clock.now })).store;
    expect(store.users.get(1)).toMatchObject({ firstName: 'Siti', username: 'siti', locale: 'en', active: true, linkedGroupId: -100123 });
    expect(store.credentials.load(1, 'marketplace')).toEqual({ apiKey: 'k-1' });
    expect(store.transactions.get('open-1')).toMatchObject({ status: 'Created', price: 5500 });
    expect(store.outbox.list()).toMatchObject([{ chatId: 1, kind: 'text', payload: { key: 'hello' }, attempts: 0 }]);
    expect(store.conversations.read('1:1')).toEqual({ v: 1 });
    expect(store.groups.get(-100123)).toMatchObject({ ownerId: 1, title: 'Toko Siti' });
    await store.close();
  });

  it('lands 100 concurrent changes in far fewer writes, each caller resolved with its change on disk', async () => {
    const dataDir = dirs.make();
    const { store, writes } = await openTestStore(dataDir);
    const before = writes.length;
    await Promise.all(
      // All in one shard (ids a multiple of the shard count apart): one file, coalesced.
      Array.from({ length: 100 }, (_, i) =>
        store.users.upsert({ id: 1000 + i * userShardCount, firstName: `User ${i}` }).then(({ created }) => {
          expect(created).toBe(true);
          expect(shardOnDisk(dataDir, 1000).users[String(1000 + i * userShardCount)]?.firstName).toBe(`User ${i}`);
        }),
      ),
    );
    expect(store.users.count()).toBe(100);
    expect(writes.length - before).toBeLessThanOrEqual(2);
    await store.close();
  });

  describe('the lock', () => {
    it('refuses a second store on the same directory', async () => {
      const dataDir = dirs.make();
      const { store } = await openTestStore(dataDir);
      const error = await rejection(openTestStore(dataDir));
      expect(error).toBeInstanceOf(StoreLockedError);
      await store.close();
      await (await openTestStore(dataDir)).store.close();
    });

    it('refuses to start while another live process holds it, naming the pid and what to do', async () => {
      const dataDir = dirs.make();
      writeFileSync(path.join(dataDir, 'kiosbot.lock'), `${process.ppid}\n`);
      const error = await rejection(openTestStore(dataDir));
      expect(error).toBeInstanceOf(StoreLockedError);
      expect((error as Error).message).toContain(`pid ${process.ppid}`);
      expect((error as Error).message).toContain('Stop that process');
      expect(readFileSync(path.join(dataDir, 'kiosbot.lock'), 'utf8').trim()).toBe(String(process.ppid));
      expect(existsSync(path.join(dataDir, hotFileName))).toBe(false);
    });

    it('takes over a lock left by a process that has exited', async () => {
      const dataDir = dirs.make();
      const exited = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(path.join(dataDir, 'kiosbot.lock'), `${exited}\n`);
      const { store } = await openTestStore(dataDir);
      expect(readFileSync(path.join(dataDir, 'kiosbot.lock'), 'utf8').trim()).toBe(String(process.pid));
      await store.close();
    });
  });

  describe('a broken hot file', () => {
    it('fails start-up with StoreCorruptError naming the file, leaves it unchanged and releases the lock', async () => {
      const dataDir = dirs.make();
      const file = path.join(dataDir, hotFileName);
      const broken = '{"version":2,"users":{';
      writeFileSync(file, broken, { mode: 0o600 });
      const error = await rejection(openTestStore(dataDir));
      expect(error).toBeInstanceOf(StoreCorruptError);
      expect((error as Error).message).toContain(file);
      expect(readFileSync(file, 'utf8')).toBe(broken);
      expect(existsSync(path.join(dataDir, 'kiosbot.lock'))).toBe(false);
      // Still untouched after a second attempt.
      await rejection(openTestStore(dataDir));
      expect(readFileSync(file, 'utf8')).toBe(broken);
    });

    it('refuses a file from a newer kiosbot and leaves it unchanged', async () => {
      const dataDir = dirs.make();
      const file = path.join(dataDir, hotFileName);
      const newer = JSON.stringify({ version: hotFileVersion + 1, users: {} });
      writeFileSync(file, newer);
      const error = await rejection(openTestStore(dataDir));
      expect(error).toBeInstanceOf(StoreVersionError);
      expect((error as StoreVersionError).found).toBe(hotFileVersion + 1);
      expect(readFileSync(file, 'utf8')).toBe(newer);
    });
  });

  it('upgrades a v1 file on open, keeping the original as kiosbot.json.v1.bak', async () => {
    const dataDir = dirs.make();
    const file = path.join(dataDir, hotFileName);
    copyFileSync(fixtureV1, file);
    const original = readFileSync(file, 'utf8');
    const { store } = await openTestStore(dataDir);
    expect(store.migratedFrom).toBe(1);
    expect(hotOnDisk(dataDir)).toMatchObject({ version: hotFileVersion, outbox: {} });
    expect(readFileSync(`${file}.v1.bak`, 'utf8')).toBe(original);
    expect(modeOf(`${file}.v1.bak`)).toBe(0o600);
    // The sealed v1 credentials still open, bound to their owner.
    expect(store.credentials.load(1001, 'reseller')).toEqual({ apiId: 'RS-0042', apiKey: 'fixture-key-v1' });
    expect(store.transactions.listOpen().map((tx) => [tx.refId, tx.checks])).toEqual([['01JH0000000000000000000001', 0]]);
    expect(store.users.count({ active: true })).toBe(1);
    await store.close();

    const again = (await openTestStore(dataDir)).store;
    expect(again.migratedFrom).toBeUndefined();
    await again.close();
  });
});
