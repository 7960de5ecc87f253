import { describe, expect, it } from 'vitest';
import { createVault, keyIdOf, legacyKeyId, parseEncryptionKey, VaultError } from '../../src/store/vault.ts';

const key = Buffer.alloc(32, 1);
const otherKey = Buffer.alloc(32, 2);
const aad = 'user:123:credentials:reseller';
const secret = '{"apiId":"RS-1","apiKey":"SECRET-abc123"}';

/** Runs `action`, expecting a VaultError, and returns it. */
function vaultError(action: () => unknown): VaultError {
  try {
    action();
  } catch (error) {
    if (error instanceof VaultError) return error;
    throw error;
  }
  throw new Error('expected a VaultError');
}

/** Flips one bit of the decoded bytes of token part `index` (2 = iv, 3 = tag, 4 = ciphertext). */
function flipByte(token: string, index: number): string {
  const parts = token.split('.');
  const bytes = Buffer.from(parts[index] ?? '', 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

function expectNoSecrets(error: VaultError): void {
  expect(error.message).not.toContain('SECRET-abc123');
  expect(error.message).not.toContain(key.toString('base64'));
  expect(error.message).not.toContain(key.toString('hex'));
}

describe('createVault', () => {
  const vault = createVault({ key });

  it('round-trips text, including empty and non-ASCII text', () => {
    for (const text of [secret, '', 'Rp10.000 — pulsa ✓ 日本']) expect(vault.decrypt(vault.encrypt(text, aad), aad)).toBe(text);
  });

  it('makes tokens v1.<keyId>.<iv>.<tag>.<ct> with a fresh IV each time', () => {
    const a = vault.encrypt(secret, aad);
    const b = vault.encrypt(secret, aad);
    expect(a).toMatch(/^v1\.f[0-9a-f]{12}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('SECRET');
    expect(vault.keyId).toBe(keyIdOf(key));
  });

  it('derives the key id from the key: two keys never share one, and the id gives nothing of the key away', () => {
    expect(keyIdOf(key)).not.toBe(keyIdOf(otherKey));
    expect(createVault({ key: Buffer.from(key) }).keyId).toBe(vault.keyId);
    expect(vault.keyId).not.toContain(key.toString('hex').slice(0, 6));
  });

  it.each([
    ['iv', 2],
    ['tag', 3],
    ['ciphertext', 4],
  ])('detects a flipped byte in the %s', (_part, index) => {
    const error = vaultError(() => vault.decrypt(flipByte(vault.encrypt(secret, aad), index), aad));
    expect(error.code).toBe('rejected');
    expect(error.message).toContain('authentication failed');
    expectNoSecrets(error);
  });

  it('rejects a token opened for another owner or another field', () => {
    const token = vault.encrypt(secret, aad);
    for (const other of ['user:124:credentials:reseller', 'user:123:credentials:gameshop', 'conversation:123:123']) {
      const error = vaultError(() => vault.decrypt(token, other));
      expect(error.code).toBe('rejected');
      expect(error.message).toContain('another owner or field');
      expectNoSecrets(error);
    }
  });

  it('names an unknown key id and says how to fix it', () => {
    const token = createVault({ key: otherKey, keyId: 'k2' }).encrypt(secret, aad);
    const error = vaultError(() => vault.decrypt(token, aad));
    expect(error.code).toBe('unknown-key');
    expect(error.message).toContain('"k2"');
    expectNoSecrets(error);
  });

  it('rejects a token whose key id was swapped for another known key', () => {
    const rotated = createVault({ key: otherKey, previousKeys: [key] });
    const token = rotated.encrypt(secret, aad).replace(`v1.${rotated.keyId}.`, `v1.${keyIdOf(key)}.`);
    expect(vaultError(() => rotated.decrypt(token, aad)).code).toBe('rejected');
  });

  it('opens tokens of a previous key after rotation and tells which tokens to re-encrypt', () => {
    const old = vault.encrypt(secret, aad);
    const rotated = createVault({ key: otherKey, previousKeys: [key] });
    expect(rotated.decrypt(old, aad)).toBe(secret);
    expect(rotated.isCurrent(old)).toBe(false);
    expect(rotated.isCurrent(rotated.encrypt(secret, aad))).toBe(true);
  });

  it('reseals a token of a previous key under the current key, and leaves a current one as it is', () => {
    const rotated = createVault({ key: otherKey, previousKeys: [key] });
    const resealed = rotated.reseal(vault.encrypt(secret, aad), aad);
    expect(rotated.isCurrent(resealed)).toBe(true);
    expect(createVault({ key: otherKey }).decrypt(resealed, aad)).toBe(secret);
    expect(rotated.reseal(resealed, aad)).toBe(resealed);
    expect(vaultError(() => rotated.reseal(vault.encrypt(secret, aad), 'user:9:credentials:reseller')).code).toBe('rejected');
  });

  it(`opens tokens from before derived key ids ("${legacyKeyId}") with whichever configured key sealed them`, () => {
    const legacy = (sealer: Buffer) => createVault({ key: sealer, keyId: legacyKeyId }).encrypt(secret, aad);
    expect(createVault({ key }).decrypt(legacy(key), aad)).toBe(secret);
    const rotated = createVault({ key: otherKey, previousKeys: [key] });
    expect(rotated.decrypt(legacy(key), aad)).toBe(secret);
    expect(rotated.isCurrent(legacy(otherKey))).toBe(false);
    const error = vaultError(() => createVault({ key: otherKey }).decrypt(legacy(key), aad));
    expect(error.code).toBe('rejected');
    expectNoSecrets(error);
  });

  it('rejects malformed tokens', () => {
    const token = vault.encrypt(secret, aad);
    for (const bad of ['', 'garbage', token.replace(/^v1/, 'v2'), `${token}.extra`, token.replace(/\.([^.]+)$/, '.!!!')]) {
      expect(vaultError(() => vault.decrypt(bad, aad)).code).toBe('malformed');
    }
  });

  it('refuses keys that are not 32 bytes and bad key ids', () => {
    expect(vaultError(() => createVault({ key: Buffer.alloc(16) })).message).toContain('openssl rand -base64 32');
    expect(vaultError(() => createVault({ key, keyId: 'has.dot' })).code).toBe('bad-key');
    expect(vaultError(() => createVault({ key, previousKeys: [Buffer.alloc(31)] })).message).toContain('previous #1');
  });
});

describe('parseEncryptionKey', () => {
  const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 250) % 256));

  it('accepts 32 bytes as base64, url-safe base64 and hex', () => {
    expect(parseEncryptionKey(bytes.toString('base64')).equals(bytes)).toBe(true);
    expect(parseEncryptionKey(bytes.toString('base64url')).equals(bytes)).toBe(true);
    expect(parseEncryptionKey(`${bytes.toString('base64url')}=`).equals(bytes)).toBe(true);
    expect(parseEncryptionKey(bytes.toString('hex')).equals(bytes)).toBe(true);
    expect(parseEncryptionKey(bytes.toString('hex').toUpperCase()).equals(bytes)).toBe(true);
    expect(parseEncryptionKey(`  ${bytes.toString('base64')}\n`).equals(bytes)).toBe(true);
  });

  it.each([
    ['a short base64 value', 'c2hvcnQ='],
    ['a passphrase', 'my-secret-passphrase-not-a-key'],
    ['31 bytes of base64', Buffer.alloc(31, 5).toString('base64')],
    ['33 bytes of base64', Buffer.alloc(33, 5).toString('base64')],
    ['63 hex characters', 'a'.repeat(63)],
    ['base64 with non-zero padding bits', `${Buffer.alloc(32, 5).toString('base64').slice(0, 42)}B=`],
    ['an empty value', ''],
  ])('rejects %s with a message saying how to make a key', (_what, value) => {
    const error = vaultError(() => parseEncryptionKey(value));
    expect(error.message).toContain('openssl rand -base64 32');
    expect(error.message).toContain('base64');
    expect(error.message).toContain('hex');
    if (value.length > 0) expect(error.message).not.toContain(value);
  });
});
