/**
 * Key rotation, as an operator does it: the bot (or `npm run rotate-key`) runs with the new key in
 * ENCRYPTION_KEY and the old one in ENCRYPTION_KEY_PREVIOUS, every secret is sealed again, and then
 * the new key alone opens everything. A crash after any number of file writes leaves every secret
 * readable with the two keys, and running the rotation again finishes it.
 */
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Update } from 'grammy/types';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, type AtomicWriter } from '../../src/store/durable-file.ts';
import { StoreError } from '../../src/store/errors.ts';
import { hotFileName, openStore, type Store } from '../../src/store/store.ts';
import { inboxFileName } from '../../src/store/inbox.ts';
import { readInboxLog } from '../../src/store/inbox-log.ts';
import { inboxAad } from '../../src/store/records/updates.ts';
import { createVault, keyIdOf, legacyKeyId, type Vault } from '../../src/store/vault.ts';
import { enospc } from '../helpers/disk.ts';
import { privateTextUpdate } from '../helpers/updates.ts';
import { createTempDirs, editShard, filesUnder, readJson, shardOnDisk } from './helpers.ts';
import { createHash } from 'node:crypto';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

const oldKey = Buffer.alloc(32, 3);
const newKey = Buffer.alloc(32, 4);
const strangerKey = Buffer.alloc(32, 5);
/** What kiosbot before derived key ids wrote: every token under the id "k1". */
const legacyVault = () => createVault({ key: oldKey, keyId: legacyKeyId });
const bothKeys = () => createVault({ key: newKey, previousKeys: [oldKey] });
const newOnly = () => createVault({ key: newKey });
const oldOnly = () => createVault({ key: oldKey });

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

/** sha256 of every file under the data directory but the lock, by path. */
function hashes(dataDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of filesUnder(dataDir).sort()) {
    if (file.endsWith('kiosbot.lock')) continue;
    out[file] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return out;
}

/** Opens the store expecting a refusal, and returns the error. */
async function refusal(dataDir: string, vault: Vault): Promise<StoreError> {
  const error = await open(dataDir, vault).then(
    async (store) => {
      await store.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  if (error instanceof StoreError) return error;
  throw new Error(`expected the store to refuse the keys, got ${String(error)}`);
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

  it.each([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])(
    'a rotation dying after %i writes over an inbox log with appended done marks leaves every stored update readable and the handled ones handled; a second run finishes it',
    async (writes) => {
      const dataDir = await oldData();
      // More stored updates, two of them handled: their done marks are a line appended to the log.
      const before = await open(dataDir, legacyVault());
      await before.inbox.add([update(42), update(43), update(44)]);
      void before.inbox.markDone(42);
      void before.inbox.markDone(44);
      await before.inbox.flush();
      await before.close();
      const log = path.join(dataDir, inboxFileName);
      expect(readFileSync(log, 'utf8')).toMatch(/\{"done":\[42,44\]\}\t/);

      const dying = await open(dataDir, bothKeys(), dyingDisk(writes)).catch(() => undefined);
      await dying?.resealSecrets().catch(() => undefined);
      await dying?.close().catch(() => undefined);

      const expectUpdates = async (vault: Vault) => {
        const store = await open(dataDir, vault);
        try {
          expect(store.inbox.pendingIds()).toEqual([41, 43]);
          expect([41, 42, 43, 44].every((id) => store.inbox.has(id))).toBe(true);
        } finally {
          await store.close();
        }
        for (const entry of (await readInboxLog(log))?.entries.values() ?? []) {
          expect((JSON.parse(vault.decrypt(entry.sealed, inboxAad(entry.id))) as Update).update_id).toBe(entry.id);
        }
      };
      await expectUpdates(bothKeys());
      const store = await open(dataDir, bothKeys());
      expect((await store.resealSecrets()).unreadable).toEqual([]);
      await store.close();
      await expectUpdates(newOnly());
      expect(keyIdsOnDisk(dataDir)).toEqual(new Set([keyIdOf(newKey)]));
    },
  );

  it('after a run with the new and the old key, either key alone is refused, naming what needs the other, and nothing changes', async () => {
    const dataDir = await oldData();
    const store = await open(dataDir, bothKeys());
    // Sealed with the new key at once; the old data stays sealed with the old one.
    await store.credentials.save(3, 'marketplace', { apiKey: 'secret-key-4' });
    await store.close();
    const before = hashes(dataDir);

    const withNew = await refusal(dataDir, newOnly());
    expect(withNew.code).toBe('key');
    expect(withNew.message).toContain('the reseller credentials of user 1');
    expect(withNew.message).toContain('ENCRYPTION_KEY_PREVIOUS');
    expect(withNew.message).toContain('npm run rotate-key');
    expect(withNew.message).not.toContain(oldKey.toString('base64'));
    expect(hashes(dataDir)).toEqual(before);

    const withOld = await refusal(dataDir, oldOnly());
    expect(withOld.message).toContain('the marketplace credentials of user 3');
    expect(hashes(dataDir)).toEqual(before);

    await expectReadable(dataDir, bothKeys());
  });

  it('a secret no configured key opens stops the start, named by owner, before anything is written', async () => {
    const dataDir = await oldData();
    const stray = createVault({ key: strangerKey }).encrypt('{"apiKey":"x"}', 'user:2:credentials:gameshop');
    editShard(dataDir, 2, (shard) => {
      const record = shard.credentials['2:gameshop'];
      if (record) record.sealed = stray;
    });
    const before = hashes(dataDir);
    const error = await refusal(dataDir, legacyVault());
    expect(error.code).toBe('key');
    expect(error.message).toContain('the gameshop credentials of user 2');
    expect(error.message).not.toContain('"apiKey"');
    expect(hashes(dataDir)).toEqual(before);

    // A legacy token (no key id of its own) that no configured key opens is found too.
    const strayLegacy = createVault({ key: strangerKey, keyId: legacyKeyId }).encrypt('{"apiKey":"x"}', 'user:2:credentials:gameshop');
    editShard(dataDir, 2, (shard) => {
      const record = shard.credentials['2:gameshop'];
      if (record) record.sealed = strayLegacy;
    });
    expect((await refusal(dataDir, legacyVault())).message).toContain('the gameshop credentials of user 2');
  });

  it('a stored update appended to the inbox log under a key nobody configured stops the start, named, before anything is written', async () => {
    const dataDir = await oldData();
    const store = await open(dataDir, legacyVault());
    const stray = createVault({ key: strangerKey }).encrypt(JSON.stringify(update(45)), inboxAad(45));
    await store.inbox.addSealed([{ id: 45, sealed: stray }]);
    await store.close();
    const before = hashes(dataDir);
    const error = await refusal(dataDir, legacyVault());
    expect(error.code).toBe('key');
    expect(error.message).toContain('the stored update 45');
    expect(hashes(dataDir)).toEqual(before);
  });

  it('names the secrets no key opens, leaves them as they were, and reseals the rest', async () => {
    const dataDir = await oldData();
    // A credential sealed with a key nobody configured (e.g. a key lost two rotations ago).
    const stray = createVault({ key: strangerKey, keyId: legacyKeyId }).encrypt('{"apiKey":"x"}', 'user:2:credentials:gameshop');
    editShard(dataDir, 2, (shard) => {
      const record = shard.credentials['2:gameshop'];
      if (record) record.sealed = stray;
    });

    // A start refuses such data; the rotation (npm run rotate-key) opens it to report.
    expect((await refusal(dataDir, bothKeys())).message).toContain('the gameshop credentials of user 2');
    const store = await openStore({ dataDir, vault: bothKeys(), allowUnreadableSecrets: true });
    const report = await store.resealSecrets();
    await store.close();
    expect(report.resealed).toEqual({ credentials: 1, conversations: 1, inbox: 1 });
    expect(report.unreadable).toEqual(['the gameshop credentials of user 2']);
    expect(shardOnDisk(dataDir, 2).credentials['2:gameshop']?.sealed).toBe(stray);
    // The key check value stays with the old key: the new key alone is still refused.
    expect(readJson(path.join(dataDir, hotFileName))).not.toHaveProperty(['keyCheck', 'keyId'], keyIdOf(newKey));
    expect((await refusal(dataDir, newOnly())).code).toBe('key');
  });
});

describe('a rotation that dies at any write, then a start with the new key alone', () => {
  // 600 users in 20 of the shard files (30 each): a rotation of about fifty writes, so that the
  // runs below land on most of its write boundaries.
  const userIds = Array.from({ length: 600 }, (_, i) => 1 + (i % 20) + 256 * Math.floor(i / 20));
  const runs = 32;
  let template: string;
  let rotationWrites: number;

  /** A copy of the 600-user data directory sealed with the old key. */
  const copy = () => {
    const dataDir = dirs.make();
    cpSync(template, dataDir, { recursive: true });
    return dataDir;
  };

  /** Every user's credentials open with the new key alone (or the start is refused): the two outcomes allowed. */
  async function startWithNewKey(dataDir: string): Promise<'refused' | 'complete'> {
    const store = await open(dataDir, newOnly()).catch((error: unknown) => {
      if (error instanceof StoreError && error.code === 'key') return undefined;
      throw error;
    });
    if (!store) return 'refused';
    try {
      for (const id of userIds) expect(store.credentials.load(id, 'reseller')).toEqual({ apiId: `RS-${id}`, apiKey: `secret-${id}` });
      return 'complete';
    } finally {
      await store.close();
    }
  }

  it(
    'is refused or complete, never opens with unreadable credentials; a second run with both keys completes it',
    { timeout: 180_000 },
    async () => {
      const base = dirs.make();
      const store = await open(base, oldOnly());
      await Promise.all(userIds.map((id) => store.credentials.save(id, 'reseller', { apiId: `RS-${id}`, apiKey: `secret-${id}` })));
      await store.close();
      template = base;

      // How many writes a whole rotation makes (opening included).
      let counted = 0;
      const counting: AtomicWriter = async (file, content, options) => {
        counted += 1;
        await writeFileAtomic(file, content, options);
      };
      const whole = await open(copy(), bothKeys(), counting);
      await whole.resealSecrets();
      await whole.close();
      rotationWrites = counted;
      expect(rotationWrites).toBeGreaterThan(40);

      // Crash points spread over the whole rotation (a fixed pseudo-random sequence), and its very end.
      let seed = 27;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
      const points = [...Array.from({ length: runs - 1 }, () => next() % rotationWrites), rotationWrites];
      const outcomes: string[] = [];
      for (const [run, writes] of points.entries()) {
        const dataDir = copy();
        const dying = await open(dataDir, bothKeys(), dyingDisk(writes)).catch(() => undefined);
        await dying?.resealSecrets().catch(() => undefined);
        await dying?.close().catch(() => undefined);

        outcomes.push(await startWithNewKey(dataDir));
        if (run % 4 === 0 || writes === rotationWrites) {
          const again = await open(dataDir, bothKeys());
          expect((await again.resealSecrets()).unreadable).toEqual([]);
          await again.close();
          expect(await startWithNewKey(dataDir)).toBe('complete');
        }
      }
      expect(outcomes.at(-1)).toBe('complete');
      expect(outcomes.filter((outcome) => outcome === 'refused').length).toBeGreaterThan(runs / 2);
    },
  );
});
