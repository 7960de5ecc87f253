/**
 * A wrong ENCRYPTION_KEY is caught when the store opens: start-up stops with a message saying
 * what to do, and nothing on disk changes (no write, no migration, no backup rotation).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/errors.ts';
import { hotFileName } from '../../src/store/store.ts';
import { usersDirName } from '../../src/store/user-shards.ts';
import { createVault, keyIdOf } from '../../src/store/vault.ts';
import { createTempDirs, openTestStore, readJson, shardPathOf, testKey } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

const wrongKey = Buffer.alloc(32, 9);
const testKeyId = keyIdOf(testKey);
const wrongVault = () => createVault({ key: wrongKey });
const fixtureV1 = path.join(import.meta.dirname, 'fixtures', 'kiosbot-v1.json');

/** sha256 of every file in the directory except the lock file, by name. */
function hashes(dataDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const names = readdirSync(dataDir).flatMap((name) =>
    name === usersDirName ? readdirSync(path.join(dataDir, name)).map((shard) => `${name}/${shard}`) : [name],
  );
  for (const name of names.sort()) {
    if (name === 'kiosbot.lock' || name === 'history') continue;
    out[name] = createHash('sha256')
      .update(readFileSync(path.join(dataDir, name)))
      .digest('hex');
  }
  return out;
}

/** Opens the store expecting a refusal, and returns the error. */
async function refusal(dataDir: string): Promise<StoreError> {
  const error = await openTestStore(dataDir, { vault: wrongVault() }).then(
    async ({ store }) => {
      await store.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  if (error instanceof StoreError) return error;
  throw new Error(`expected the store to refuse the wrong key, got ${String(error)}`);
}

/** A data directory written by the right key: a connected user, two writes (so there is a .bak). */
async function dataWithCredentials(): Promise<string> {
  const dataDir = dirs.make();
  const { store } = await openTestStore(dataDir);
  await store.users.upsert({ id: 1, firstName: 'Budi' });
  await store.credentials.save(1, 'reseller', { apiId: 'RS-1', apiKey: 'secret-key-1' });
  await store.close();
  return dataDir;
}

function expectHelpfulMessage(error: StoreError): void {
  expect(error.code).toBe('key');
  expect(error.message).toContain('ENCRYPTION_KEY');
  expect(error.message).toMatch(/has not changed/);
  for (const key of [testKey, wrongKey]) {
    expect(error.message).not.toContain(key.toString('base64'));
    expect(error.message).not.toContain(key.toString('hex'));
  }
}

describe('encryption key check at open', () => {
  it('refuses a wrong key, leaves every data file and its .bak byte-identical, and releases the lock', async () => {
    const dataDir = await dataWithCredentials();
    expect(existsSync(`${shardPathOf(dataDir, 1)}.bak`)).toBe(true);
    const before = hashes(dataDir);

    const error = await refusal(dataDir);
    expectHelpfulMessage(error);
    expect(hashes(dataDir)).toEqual(before);

    // The right key opens (the lock was released), and the credentials are intact.
    const { store } = await openTestStore(dataDir);
    expect(store.credentials.load(1, 'reseller')).toEqual({ apiId: 'RS-1', apiKey: 'secret-key-1' });
    await store.close();
  });

  it('stores a key check value in a new data file, so even a file without secrets refuses a wrong key', async () => {
    const dataDir = dirs.make();
    const { store } = await openTestStore(dataDir);
    await store.close();
    const hot = readJson(path.join(dataDir, hotFileName)) as { keyCheck?: { keyId: string; sealed: string } };
    expect(hot.keyCheck?.keyId).toBe(testKeyId);
    expect(hot.keyCheck?.sealed.startsWith(`v1.${testKeyId}.`)).toBe(true);
    const before = hashes(dataDir);
    expectHelpfulMessage(await refusal(dataDir));
    expect(hashes(dataDir)).toEqual(before);
  });

  it('checks a file from before the key check against a stored secret: refuses a wrong key untouched, adds the check value with the right one', async () => {
    const dataDir = await dataWithCredentials();
    const file = path.join(dataDir, hotFileName);
    const old = readJson(file) as Record<string, unknown>;
    delete old.keyCheck;
    writeFileSync(file, JSON.stringify(old), { mode: 0o600 });
    const before = hashes(dataDir);

    expectHelpfulMessage(await refusal(dataDir));
    expect(hashes(dataDir)).toEqual(before);

    const { store } = await openTestStore(dataDir);
    await store.close();
    expect(readJson(file)).toHaveProperty(['keyCheck', 'keyId'], testKeyId);
    expectHelpfulMessage(await refusal(dataDir));
  });

  it('an old file with no secret at all gets the check value of the key it is opened with', async () => {
    const dataDir = dirs.make();
    const { store } = await openTestStore(dataDir);
    await store.users.upsert({ id: 1, firstName: 'Budi' });
    await store.close();
    const file = path.join(dataDir, hotFileName);
    const old = readJson(file) as Record<string, unknown>;
    delete old.keyCheck;
    writeFileSync(file, JSON.stringify(old), { mode: 0o600 });

    const opened = await openTestStore(dataDir);
    await opened.store.close();
    expect(readJson(file)).toHaveProperty(['keyCheck', 'keyId'], testKeyId);
    expectHelpfulMessage(await refusal(dataDir));
  });

  it('refuses a wrong key on an old-format file before migrating it: no upgrade, no pre-migration backup', async () => {
    const dataDir = dirs.make();
    const file = path.join(dataDir, hotFileName);
    copyFileSync(fixtureV1, file);
    const before = hashes(dataDir);
    expectHelpfulMessage(await refusal(dataDir));
    expect(hashes(dataDir)).toEqual(before);
    expect(existsSync(`${file}.v1.bak`)).toBe(false);

    // The right key migrates it and adds the check value.
    const { store } = await openTestStore(dataDir);
    expect(store.migratedFrom).toBe(1);
    await store.close();
    expect(readJson(file)).toHaveProperty(['keyCheck', 'keyId'], testKeyId);
  });
});
