/**
 * `npm run rotate-key` as an operator runs it (a real `src/ops/rotate-key.ts` process): with the
 * new key and the old one it reseals everything and says so, never printing a key; it refuses
 * while the bot holds the data directory, and names a bad ENCRYPTION_KEY_PREVIOUS without echoing it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.ts';
import { createVault, legacyKeyId } from '../../src/store/vault.ts';
import { runToEnd } from '../helpers/bot-process.ts';

const oldKey = Buffer.alloc(32, 11);
const newKey = Buffer.alloc(32, 12);
const keyForms = [oldKey, newKey].flatMap((key) => [key.toString('base64'), key.toString('hex')]);

async function rotate(env: Record<string, string>, cwd: string): Promise<{ code: number | null; output: string }> {
  const result = await runToEnd('src/ops/rotate-key.ts', env, cwd);
  for (const form of keyForms) expect(result.output).not.toContain(form);
  return result;
}

describe('npm run rotate-key', () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reseals the secrets of a data directory under the new key; afterwards the new key alone opens them', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-rotate-'));
    const dataDir = path.join(dir, 'data');
    const before = await openStore({ dataDir, vault: createVault({ key: oldKey, keyId: legacyKeyId }) });
    await before.credentials.save(1, 'reseller', { apiId: 'RS-1', apiKey: 'secret-key-1' });
    await before.close();

    const env = { ENCRYPTION_KEY: newKey.toString('base64'), DATA_DIR: dataDir };
    const withoutOld = await rotate(env, dir);
    expect(withoutOld.code).toBe(1);
    expect(withoutOld.output).toContain('ENCRYPTION_KEY_PREVIOUS');

    const done = await rotate({ ...env, ENCRYPTION_KEY_PREVIOUS: oldKey.toString('hex') }, dir);
    expect(done.code).toBe(0);
    expect(done.output).toContain('1 credentials');
    expect(done.output).toContain('remove ENCRYPTION_KEY_PREVIOUS');

    const after = await openStore({ dataDir, vault: createVault({ key: newKey }) });
    expect(after.credentials.load(1, 'reseller')).toEqual({ apiId: 'RS-1', apiKey: 'secret-key-1' });

    // While a process holds the data directory, nothing runs.
    const locked = await rotate({ ...env, ENCRYPTION_KEY_PREVIOUS: oldKey.toString('hex') }, dir);
    await after.close();
    expect(locked.code).toBe(1);
    expect(locked.output).toContain('Stop that process first');
  });

  it('refuses with DATABASE_URL set, says what to do, and writes no data directory', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-rotate-'));
    const dataDir = path.join(dir, 'data');
    const result = await rotate(
      {
        ENCRYPTION_KEY: newKey.toString('base64'),
        ENCRYPTION_KEY_PREVIOUS: oldKey.toString('hex'),
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://kiosbot@127.0.0.1:1/kiosbot',
      },
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain('DATABASE_URL is set');
    expect(result.output).toContain('Nothing was changed');
    expect(result.output).not.toContain('remove ENCRYPTION_KEY_PREVIOUS');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('names a bad ENCRYPTION_KEY_PREVIOUS without echoing it', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiosbot-rotate-'));
    const bad = 'not-a-key-but-secret-looking-text';
    const result = await rotate({ ENCRYPTION_KEY: newKey.toString('base64'), ENCRYPTION_KEY_PREVIOUS: bad, DATA_DIR: dir }, dir);
    expect(result.code).toBe(1);
    expect(result.output).toContain('ENCRYPTION_KEY_PREVIOUS');
    expect(result.output).not.toContain(bad);
  });
});
