/**
 * The PostgreSQL connections one instance opens (DATABASE_POOL_SIZE), and how they are shared.
 * Pure (no driver), so the configuration can name its default.
 */

/** DATABASE_POOL_SIZE's default: every connection one instance may open. */
export const defaultConnectionBudget = 20;

/**
 * How an instance's `total` connections are shared: half, rounded down, hold chat locks (each chat
 * handled at once holds one while its update runs, a broadcast's leader and each periodic fleet pass
 * one each; a chat finding them all taken waits its turn), one holds the send claims, the rest run queries. Neither pool ever
 * opens more, so an instance never has more than `total` (5 at least: 2 chat locks, 1 send claims, 2 queries).
 */
export function connectionBudget(total: number): { queries: number; chatLocks: number; sendClaims: number } {
  const chatLocks = Math.max(2, Math.floor(total / 2));
  // One connection holds every send claim of the instance (send-claims.ts); it comes off the queries' share.
  return { queries: Math.max(2, total - chatLocks - 1), chatLocks, sendClaims: 1 };
}
