/**
 * The key check on PostgreSQL: `store_meta.key_check` holds a value sealed with the fleet's key,
 * written by the first instance that opens the database (or by `npm run migrate-store`).
 *
 * An instance is refused at start, before it touches a secret, when its keys do not open that
 * value, when a stored secret was sealed with a key it lacks (key-audit.ts), or when its
 * ENCRYPTION_KEY is not the one the value was sealed with: whatever one instance seals the others
 * must open. So a rotation's new key is refused on a database too (`npm run rotate-key` refuses
 * DATABASE_URL): it would seal credentials the old-key instances cannot read.
 */
import { first, type Queryable } from './db.ts';
import { conversationAad } from '../records/conversations.ts';
import { credentialsAad } from '../records/credentials.ts';
import { StoreKeyError } from '../errors.ts';
import { inboxAad } from '../records/updates.ts';
import { describeUnreadable, findUnreadable, type StoredSecret } from '../key-audit.ts';
import type { ServiceName } from '../../domain.ts';
import { legacyKeyId, sealKeyCheck, verifyKeyCheck, type Vault } from '../vault.ts';

interface StoredKeyCheck {
  keyId: string;
  sealed: string;
  at: string;
}

/** What to do when the fleet's key does not fit: the data directory's advice (finish a rotation) does not apply. */
const fleetAdvice =
  'Give this instance the ENCRYPTION_KEY every other instance of the fleet runs with (the key the database was created with); ' +
  'this kiosbot cannot change the key of a PostgreSQL database, so keep that key.';

/**
 * Writes the key check value unless there is one (the first writer wins); with `replace`, over any
 * earlier one (a copy of a data directory, whose key was just verified against its data, decides).
 */
export async function writePgKeyCheck(db: Queryable, vault: Vault, at: Date, options: { replace?: boolean } = {}): Promise<void> {
  const value: StoredKeyCheck = { ...sealKeyCheck(vault), at: at.toISOString() };
  const onConflict = options.replace ? 'DO UPDATE SET value = EXCLUDED.value' : 'DO NOTHING';
  await db.query(`INSERT INTO store_meta (key, value) VALUES ('key_check', $1) ON CONFLICT (key) ${onConflict}`, [value]);
}

/**
 * Refuses (StoreKeyError) a vault that does not fit the database (see the module comment); on a
 * database without a key check value whose secrets all open, writes one first. Never replaces one.
 */
export async function checkPgKey(db: Queryable, vault: Vault, where: string, at: Date): Promise<void> {
  const unreadable = findUnreadable(vault, await secretsOfOtherKeys(db, vault));
  // The first writer wins (two instances starting on an empty database): both then check the value that won.
  if (unreadable.names.length === 0) await writePgKeyCheck(db, vault, at);
  const stored = await first<StoredKeyCheck>(db, 'value', `SELECT value FROM store_meta WHERE key = 'key_check'`);
  if (stored) {
    const problem = verifyKeyCheck(vault, stored.sealed);
    if (problem) {
      throw new StoreKeyError(where, unreadable.names.length > 0 ? `${problem}; ${describeUnreadable(unreadable)}` : problem, fleetAdvice);
    }
  }
  if (unreadable.names.length > 0) throw new StoreKeyError(where, describeUnreadable(unreadable), fleetAdvice);
  if (stored && !vault.isCurrent(stored.sealed)) {
    throw new StoreKeyError(
      where,
      `the database's secrets are sealed with key id "${stored.keyId}" (its key check value), and this instance would seal ` +
        `new ones with key id "${vault.keyId}", which the instances running with the database's key cannot open`,
      fleetAdvice,
    );
  }
}

/**
 * The stored secrets whose token names a key id other than the vault's (and every legacy token,
 * which names none): the only ones the key audit has to look at. The filter runs in the database.
 */
async function secretsOfOtherKeys(db: Queryable, vault: Vault): Promise<StoredSecret[]> {
  const known = vault.keyIds.filter((id) => id !== legacyKeyId);
  const other = (column: string) => `(split_part(${column}, '.', 2) <> ALL($1::text[]) OR split_part(${column}, '.', 1) <> 'v1')`;
  const credentials = await db.query<{ user_id: string; service: ServiceName; token: string }>(
    `SELECT user_id, service, record->>'sealed' AS token FROM credentials WHERE ${other(`record->>'sealed'`)} ORDER BY user_id, service`,
    [known],
  );
  const conversations = await db.query<{ key: string; sealed: string }>(
    `SELECT key, sealed FROM conversations WHERE ${other('sealed')} ORDER BY key`,
    [known],
  );
  const inbox = await db.query<{ update_id: string; sealed: string }>(
    `SELECT update_id, sealed FROM inbox WHERE ${other('sealed')} ORDER BY update_id`,
    [known],
  );
  return [
    ...credentials.rows.map((row) => ({
      token: row.token,
      aad: credentialsAad(Number(row.user_id), row.service),
      name: `the ${row.service} credentials of user ${row.user_id}`,
    })),
    ...conversations.rows.map((row) => ({ token: row.sealed, aad: conversationAad(row.key), name: `the conversation state ${row.key}` })),
    ...inbox.rows.map((row) => ({
      token: row.sealed,
      aad: inboxAad(Number(row.update_id)),
      name: `the stored update ${row.update_id}`,
    })),
  ];
}
