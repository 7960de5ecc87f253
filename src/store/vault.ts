import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Why the vault refused: a bad key setting, a token it cannot read, or one that fails authentication. */
export type VaultErrorCode = 'bad-key' | 'malformed' | 'unknown-key' | 'rejected';

/** Thrown by the vault. Messages never contain plaintext or key material. */
export class VaultError extends Error {
  readonly code: VaultErrorCode;
  constructor(code: VaultErrorCode, message: string) {
    super(message);
    this.name = 'VaultError';
    this.code = code;
  }
}

/** Encrypts small strings (credentials, conversation state) for storage at rest. */
export interface Vault {
  /** Id of the key new tokens are sealed with. */
  readonly keyId: string;
  /**
   * Seals `plaintext` into a token `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts).
   * `aad` names the owner and field (e.g. `user:123:credentials:reseller`); the token only opens
   * with the same `aad`, so a sealed value cannot be moved to another user or field.
   */
  encrypt(plaintext: string, aad: string): string;
  /** Opens a token made by `encrypt` with the same `aad`. Throws VaultError if it cannot. */
  decrypt(token: string, aad: string): string;
  /** True if `token` is sealed with the current key (false means: re-encrypt it when rotating). */
  isCurrent(token: string): boolean;
}

export interface VaultOptions {
  /** 32-byte AES-256 key; see parseEncryptionKey. */
  key: Buffer;
  /** Id written into every token, so a later key rotation knows which key sealed it. Default `k1`. */
  keyId?: string;
  /** Older keys that may still open tokens (key rotation); never used to encrypt. */
  previousKeys?: Record<string, Buffer>;
}

const tokenVersion = 'v1';
const ivBytes = 12;
const tagBytes = 16;
const keyIdPattern = /^[A-Za-z0-9_-]{1,32}$/;
const base64urlPattern = /^[A-Za-z0-9_-]*$/;
const keyHelp = 'generate one with `openssl rand -base64 32`';

/**
 * Creates the vault: AES-256-GCM with a random 12-byte IV and a 16-byte tag per token. The AAD
 * covers the token header (version and key id) and the caller's owner/field label.
 */
export function createVault(options: VaultOptions): Vault {
  const keyId = options.keyId ?? 'k1';
  const keys = new Map<string, Buffer>();
  for (const [id, key] of Object.entries(options.previousKeys ?? {})) keys.set(checkKeyId(id), checkKey(key, id));
  const current = checkKey(options.key, checkKeyId(keyId));
  const previous = keys.get(keyId);
  if (previous && !previous.equals(current)) {
    throw new VaultError(
      'bad-key',
      `Key id "${keyId}" is used for the current key and a different previous key; give the new key a new id.`,
    );
  }
  keys.set(keyId, current);

  const headerAad = (id: string, aad: string) => Buffer.from(`${tokenVersion}.${id}|${aad}`, 'utf8');

  return {
    keyId,
    encrypt(plaintext, aad) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', current, iv, { authTagLength: tagBytes });
      cipher.setAAD(headerAad(keyId, aad));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [tokenVersion, keyId, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    decrypt(token, aad) {
      const parts = token.split('.');
      if (parts.length !== 5 || parts[0] !== tokenVersion) {
        throw new VaultError('malformed', `Cannot decrypt the value for "${aad}": it is not a ${tokenVersion} vault token.`);
      }
      const [, id = '', ivText = '', tagText = '', ctText = ''] = parts;
      const key = keys.get(id);
      if (!key) {
        throw new VaultError(
          'unknown-key',
          `Cannot decrypt the value for "${aad}": it was sealed with key id "${id}", which this kiosbot does not have. ` +
            'Configure that key (as the current or a previous key) to read it.',
        );
      }
      const iv = decodePart(ivText, aad);
      const tag = decodePart(tagText, aad);
      const ciphertext = decodePart(ctText, aad);
      if (iv.length !== ivBytes || tag.length !== tagBytes) {
        throw new VaultError('malformed', `Cannot decrypt the value for "${aad}": the token's IV or tag has the wrong length.`);
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes });
        decipher.setAAD(headerAad(id, aad));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new VaultError(
          'rejected',
          `Cannot decrypt the value for "${aad}": authentication failed. The token was altered, or it belongs to another owner or field.`,
        );
      }
    },
    isCurrent(token) {
      return token.startsWith(`${tokenVersion}.${keyId}.`);
    },
  };
}

/**
 * Parses ENCRYPTION_KEY: 32 bytes written as base64 (44 characters with `=` padding, or 43
 * url-safe characters without it) or as 64 hex characters. Throws VaultError saying how to make
 * one; the message never repeats the value.
 */
export function parseEncryptionKey(text: string): Buffer {
  const value = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(value)) key = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=$/.test(value)) key = canonical(value, 'base64');
  else if (/^[A-Za-z0-9_-]{43}=?$/.test(value)) key = canonical(value.replace(/=$/, ''), 'base64url');
  if (!key || key.length !== 32) {
    throw new VaultError(
      'bad-key',
      `must be 32 random bytes written as base64 (44 characters) or hex (64 characters), got ${value.length} characters; ${keyHelp}`,
    );
  }
  return key;
}

/** Decodes base64 only if it re-encodes to the same text (rejects stray or non-zero padding bits). */
function canonical(text: string, encoding: 'base64' | 'base64url'): Buffer | undefined {
  const bytes = Buffer.from(text, encoding);
  return bytes.toString(encoding) === text ? bytes : undefined;
}

function decodePart(text: string, aad: string): Buffer {
  const bytes = base64urlPattern.test(text) ? canonical(text, 'base64url') : undefined;
  if (!bytes) throw new VaultError('malformed', `Cannot decrypt the value for "${aad}": the token is not valid base64url.`);
  return bytes;
}

function checkKeyId(id: string): string {
  if (!keyIdPattern.test(id)) {
    throw new VaultError('bad-key', `Key id "${id}" is invalid: use 1-32 characters of A-Z, a-z, 0-9, _ and -.`);
  }
  return id;
}

function checkKey(key: Buffer, id: string): Buffer {
  if (!Buffer.isBuffer(key) || key.length !== 32) {
    throw new VaultError('bad-key', `The encryption key "${id}" must be exactly 32 bytes; ${keyHelp}`);
  }
  return Buffer.from(key);
}

/** Vault AAD of the key check value; nothing else is sealed under it. */
export const keyCheckAad = 'kiosbot:key-check';
const keyCheckText = 'kiosbot encryption key check v1';

/** A key check value: a known text sealed with the vault's current key (see verifyKeyCheck). */
export function sealKeyCheck(vault: Vault): { keyId: string; sealed: string } {
  return { keyId: vault.keyId, sealed: vault.encrypt(keyCheckText, keyCheckAad) };
}

/**
 * Whether `sealed` (from sealKeyCheck) opens with this vault's keys. Returns a short reason when
 * it does not (never any key material), or undefined when the key fits.
 */
export function verifyKeyCheck(vault: Vault, sealed: string): string | undefined {
  try {
    return vault.decrypt(sealed, keyCheckAad) === keyCheckText ? undefined : 'its key check value holds the wrong text';
  } catch (error) {
    if (error instanceof VaultError && error.code === 'unknown-key')
      return 'its key check value was sealed with a key id this kiosbot does not have';
    return 'its key check value does not open with this key';
  }
}
