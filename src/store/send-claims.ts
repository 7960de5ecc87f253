/**
 * One sender per ref at a time (DESIGN invariant 8) in one process: the lowdb engine's
 * `sendClaims`, and the in-process half of PostgreSQL's. The purchase flow, the watcher and a
 * "check again" tap must never ask the provider about one ref at once: the second would race the
 * first's answer, and a provider that takes a repeated ref id as a new purchase could debit twice.
 */
import { createKeyedQueue } from '../queue.ts';
import type { SendClaimStore } from './contract.ts';

/** Claims in this process's memory (one process owns the data directory); waiters in call order; `held` never aborts. */
export function createInProcessSendClaims(): SendClaimStore {
  const queue = createKeyedQueue<string>();
  return { withClaim: (refId, task) => queue.run(refId, (waited) => task({ waited, held: new AbortController().signal })) };
}
