/**
 * The PostgreSQL connections one instance opens (DATABASE_POOL_SIZE), and how they are shared.
 * Pure (no driver), so the configuration can name its default.
 */

/** DATABASE_POOL_SIZE's default: every connection one instance may open. */
export const defaultConnectionBudget = 20;

/**
 * How an instance's `total` connections are shared: half, rounded down, hold chat locks (one per
 * chat handled at once, a broadcast's leader, each periodic fleet pass; others wait their turn), one
 * holds the send claims, the rest run queries. Never more than `total` (at least 5: 2, 1 and 2).
 */
export function connectionBudget(total: number): { queries: number; chatLocks: number; sendClaims: number } {
  const chatLocks = Math.max(2, Math.floor(total / 2));
  return { queries: Math.max(2, total - chatLocks - 1), chatLocks, sendClaims: 1 };
}
