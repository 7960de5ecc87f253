/**
 * Which stored secrets the configured keys open, by the key id each token names (only legacy `k1`
 * tokens are opened). Start-up and restore refuse data with unreadable secrets, so a missing key
 * shows at once, named, not as one failed purchase after another.
 */
import { conversationAad } from './records/conversations.ts';
import { credentialsAad } from './records/credentials.ts';
import type { UserShardData } from './user-shards.ts';
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

/** The sealed values of a users' shard as the audit reads them: credentials and conversation states. */
export type ShardSecrets = Pick<UserShardData, 'credentials' | 'conversations'>;

/**
 * The secrets of `secrets` and `shards` no key of the vault opens. A shard's secret is read in
 * place (this runs over every user's at every start): its name and AAD are made only when needed.
 */
export function findUnreadable(vault: Vault, secrets: Iterable<StoredSecret>, shards: Iterable<ShardSecrets> = []): UnreadableSecrets {
  const known = new Set(vault.keyIds);
  const names: string[] = [];
  const keyIds = new Set<string>();
  /** Whether `token` is sealed with one of the vault's keys, by its key id alone (false for a legacy token: it must be opened). */
  const knownKey = (token: string) => {
    const id = keyIdOfToken(token);
    return id !== undefined && id !== legacyKeyId && known.has(id);
  };
  const examine = (secret: StoredSecret) => {
    const id = keyIdOfToken(secret.token);
    if (id === legacyKeyId ? opens(vault, secret) : id !== undefined && known.has(id)) return;
    names.push(secret.name);
    keyIds.add(id ?? 'none');
  };
  for (const shard of shards) {
    for (const key in shard.credentials) {
      const record = shard.credentials[key]!;
      if (!knownKey(record.sealed)) examine(credentialSecret(key, record));
    }
    for (const key in shard.conversations) {
      const token = shard.conversations[key]!;
      if (!knownKey(token)) examine(conversationSecret(key, token));
    }
  }
  for (const secret of secrets) examine(secret);
  return { names, keyIds: [...keyIds].sort() };
}

/** Whether every secret is sealed with the current key (a legacy token counts when the vault has no other key). */
export function allSealedWithCurrentKey(vault: Vault, secrets: Iterable<StoredSecret>, shards: Iterable<ShardSecrets> = []): boolean {
  const current = (token: string) => vault.isCurrent(token) || (keyIdOfToken(token) === legacyKeyId && vault.keyIds.length === 1);
  for (const shard of shards) {
    for (const key in shard.credentials) if (!current(shard.credentials[key]!.sealed)) return false;
    for (const key in shard.conversations) if (!current(shard.conversations[key]!)) return false;
  }
  for (const secret of secrets) if (!current(secret.token)) return false;
  return true;
}

/** The stored credentials `record` (keyed `<userId>:<service>` in its shard) as the audit names them. */
export function credentialSecret(key: string, record: ShardSecrets['credentials'][string]): StoredSecret {
  const userId = Number(key.slice(0, key.indexOf(':')));
  return { token: record.sealed, aad: credentialsAad(userId, record.service), name: `the ${record.service} credentials of user ${userId}` };
}

/** The stored conversation state `token` (keyed `key` in its shard) as the audit names it. */
export function conversationSecret(key: string, token: string): StoredSecret {
  return { token, aad: conversationAad(key), name: `the conversation state ${key}` };
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
