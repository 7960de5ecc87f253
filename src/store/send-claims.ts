/**
 * One sender per ref at a time (DESIGN invariant 8), in one process: the lowdb engine's
 * `sendClaims`, and the in-process half of PostgreSQL's (pg/send-claims.ts). The conversation sends
 * a new purchase itself; the settlement watcher re-checks open ones; a user taps "check again".
 * Two of them must never talk to the provider about the same ref id at the same time: the second
 * would race the first's answer into the store, and with a provider that treats a repeated ref id
 * as a new purchase it could even debit twice.
 */
import { createKeyedQueue } from '../queue.ts';
import type { SendClaimStore } from './contract.ts';

/**
 * Claims held in this process's memory: enough when one process owns the data directory (the
 * lowdb store's lock guarantees that). Waiters queue in call order. In one process a claim cannot
 * be lost while its task runs: `held` is never aborted.
 */
export function createInProcessSendClaims(): SendClaimStore {
  const queue = createKeyedQueue<string>();
  return { withClaim: (refId, task) => queue.run(refId, (waited) => task({ waited, held: new AbortController().signal })) };
}
