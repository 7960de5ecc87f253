import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Why the vault refused: a bad key setting, a token it cannot read, or one that fails authentication. */
export type VaultErrorCode = 'bad-key' | 'malformed' | 'unknown-key' | 'rejected';

/** Thrown by the vault. Messages never contain plaintext or key material. */
export class VaultError extends Error {
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VaultError';
  }
}

/** Encrypts small strings (credentials, conversation state) for storage at rest. */
export interface Vault {
  /** Id of the key new tokens are sealed with. */
  readonly keyId: string;
  /** Ids of every key this vault opens tokens with: the current one and the previous ones. */
  readonly keyIds: readonly string[];
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
  /** `token` sealed with the current key (the same token if it is already); VaultError like `decrypt`. */
  reseal(token: string, aad: string): string;
}

export interface VaultOptions {
  /** 32-byte AES-256 key; see parseEncryptionKey. */
  key: Buffer;
  /** Written into every token (a rotation knows which key sealed it); default `keyIdOf(key)`. */
  keyId?: string;
  /** Older keys that may still open tokens (key rotation, ENCRYPTION_KEY_PREVIOUS); never used to encrypt. Ids as `keyIdOf`. */
  previousKeys?: readonly Buffer[];
}

/** The key id of tokens from before ids were derived from the key: any configured key may have sealed them (GCM's tag tells which). */
export const legacyKeyId = 'k1';

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
  const current = checkKey(options.key, 'current');
  const keyId = checkKeyId(options.keyId ?? keyIdOf(current));
  const keys = new Map<string, Buffer>();
  (options.previousKeys ?? []).forEach((key, index) => {
    const checked = checkKey(key, `previous #${index + 1}`);
    keys.set(keyIdOf(checked), checked);
  });
  keys.set(keyId, current);
  // Legacy tokens: the current key first, it is the likeliest.
  const legacyCandidates = [current, ...[...keys.values()].filter((key) => key !== current)];

  const headerAad = (id: string, aad: string) => Buffer.from(`${tokenVersion}.${id}|${aad}`, 'utf8');

  const vault: Vault = {
    keyId,
    keyIds: [...keys.keys()],
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
      const candidates = key ? [key] : id === legacyKeyId ? legacyCandidates : [];
      if (candidates.length === 0) {
        throw new VaultError(
          'unknown-key',
          `Cannot decrypt the value for "${aad}": it was sealed with key id "${id}", which this kiosbot does not have. ` +
            'Configure that key (as ENCRYPTION_KEY, or as ENCRYPTION_KEY_PREVIOUS during a key rotation) to read it.',
        );
      }
      const iv = decodePart(ivText, aad);
      const tag = decodePart(tagText, aad);
      const ciphertext = decodePart(ctText, aad);
      if (iv.length !== ivBytes || tag.length !== tagBytes) {
        throw new VaultError('malformed', `Cannot decrypt the value for "${aad}": the token's IV or tag has the wrong length.`);
      }
      for (const candidate of candidates) {
        try {
          const decipher = createDecipheriv('aes-256-gcm', candidate, iv, { authTagLength: tagBytes });
          decipher.setAAD(headerAad(id, aad));
          decipher.setAuthTag(tag);
          return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
        } catch {
          // Not this key (or altered): try the next legacy candidate, if any.
        }
      }
      throw new VaultError(
        'rejected',
        `Cannot decrypt the value for "${aad}": authentication failed. The token was altered, it belongs to another owner or field, ` +
          'or it was sealed with a key this kiosbot does not have.',
      );
    },
    isCurrent(token) {
      return token.startsWith(`${tokenVersion}.${keyId}.`);
    },
    reseal(token, aad) {
      return vault.isCurrent(token) ? token : vault.encrypt(vault.decrypt(token, aad), aad);
    },
  };
  return vault;
}

/** The key id a token names (`v1.<keyId>.…`), or undefined for a value that is not a vault token. */
export function keyIdOfToken(token: string): string | undefined {
  // Called for every stored secret at each start: no split of the whole token.
  if (!token.startsWith(`${tokenVersion}.`)) return undefined;
  const end = token.indexOf('.', tokenVersion.length + 1);
  return end < 0 ? undefined : token.slice(tokenVersion.length + 1, end);
}

/**
 * The key id of a key: a short fingerprint (SHA-256 of a label and the key, 48 bits), enough to
 * tell keys apart in tokens and nowhere near enough to learn anything about the key.
 */
export function keyIdOf(key: Buffer): string {
  return `f${createHash('sha256').update('kiosbot key id\0').update(key).digest('hex').slice(0, 12)}`;
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

/** Undefined when `sealed` (sealKeyCheck's) opens with this vault's keys, else a short reason (no key material). */
export function verifyKeyCheck(vault: Vault, sealed: string): string | undefined {
  try {
    return vault.decrypt(sealed, keyCheckAad) === keyCheckText ? undefined : 'its key check value holds the wrong text';
  } catch (error) {
    if (error instanceof VaultError && error.code === 'unknown-key')
      return 'its key check value was sealed with a key id this kiosbot does not have';
    return 'its key check value does not open with this key';
  }
}
