/**
 * Which stored secrets the configured keys open, decided without opening them: every token names
 * the id of the key that sealed it (vault.ts), so a token whose id is not among the vault's keys
 * cannot be read, whatever it holds. Only tokens from before key ids were derived from the key
 * (id `k1`) say nothing about their key: those are opened. The store and the PostgreSQL engine
 * refuse to start on data with such secrets, and a restore refuses such a backup, so that a
 * missing key shows at start-up, named, instead of as one failed purchase after another.
 */
import { keyIdOfToken, legacyKeyId, type Vault } from './vault.ts';

/** One stored secret as the audit sees it. */
export interface StoredSecret {
  token: string;
  /** The AAD it was sealed for (needed to open a legacy token). */
  aad: string;
  /** Who owns it, for messages ("the reseller credentials of user 7"); never its content. */
  name: string;
}

/** Secrets none of the vault's keys opens: their names, and the ids of the keys they were sealed with. */
export interface UnreadableSecrets {
  names: string[];
  keyIds: string[];
}

/** The secrets of `secrets` that none of the vault's keys opens (see the module comment). */
export function findUnreadable(vault: Vault, secrets: Iterable<StoredSecret>): UnreadableSecrets {
  const known = new Set(vault.keyIds);
  const names: string[] = [];
  const keyIds = new Set<string>();
  for (const secret of secrets) {
    const id = keyIdOfToken(secret.token);
    if (id === legacyKeyId ? opens(vault, secret) : id !== undefined && known.has(id)) continue;
    names.push(secret.name);
    keyIds.add(id ?? 'none');
  }
  return { names, keyIds: [...keyIds].sort() };
}

/** Whether every secret is sealed with the vault's current key (a legacy token counts when the vault has no other key). */
export function allSealedWithCurrentKey(vault: Vault, secrets: Iterable<StoredSecret>): boolean {
  for (const secret of secrets) {
    if (vault.isCurrent(secret.token)) continue;
    if (keyIdOfToken(secret.token) === legacyKeyId && vault.keyIds.length === 1) continue;
    return false;
  }
  return true;
}

/** Names shown in one message at most; the rest are counted. */
const namesShown = 10;

/** A sentence for an operator naming the unreadable secrets (by owner) and the key ids they need. */
export function describeUnreadable(found: UnreadableSecrets): string {
  const shown = found.names.slice(0, namesShown).join('; ');
  const more = found.names.length > namesShown ? ` and ${found.names.length - namesShown} more` : '';
  const ids = found.keyIds.map((id) => `"${id}"`).join(', ');
  return (
    `${found.names.length} stored secret${found.names.length === 1 ? ' is' : 's are'} sealed with a key that is neither ENCRYPTION_KEY nor in ENCRYPTION_KEY_PREVIOUS ` +
    `(key id ${ids}): ${shown}${more}`
  );
}

function opens(vault: Vault, secret: StoredSecret): boolean {
  try {
    vault.decrypt(secret.token, secret.aad);
    return true;
  } catch {
    return false;
  }
}
