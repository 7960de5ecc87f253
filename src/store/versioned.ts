/**
 * The decoder of a small versioned data file (`balances.json`, `broadcasts.json`,
 * `price-watch.json`): a file written by a newer kiosbot is refused with StoreVersionError, any
 * other content must match the schema. Used when the store opens the file and when a backup is
 * checked or restored.
 */
import type { z } from 'zod';
import { StoreVersionError } from './errors.ts';

export function versionedDecoder<S extends z.ZodType>(
  schema: S,
  currentVersion: number,
): (raw: unknown, name: string) => { data: z.output<S> } {
  return (raw, name) => {
    const version = (raw as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && version > currentVersion) throw new StoreVersionError(name, version, currentVersion);
    return { data: schema.parse(raw) };
  };
}
