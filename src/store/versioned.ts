/** The decoder of a small versioned data file (at open and for backups): a newer version is StoreVersionError, else the schema holds. */
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
