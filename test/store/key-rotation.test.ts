/**
 * Key rotation, as an operator does it: the bot (or `npm run rotate-key`) runs with the new key in
 * ENCRYPTION_KEY and the old one in ENCRYPTION_KEY_PREVIOUS, every secret is sealed again, and then
 * the new key alone opens everything. A crash after any number of file writes leaves every secret
 * readable with the two keys, and running the rotation again finishes it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Update } from 'grammy/types';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, type AtomicWriter } from '../../src/store/durable-file.ts';
import { StoreError } from '../../src/store/errors.ts';
import { hotFileName, openStore, type Store } from '../../src/store/store.ts';
import { createVault, keyIdOf, legacyKeyId, type Vault } from '../../src/store/vault.ts';
import { enospc } from '../helpers/disk.ts';
import { privateTextUpdate } from '../helpers/updates.ts';
import { createTempDirs, editShard, filesUnder, readJson, shardOnDisk } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

const oldKey = Buffer.alloc(32, 3);
const newKey = Buffer.alloc(32, 4);
const strangerKey = Buffer.alloc(32, 5);
/** What kiosbot before derived key ids wrote: every token under the id "k1". */
const legacyVault = () => createVault({ key: oldKey, keyId: legacyKeyId });
const bothKeys = () => createVault({ key: newKey, previousKeys: [oldKey] });
const newOnly = () => createVault({ key: newKey });

const update = (id: number): Update => privateTextUpdate(id, `/beli TSEL10 0812${id}`, { id: 7, firstName: 'Budi' });

async function open(dataDir: string, vault: Vault, writeFile?: AtomicWriter): Promise<Store> {
  return openStore({ dataDir, vault, ...(writeFile ? { writeFile } : {}) });
}

/** A data directory as an installation before rotation has it: two users' credentials, a flow in progress, a stored update. */
async function oldData(): Promise<string> {
  const dataDir = dirs.make();
  const store = await open(dataDir, legacyVault());
  await store.credentials.save(1, 'reseller', { apiId: 'RS-1', apiKey: 'secret-key-1' });
  await store.credentials.save(2, 'gameshop', { apiKey: 'secret-key-2' });
  await store.conversations.write('7:7', { step: 'ask-key', typed: 'secret-key-3' });
  await store.inbox.add([update(41)]);
  await store.close();
  return dataDir;
}

/** Everything the old data holds, read through `vault`. */
async function expectReadable(dataDir: string, vault: Vault): Promise<void> {
  const store = await open(dataDir, vault);
  try {
    expect(store.credentials.load(1, 'reseller')).toEqual({ apiId: 'RS-1', apiKey: 'secret-key-1' });
    expect(store.credentials.load(2, 'gameshop')).toEqual({ apiKey: 'secret-key-2' });
    expect(store.conversations.read('7:7')).toEqual({ step: 'ask-key', typed: 'secret-key-3' });
    expect(store.inbox.pendingIds()).toEqual([41]);
  } finally {
    await store.close();
  }
}

/** The key ids found in the tokens of every file of the data directory, backups included. */
function keyIdsOnDisk(dataDir: string): Set<string> {
  const ids = new Set<string>();
  for (const file of filesUnder(dataDir)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/"v1\.([A-Za-z0-9_-]+)\./g)) ids.add(match[1] ?? '');
  }
  return ids;
}

/** A disk on which the process "dies" after `allowed` successful writes: every later write fails. */
function dyingDisk(allowed: number): AtomicWriter {
  let done = 0;
  return async (file, content, options) => {
    if (done >= allowed) throw enospc(file);
    done += 1;
    await writeFileAtomic(file, content, options);
  };
}

describe('key rotation', () => {
  it('refuses to start with only the new key, says to give the old one, and changes nothing', async () => {
    const dataDir = await oldData();
    const before = readFileSync(path.join(dataDir, hotFileName), 'utf8');
    const error = await open(dataDir, newOnly()).then(
      (store) => store.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain('ENCRYPTION_KEY_PREVIOUS');
    expect((error as Error).message).not.toContain(newKey.toString('base64'));
    expect(readFileSync(path.join(dataDir, hotFileName), 'utf8')).toBe(before);
  });

  it('reads both keys during the switch, reseals every secret, and then the new key alone opens everything', async () => {
    const dataDir = await oldData();
    await expectReadable(dataDir, bothKeys());

    const store = await open(dataDir, bothKeys());
    // A user connects during the switch: sealed with the new key at once.
    await store.credentials.save(3, 'marketplace', { apiKey: 'secret-key-4' });
    const report = await store.resealSecrets();
    await store.close();

    expect(report).toEqual({ resealed: { credentials: 2, conversations: 1, inbox: 1 }, unreadable: [] });
    await expectReadable(dataDir, newOnly());
    // No token of the old key is left anywhere, the .bak files included; nothing is in plain text.
    expect(keyIdsOnDisk(dataDir)).toEqual(new Set([keyIdOf(newKey)]));
    for (const file of filesUnder(dataDir)) expect(readFileSync(file, 'utf8')).not.toMatch(/secret-key-\d/);
    expect(readJson(path.join(dataDir, hotFileName))).toHaveProperty(['keyCheck', 'keyId'], keyIdOf(newKey));

    // A second run has nothing left to do.
    const again = await open(dataDir, bothKeys());
    expect(await again.resealSecrets()).toEqual({ resealed: { credentials: 0, conversations: 0, inbox: 0 }, unreadable: [] });
    await again.close();
  });

  it.each([0, 1, 2, 3, 4])(
    'a crash after %i writes of the rotation leaves everything readable with both keys; a second run finishes it',
    async (writes) => {
      const dataDir = await oldData();
      // Opening writes too (the key check value under the new key), so the first crash point is there.
      const dying = await open(dataDir, bothKeys(), dyingDisk(writes)).catch(() => undefined);
      await dying?.resealSecrets().catch(() => undefined);
      await dying?.close().catch(() => undefined);

      await expectReadable(dataDir, bothKeys());
      const store = await open(dataDir, bothKeys());
      expect((await store.resealSecrets()).unreadable).toEqual([]);
      await store.close();
      await expectReadable(dataDir, newOnly());
      expect(keyIdsOnDisk(dataDir)).toEqual(new Set([keyIdOf(newKey)]));
    },
  );

  it('names the secrets no key opens, leaves them as they were, and reseals the rest', async () => {
    const dataDir = await oldData();
    // A credential sealed with a key nobody configured (e.g. a key lost two rotations ago).
    const stray = createVault({ key: strangerKey, keyId: legacyKeyId }).encrypt('{"apiKey":"x"}', 'user:2:credentials:gameshop');
    editShard(dataDir, 2, (shard) => {
      const record = shard.credentials['2:gameshop'];
      if (record) record.sealed = stray;
    });

    const store = await open(dataDir, bothKeys());
    const report = await store.resealSecrets();
    await store.close();
    expect(report.resealed).toEqual({ credentials: 1, conversations: 1, inbox: 1 });
    expect(report.unreadable).toEqual(['the gameshop credentials of user 2']);
    expect(shardOnDisk(dataDir, 2).credentials['2:gameshop']?.sealed).toBe(stray);
  });
});
