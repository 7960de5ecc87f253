import type { DurableFile } from './durable-file.ts';
import type { HotData } from './schema.ts';
import type { UserShards } from './user-shards.ts';
import type { Vault } from './vault.ts';

/** What every repository works on: the hot file, the users' shard files, the vault and the clock. */
export interface RepoContext {
  hot: DurableFile<HotData>;
  shards: UserShards;
  /**
   * Users whose record was changed through the hot file's `pendingUsers` and whose removal from
   * there is not on disk yet (how many such changes are in flight, by user id).
   */
  copying: Map<string, number>;
  vault: Vault;
  now: () => Date;
}

/** A copy the caller may keep or change without touching the store's data. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
