/**
 * The two rules every record kind is made and changed by, in both engines: a patch removes the
 * fields it sets to `undefined`, and nothing enters a store without passing its schema.
 */
import { z } from 'zod';
import { StoreError } from '../errors.ts';

/** `base` with `patch` applied: a key set to `undefined` removes that field, every other key replaces it. */
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

/** An ISO time with its offset, as every record stores times. */
export const isoDate = z.iso.datetime({ offset: true });
