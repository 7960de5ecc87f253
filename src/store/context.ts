import type { z } from 'zod';
import type { DurableFile } from './durable-file.ts';
import { StoreError } from './errors.ts';
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

/**
 * Returns `base` with `patch` applied: a key set to `undefined` removes that field, every other
 * key replaces it.
 */
export function withPatch<T extends object>(base: T, patch: object): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out as T;
}

/** Validates a record before it enters the store; a bad one throws StoreError('invalid') naming the fields. */
export function validated<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(record)'}: ${issue.message}`)
    .join('; ');
  throw new StoreError('invalid', `Refusing to store an invalid ${what}: ${problems}`);
}
