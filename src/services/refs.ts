import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/**
 * Mints a new ref_id: a ULID (26 characters, Crockford base32, time-ordered then random), so ids
 * sort by creation time and never collide across restarts. Only ever called for a new purchase
 * confirmation; retries and status checks reuse the stored one.
 */
export function mintRefId(now: Date): string {
  return nextUlid(now.getTime());
}
