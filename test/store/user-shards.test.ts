/**
 * The store split (issue 15): users, their sealed credentials and conversation states live in
 * shard files by user id, so one user's change rewrites one small file; the hot file keeps what
 * must change atomically together. A hot file from before the split is split on open, crash-safe.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBackup, restoreBackup, snapshotDataDir, writeBackup } from '../../src/store/backup.ts';
import { sealJson, writeFileAtomic, type AtomicWriter, type WriteEvent } from '../../src/store/durable-file.ts';
import { StoreCorruptError, StoreError } from '../../src/store/errors.ts';
import { hotFileVersion, type HotData } from '../../src/store/schema.ts';
import { hotFileName, openStore, type Store } from '../../src/store/store.ts';
import { openUserShards, shardOfUser, userShardFileName, userShardVersion, usersDirName } from '../../src/store/user-shards.ts';
import { createVault, type Vault } from '../../src/store/vault.ts';
import { enospc } from '../helpers/disk.ts';
import { createTempDirs, readJson, shardOnDisk, shardPathOf, testKey, testVault, userShardCount } from './helpers.ts';

const dirs = createTempDirs();
const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close().catch(() => undefined)));
  dirs.cleanup();
});

const at = '2026-11-20T08:00:00.000Z';
const now = () => new Date(at);

async function open(
  dataDir: string,
  options: { writeFile?: AtomicWriter; vault?: Vault } = {},
): Promise<{ store: Store; writes: WriteEvent[] }> {
  const writes: WriteEvent[] = [];
  const store = await openStore({
    dataDir,
    vault: options.vault ?? testVault(),
    now,
    onWrite: (event) => writes.push(event),
    ...(options.writeFile ? { writeFile: options.writeFile } : {}),
  });
  opened.push(store);
  return { store, writes };
}

/** Names of the written files, relative to the data directory. */
const names = (dataDir: string, writes: readonly WriteEvent[]) => writes.map((write) => path.relative(dataDir, write.file));

/** A writer that fails with ENOSPC for the files `fails` picks, and writes the others. */
function failing(fails: (file: string) => boolean): AtomicWriter & { failed: string[] } {
  const failed: string[] = [];
  const writer = async (file: string, content: string | Buffer, options: { backup: boolean }) => {
    if (fails(file)) {
      failed.push(file);
      throw enospc(file);
    }
    await writeFileAtomic(file, content, options);
  };
  return Object.assign(writer, { failed });
}

/** Users 1…n, in n different shards, each with reseller credentials and a conversation state. */
async function filledStore(dataDir: string, n: number): Promise<Store> {
  const { store } = await open(dataDir);
  for (let id = 1; id <= n; id++) {
    await store.users.upsert({ id, firstName: `User ${id}` });
    await store.credentials.save(id, 'reseller', { apiId: `RS-${id}`, apiKey: `secret-${id}` }, `RS-${id}`);
    await store.conversations.write(`${id}:${id}`, { step: 'ask', n: id });
  }
  return store;
}

/**
 * A version-3 hot file (before the split) holding the users, credentials and conversation states
 * of a store that has them in shards: the shards' content is put back into the hot file, the
 * shard directory removed.
 */
function legacyHotFile(dataDir: string, options: { keyCheck: boolean }): Record<string, unknown> {
  const hot = readJson(path.join(dataDir, hotFileName)) as HotData & Record<string, unknown>;
  const users: Record<string, unknown> = {};
  const credentials: Record<string, unknown> = {};
  const conversations: Record<string, unknown> = {};
  for (let index = 0; index < userShardCount; index++) {
    const file = path.join(dataDir, userShardFileName(index));
    if (!existsSync(file)) continue;
    const shard = readJson(file) as { users: object; credentials: object; conversations: object };
    Object.assign(users, shard.users);
    Object.assign(credentials, shard.credentials);
    Object.assign(conversations, shard.conversations);
  }
  const { pendingUsers: _pending, keyCheck, ...rest } = hot;
  return { ...rest, ...(options.keyCheck ? { keyCheck } : {}), version: 3, users, credentials, conversations };
}

/** A data directory holding only a version-3 hot file with `n` users (credentials, conversation states). */
async function legacyDataDir(n: number, options: { keyCheck: boolean } = { keyCheck: true }): Promise<string> {
  const source = dirs.make();
  const store = await filledStore(source, n);
  await store.close();
  const legacy = legacyHotFile(source, options);
  const dataDir = dirs.make();
  writeFileSync(path.join(dataDir, hotFileName), JSON.stringify(legacy), { mode: 0o600 });
  return dataDir;
}

function expectUsers(store: Store, n: number): void {
  expect(store.users.count()).toBe(n);
  for (let id = 1; id <= n; id++) {
    expect(store.users.get(id)?.firstName).toBe(`User ${id}`);
    expect(store.credentials.load(id, 'reseller')).toEqual({ apiId: `RS-${id}`, apiKey: `secret-${id}` });
    expect(store.conversations.read(`${id}:${id}`)).toEqual({ step: 'ask', n: id });
  }
}

describe('the users shard files', () => {
  it('one user’s change writes that user’s shard only, never the hot file', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 5);
    await store.close();
    const { store: again, writes } = await open(dataDir);
    expect(writes).toEqual([]);
    const shard3 = userShardFileName(shardOfUser(3));

    await again.users.update(3, { alertThreshold: 50_000 });
    expect(names(dataDir, writes)).toEqual([shard3]);
    await again.credentials.save(3, 'gameshop', { apiKey: 'g-3' });
    await again.conversations.write('3:3', { step: 'next' });
    await again.conversations.write('-100:3', { step: 'in a group' });
    expect(names(dataDir, writes)).toEqual([shard3, shard3, shard3, shard3]);

    // Nothing to change, nothing written: an unchanged patch, deleting an absent conversation state.
    await again.users.update(3, { alertThreshold: 50_000 });
    await again.conversations.delete('9:9');
    await again.conversations.write('8:8', undefined);
    expect(writes).toHaveLength(4);
    expect(shardOnDisk(dataDir, 3).users['3']?.alertThreshold).toBe(50_000);
    expect(readFileSync(path.join(dataDir, hotFileName), 'utf8')).not.toContain('User 3');
  });

  it('reads everything back after a restart, and the counts span every shard', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 20);
    await store.credentials.save(7, 'marketplace', { apiKey: 'm-7' });
    await store.users.setActive(4, false);
    await store.close();
    const { store: again } = await open(dataDir);
    expectUsers(again, 20);
    expect(again.users.count({ active: false })).toBe(1);
    expect(again.users.list().map((user) => user.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(again.users.list({ where: (user) => user.id % 5 === 0 }).map((user) => user.id)).toEqual([5, 10, 15, 20]);
    expect(again.users.count({ active: true, where: (user) => user.id % 5 === 0 })).toBe(4);
    expect(again.credentials.countByService()).toEqual({ reseller: 20, marketplace: 1, gameshop: 0 });
    expect(again.credentials.listServices(7).sort()).toEqual(['marketplace', 'reseller']);
    expect(readdirSync(path.join(dataDir, usersDirName)).filter((name) => name.endsWith('.json'))).toHaveLength(20);
  });

  it('a shard whose checksum does not match is checked field by field: a damaged record refuses the open as before, changing nothing', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 3);
    await store.close();
    const file = shardPathOf(dataDir, 2);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('{"sum":"')).toBe(true);
    // A bit flipped on disk inside the record (the JSON stays valid, the checksum no longer holds).
    const damaged = text.replace('"active":true', '"active":"tru"');
    expect(damaged).not.toBe(text);
    writeFileSync(file, damaged);
    const error = await open(dataDir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreCorruptError);
    expect((error as StoreCorruptError).message).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe(damaged);
  });

  it('a failed shard write rejects its caller and leaves memory as on disk; other shards and later writes work', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 3);
    await store.close();
    const full = new Set<string>([shardPathOf(dataDir, 2)]);
    const writer = failing((file) => full.has(file));
    const { store: again } = await open(dataDir, { writeFile: writer });

    const lost = again.users.update(2, { firstName: 'Lost' });
    const alsoLost = again.credentials.save(2, 'gameshop', { apiKey: 'lost' });
    const kept = again.users.update(1, { firstName: 'Kept' });
    await expect(lost).rejects.toThrow(/ENOSPC/);
    await expect(alsoLost).rejects.toThrow(/ENOSPC/);
    await kept;
    expect(again.users.get(2)?.firstName).toBe('User 2');
    expect(again.credentials.has(2, 'gameshop')).toBe(false);
    expect(shardOnDisk(dataDir, 2).users['2']?.firstName).toBe('User 2');
    expect(again.users.get(1)?.firstName).toBe('Kept');

    full.clear();
    await again.users.update(2, { firstName: 'Written' });
    await again.close();
    const { store: reopened } = await open(dataDir);
    expect(reopened.users.get(2)?.firstName).toBe('Written');
    expect(reopened.users.get(1)?.firstName).toBe('Kept');
    expect(reopened.credentials.has(2, 'gameshop')).toBe(false);
  });

  it('flush and close reject when a shard write failed', async () => {
    const dataDir = dirs.make();
    const writer = failing((file) => file.endsWith(userShardFileName(shardOfUser(5))));
    const { store } = await open(dataDir, { writeFile: writer });
    store.users.upsert({ id: 5, firstName: 'Never' }).catch(() => undefined);
    await expect(store.flush()).rejects.toThrow(/ENOSPC/);
    expect(store.users.get(5)).toBeUndefined();
  });
});

describe('changes of a user and of the hot file together', () => {
  it('a user change with a notification is atomic: a failed hot-file write keeps neither', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 2);
    await store.close();
    const hotFull = { on: true };
    const { store: again } = await open(dataDir, { writeFile: failing((file) => hotFull.on && file.endsWith(hotFileName)) });
    await expect(
      again.users.update(1, { dailySummary: { hour: 7, lastSent: '2026-11-20' } }, { notify: [{ chatId: 1, kind: 'text', payload: 'x' }] }),
    ).rejects.toThrow(/ENOSPC/);
    expect(again.users.get(1)?.dailySummary).toBeUndefined();
    expect(again.outbox.size()).toBe(0);
    hotFull.on = false;
    await again.close();
    const { store: reopened } = await open(dataDir);
    expect(reopened.users.get(1)?.dailySummary).toBeUndefined();
    expect(reopened.outbox.size()).toBe(0);
  });

  it('once the hot-file write landed, the user change survives a crash before its shard write and reaches the shard at open', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 2);
    await store.close();
    // The shard's disk "dies": the process crashes between the hot-file write and the shard write.
    const { store: dying } = await open(dataDir, { writeFile: failing((file) => file.endsWith(userShardFileName(shardOfUser(1)))) });
    const changed = await dying.users.update(
      1,
      { dailySummary: { hour: 7, lastSent: '2026-11-20' } },
      { notify: [{ chatId: 1, kind: 'text', payload: 'summary', dedupeKey: 'summary:1:2026-11-20' }] },
    );
    expect(changed?.dailySummary?.lastSent).toBe('2026-11-20');
    expect(dying.users.get(1)?.dailySummary?.lastSent).toBe('2026-11-20');
    // A later plain change of that user goes through the hot file too (its shard copy is not on disk).
    await dying.users.update(1, { alertThreshold: 1000 });
    expect((readJson(path.join(dataDir, hotFileName)) as HotData).pendingUsers['1']).toMatchObject({ alertThreshold: 1000 });
    expect(shardOnDisk(dataDir, 1).users['1']?.dailySummary).toBeUndefined();
    await dying.close().catch(() => undefined);
    opened.splice(opened.indexOf(dying), 1);

    const { store: reopened } = await open(dataDir);
    expect(reopened.users.get(1)).toMatchObject({ dailySummary: { hour: 7, lastSent: '2026-11-20' }, alertThreshold: 1000 });
    expect(reopened.outbox.list()).toMatchObject([{ chatId: 1, payload: 'summary' }]);
    expect(shardOnDisk(dataDir, 1).users['1']).toMatchObject({ dailySummary: { lastSent: '2026-11-20' }, alertThreshold: 1000 });
    expect((readJson(path.join(dataDir, hotFileName)) as HotData).pendingUsers).toEqual({});
  });

  it('linking a group keeps the owner’s record in step, across a restart', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 3);
    await store.groups.link({ chatId: -100, ownerId: 1, title: 'Toko' });
    expect(store.users.get(1)?.linkedGroupId).toBe(-100);
    await store.groups.link({ chatId: -100, ownerId: 2 });
    expect(store.users.get(1)?.linkedGroupId).toBeUndefined();
    expect(store.users.get(2)?.linkedGroupId).toBe(-100);
    await store.groups.migrate(-100, -200);
    await store.close();
    const { store: again } = await open(dataDir);
    expect(again.users.get(2)?.linkedGroupId).toBe(-200);
    expect(again.groups.byOwner(2)).toMatchObject([{ chatId: -200 }]);
    await again.groups.unlink(-200);
    expect(again.users.get(2)?.linkedGroupId).toBeUndefined();
    // The record leaves `pendingUsers` in a write of its own, after its shard's.
    await again.flush();
    expect(shardOnDisk(dataDir, 2).users['2']?.linkedGroupId).toBeUndefined();
    expect((readJson(path.join(dataDir, hotFileName)) as HotData).pendingUsers).toEqual({});
  });
});

describe('the split of a version-3 hot file', () => {
  it('moves users, credentials and conversation states into the shards, keeping the old file as kiosbot.json.v3.bak', async () => {
    const dataDir = await legacyDataDir(12);
    const original = readFileSync(path.join(dataDir, hotFileName), 'utf8');
    const { store, writes } = await open(dataDir);
    expect(store.migratedFrom).toBe(3);
    expectUsers(store, 12);
    expect(readFileSync(path.join(dataDir, `${hotFileName}.v3.bak`), 'utf8')).toBe(original);
    const hot = readJson(path.join(dataDir, hotFileName)) as Record<string, unknown>;
    expect(hot).toMatchObject({ version: hotFileVersion, pendingUsers: {} });
    expect(hot).not.toHaveProperty('users');
    expect(hot).not.toHaveProperty('credentials');
    expect(hot).not.toHaveProperty('conversations');
    // Every shard before the slimmed hot file.
    const written = names(dataDir, writes);
    const lastShard = Math.max(...written.map((name, i) => (name.startsWith(`${usersDirName}/`) ? i : -1)));
    expect(lastShard).toBeLessThan(written.indexOf(hotFileName));
    expect(written.filter((name) => name.startsWith(`${usersDirName}/`))).toHaveLength(12);
  });

  it.each([
    ['after some shard writes', (shardWrites: number) => shardWrites >= 5],
    ['after every shard write, before the hot file', () => false],
  ])('converges when a crash interrupted it %s', async (_name, failShard) => {
    const dataDir = await legacyDataDir(12);
    const original = readFileSync(path.join(dataDir, hotFileName), 'utf8');
    let shardWrites = 0;
    const crash = failing((file) => {
      if (file.includes(`${path.sep}${usersDirName}${path.sep}`)) return failShard(shardWrites++);
      return true;
    });
    await expect(open(dataDir, { writeFile: crash })).rejects.toThrow(/ENOSPC/);
    expect(readFileSync(path.join(dataDir, hotFileName), 'utf8')).toBe(original);
    expect(readdirSync(path.join(dataDir, usersDirName)).length).toBeGreaterThan(0);
    // A shard left from elsewhere that this data does not fill is emptied on the rerun.
    const stale = path.join(dataDir, userShardFileName(200));
    writeFileSync(
      stale,
      JSON.stringify({
        version: 1,
        shard: 200,
        users: { '200': { id: 200, firstName: 'Stale', active: true, createdAt: at } },
        credentials: {},
        conversations: {},
      }),
    );

    const { store } = await open(dataDir);
    expect(store.migratedFrom).toBe(3);
    expectUsers(store, 12);
    expect(store.users.get(200)).toBeUndefined();
    await store.close();
    const { store: again } = await open(dataDir);
    expect(again.migratedFrom).toBeUndefined();
    expectUsers(again, 12);
  });

  it('refuses a wrong key before writing any shard', async () => {
    const dataDir = await legacyDataDir(3, { keyCheck: false });
    const before = readFileSync(path.join(dataDir, hotFileName), 'utf8');
    const error = await open(dataDir, { vault: createVault({ key: Buffer.alloc(32, 9) }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('key');
    expect(existsSync(path.join(dataDir, usersDirName))).toBe(false);
    expect(readFileSync(path.join(dataDir, hotFileName), 'utf8')).toBe(before);
    const { store } = await open(dataDir);
    expectUsers(store, 3);
  });
});

describe('the key check and the shards', () => {
  it('a hot file without a check value is checked against the oldest credentials, which only a shard holds', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 3);
    await store.close();
    const file = path.join(dataDir, hotFileName);
    const hot = readJson(file) as Record<string, unknown>;
    delete hot.keyCheck;
    writeFileSync(file, JSON.stringify(hot), { mode: 0o600 });
    const error = await open(dataDir, { vault: createVault({ key: Buffer.alloc(32, 9) }) }).catch((e: unknown) => e);
    expect((error as StoreError).code).toBe('key');
    expect((error as StoreError).message).toContain('reseller credentials of user 1');
    expect(readJson(file)).not.toHaveProperty('keyCheck');
    const { store: right } = await open(dataDir);
    expectUsers(right, 3);
    expect(readJson(file)).toHaveProperty('keyCheck');
  });
});

describe('shards parsed at their first use', () => {
  it('a shard whose checksum holds is parsed when first read; its header (the key ids of its secrets) is what the key audit reads of it until then', async () => {
    const dataDir = dirs.make();
    await (await filledStore(dataDir, 3)).close();
    const shards = await openUserShards({ dataDir });
    const file = shards.forUser(2);
    expect(file.parsed).toBe(false);
    expect(shards.withKeysBeyond(testVault().keyIds)).not.toContain(file);
    expect(shards.withKeysBeyond(['another'])).toContain(file);
    expect(Object.keys(file.data.users)).toEqual(['2']);
    expect(file.parsed).toBe(true);
    expect(file.data).not.toHaveProperty('keyIds');
    expect(file.data).not.toHaveProperty('priceWatchers');
    // Parsed, it is read by the audit whatever its header said.
    expect(shards.withKeysBeyond(testVault().keyIds)).toContain(file);
    await shards.close();
  });

  it('a shard from before the key ids (version 1, checksummed) is read at open, and lists them from its next write', async () => {
    const dataDir = dirs.make();
    await (await filledStore(dataDir, 3)).close();
    const file = shardPathOf(dataDir, 2);
    const { sum: _sum, keyIds: _keyIds, priceWatchers: _watchers, ...shard } = readJson(file) as Record<string, unknown>;
    writeFileSync(file, sealJson(JSON.stringify({ ...shard, version: 1 })));
    const shards = await openUserShards({ dataDir });
    expect(shards.forUser(2).parsed).toBe(true);
    expect(shards.forUser(2).data.version).toBe(userShardVersion);
    await shards.forUser(2).update((data) => (data.users['2']!.firstName = 'Two'));
    await shards.close();
    expect(readFileSync(file, 'utf8')).toMatch(/^\{"sum":"[0-9a-f]{8}","version":2,"keyIds":\["[^"]+"\],"priceWatchers":\[\],/);
  });

  it('a shard whose header lacks the price watchers (checksummed) is read at open', async () => {
    const dataDir = dirs.make();
    await (await filledStore(dataDir, 3)).close();
    const file = shardPathOf(dataDir, 2);
    const { sum: _sum, priceWatchers: _watchers, ...shard } = readJson(file) as Record<string, unknown>;
    writeFileSync(file, sealJson(JSON.stringify(shard)));
    const shards = await openUserShards({ dataDir });
    expect(shards.forUser(2).parsed).toBe(true);
    expect(shards.forUser(1).parsed).toBe(false);
    await shards.close();
  });

  it('lists the price watchers parsing only the shards whose header names one', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 4);
    const watch = { brands: [], group: true };
    await store.users.update(2, { priceWatch: watch });
    await store.users.update(3, { priceWatch: watch });
    await store.users.update(3, { priceWatch: undefined });
    await store.close();
    expect(readFileSync(shardPathOf(dataDir, 2), 'utf8')).toContain('"priceWatchers":[2],');
    expect(readFileSync(shardPathOf(dataDir, 3), 'utf8')).toContain('"priceWatchers":[],');

    const shards = await openUserShards({ dataDir });
    // Of the shards on disk (a missing one is empty, parsed from the start).
    expect(shards.withPriceWatchers().filter((file) => file.existed)).toEqual([shards.forUser(2)]);
    expect(shards.all.filter((file) => file.existed && file.parsed)).toEqual([]);
    await shards.close();
    const { store: reopened } = await open(dataDir);
    expect(reopened.users.list({ active: true, priceWatchers: true })).toMatchObject([{ id: 2, priceWatch: watch }]);
    expect(reopened.users.count({ priceWatchers: true })).toBe(1);
    // Parsed, a shard is walked whatever its header said: a watcher added since counts.
    await reopened.users.update(1, { priceWatch: watch });
    expect(reopened.users.list({ priceWatchers: true }).map((user) => user.id)).toEqual([1, 2]);
  });

  it('lists a price watcher whose record waits in the hot file for its shard', async () => {
    const dataDir = dirs.make();
    await (await filledStore(dataDir, 2)).close();
    const { store: dying } = await open(dataDir, { writeFile: failing((file) => file.endsWith(userShardFileName(shardOfUser(1)))) });
    await dying.users.update(1, { priceWatch: { brands: [], group: false } }, { notify: [{ chatId: 1, kind: 'text', payload: 'on' }] });
    expect((readJson(path.join(dataDir, hotFileName)) as HotData).pendingUsers['1']).toHaveProperty('priceWatch');
    expect(dying.users.list({ priceWatchers: true }).map((user) => user.id)).toEqual([1]);
    await dying.close().catch(() => undefined);
    opened.splice(opened.indexOf(dying), 1);
    const { store: reopened } = await open(dataDir);
    expect(reopened.users.list({ priceWatchers: true }).map((user) => user.id)).toEqual([1]);
  });

  it('refuses a start without the key that sealed one secret of a shard not yet parsed, naming it', async () => {
    const dataDir = dirs.make();
    await (await filledStore(dataDir, 3)).close();
    const rotated = createVault({ key: Buffer.alloc(32, 8), previousKeys: [testKey] });
    const { store } = await open(dataDir, { vault: rotated });
    await store.credentials.save(3, 'marketplace', { apiKey: 'm-3' });
    await store.close();
    const error = await open(dataDir).catch((e: unknown) => e);
    expect((error as StoreError).code).toBe('key');
    expect((error as StoreError).message).toContain('the marketplace credentials of user 3');
    expect((error as StoreError).message).toContain(rotated.keyId);
  });
});

describe('backups and the shards', () => {
  it('a backup holds the shard files and restores into a store that reads them', async () => {
    const dataDir = dirs.make();
    const store = await filledStore(dataDir, 4);
    const file = path.join(dirs.make(), 'backup.json.gz');
    const backup = await writeBackup(dataDir, file);
    await store.close();
    expect(backup.files.map((entry) => entry.name)).toEqual([hotFileName, ...[1, 2, 3, 4].map((id) => userShardFileName(shardOfUser(id)))]);
    const target = dirs.make();
    await restoreBackup(file, target, testVault());
    const { store: restored } = await open(target);
    expectUsers(restored, 4);
  });

  it('a backup from before the split still restores, and opens split', async () => {
    const legacy = await legacyDataDir(4);
    const file = path.join(dirs.make(), 'old.json.gz');
    await writeBackup(legacy, file);
    expect((await readBackup(file)).files.map((entry) => entry.name)).toEqual([hotFileName]);

    // Restored over a split data directory: its shards go aside with the rest.
    const dataDir = dirs.make();
    const current = await filledStore(dataDir, 6);
    await current.close();
    const { movedTo } = await restoreBackup(file, dataDir, testVault());
    expect(readdirSync(path.join(movedTo ?? '', usersDirName)).length).toBeGreaterThan(0);
    const { store } = await open(dataDir);
    expect(store.migratedFrom).toBe(3);
    expectUsers(store, 4);
    expect(store.users.get(5)).toBeUndefined();
    expect((await snapshotDataDir(dataDir)).files.some((entry) => entry.name.startsWith(`${usersDirName}/`))).toBe(true);
  });
});
