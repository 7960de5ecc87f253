/**
 * The key check on PostgreSQL, as `openStore` does it for a data directory: the database keeps a
 * value sealed with the vault's key (`store_meta.key_check`), written by the first instance that
 * opens it (or by `npm run migrate-store`, with the key the data directory was opened with). An
 * instance whose ENCRYPTION_KEY does not open it is refused before it reads or writes a secret,
 * so one misconfigured instance of a fleet cannot seal new credentials with a key the others lack.
 */
import type { Queryable } from './db.ts';
import { first } from './db.ts';
import { StoreKeyError } from '../errors.ts';
import { sealKeyCheck, verifyKeyCheck, type Vault } from '../vault.ts';

interface StoredKeyCheck {
  keyId: string;
  sealed: string;
  at: string;
}

/**
 * Writes the key check value unless there is one (the first writer wins; every instance then
 * checks against it); with `replace`, over any earlier one (a copy of a data directory, whose key
 * was just verified against its data, decides).
 */
export async function writePgKeyCheck(db: Queryable, vault: Vault, at: Date, options: { replace?: boolean } = {}): Promise<void> {
  const value: StoredKeyCheck = { ...sealKeyCheck(vault), at: at.toISOString() };
  const onConflict = options.replace ? 'DO UPDATE SET value = EXCLUDED.value' : 'DO NOTHING';
  await db.query(`INSERT INTO store_meta (key, value) VALUES ('key_check', $1) ON CONFLICT (key) ${onConflict}`, [value]);
}

/**
 * Refuses (StoreKeyError) a vault whose keys do not open the database's key check value; writes
 * one first if there is none. A value sealed with a previous key (ENCRYPTION_KEY_PREVIOUS, during
 * a rotation) is sealed again with the current one.
 */
export async function checkPgKey(db: Queryable, vault: Vault, where: string, at: Date): Promise<void> {
  await writePgKeyCheck(db, vault, at);
  const stored = await first<StoredKeyCheck>(db, 'value', `SELECT value FROM store_meta WHERE key = 'key_check'`);
  if (!stored) throw new Error('unreachable: the key check value was just written');
  const problem = verifyKeyCheck(vault, stored.sealed);
  if (problem) throw new StoreKeyError(where, problem);
  if (!vault.isCurrent(stored.sealed)) {
    const value: StoredKeyCheck = { ...sealKeyCheck(vault), at: at.toISOString() };
    await db.query(`UPDATE store_meta SET value = $1 WHERE key = 'key_check'`, [value]);
  }
}
