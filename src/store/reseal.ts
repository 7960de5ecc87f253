import type { DurableFile } from './durable-file.ts';
import { conversationSecret, credentialSecret } from './key-audit.ts';
import type { HotData } from './schema.ts';
import type { UserShardData, UserShards } from './user-shards.ts';
import { sealKeyCheck, type Vault } from './vault.ts';

/** The kinds of sealed values kiosbot stores. */
export type SecretKind = 'credentials' | 'conversations' | 'inbox';

/** What a key rotation did: how many secrets it sealed again, and which it could not open. */
export interface ResealReport {
  /** Secrets sealed again with the current key, by kind (those already current are not counted). */
  resealed: Record<SecretKind, number>;
  /** Secrets no configured key opens, named by owner (never by content); left as they were. */
  unreadable: string[];
}

/** One sealed value of a file: what it is, the AAD it was sealed for, and how to replace it. */
export interface SealedValue {
  kind: SecretKind;
  token: string;
  aad: string;
  /** Who owns it, for the report. */
  name: string;
  /** Puts a new token in its place (in the file's data). */
  put: (token: string) => void;
}

/**
 * Seals the stale values `secretsOf` finds in `file` with the current key in one write (with
 * `alsoChange`), then writes the file again so its `.bak` holds only current tokens too — both
 * even when nothing was stale (an earlier run may have died between them). A crash anywhere
 * leaves tokens of one key or both, which the vault opens while both are configured.
 */
export async function resealFile<T>(
  file: DurableFile<T>,
  vault: Vault,
  secretsOf: (data: T) => SealedValue[],
  alsoChange?: (data: T) => void,
): Promise<ResealReport> {
  const report: ResealReport = { resealed: { credentials: 0, conversations: 0, inbox: 0 }, unreadable: [] };
  const fresh: Array<{ value: SealedValue; token: string }> = [];
  for (const value of secretsOf(file.data)) {
    if (vault.isCurrent(value.token)) continue;
    try {
      fresh.push({ value, token: vault.reseal(value.token, value.aad) });
    } catch {
      report.unreadable.push(value.name);
    }
  }
  // Synchronous from the scan to here: `put` writes into the very data the scan read.
  await file.update((data) => {
    for (const { value, token } of fresh) value.put(token);
    alsoChange?.(data);
  });
  await file.update(() => undefined);
  for (const { value } of fresh) report.resealed[value.kind] += 1;
  return report;
}

/** The sealed values of a users' shard file: its users' credentials and conversation states. */
export function shardSecrets(data: Pick<UserShardData, 'credentials' | 'conversations'>): SealedValue[] {
  const credentials = Object.entries(data.credentials).map(([key, record]): SealedValue => ({
    kind: 'credentials',
    ...credentialSecret(key, record),
    put: (token) => {
      record.sealed = token;
    },
  }));
  const conversations = Object.entries(data.conversations).map(([key, token]): SealedValue => ({
    kind: 'conversations',
    ...conversationSecret(key, token),
    put: (sealed) => {
      data.conversations[key] = sealed;
    },
  }));
  return [...credentials, ...conversations];
}

/** Re-seals the secrets of every shard file with the current key (a never-written empty one is left alone). */
export async function resealShards(shards: UserShards, vault: Vault): Promise<ResealReport> {
  const report: ResealReport = { resealed: { credentials: 0, conversations: 0, inbox: 0 }, unreadable: [] };
  for (const shard of shards.all) {
    if (!shard.existed && shardSecrets(shard.data).length === 0) continue;
    const done = await resealFile(shard, vault, shardSecrets);
    report.resealed.credentials += done.resealed.credentials;
    report.resealed.conversations += done.resealed.conversations;
    report.unreadable.push(...done.unreadable);
  }
  return report;
}

/**
 * A key rotation's last step: with `everySecretOpens`, the hot file's key check sealed with the
 * current key; else left, so a start with the new key alone is still refused. Written twice either way.
 */
export function resealHot(hot: DurableFile<HotData>, vault: Vault, now: () => Date, everySecretOpens: boolean): Promise<ResealReport> {
  const checkStale = !hot.data.keyCheck || !vault.isCurrent(hot.data.keyCheck.sealed);
  return resealFile(
    hot,
    vault,
    () => [],
    everySecretOpens && checkStale
      ? (data) => {
          data.keyCheck = { ...sealKeyCheck(vault), at: now().toISOString() };
        }
      : undefined,
  );
}
