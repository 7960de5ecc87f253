/**
 * One sender per ref at a time (DESIGN invariant 8). The conversation sends a new purchase itself;
 * the settlement watcher re-checks open ones; a user taps "check again". Two of them must never
 * talk to the provider about the same ref id at the same time: the second would race the first's
 * answer into the store, and with a provider that treats a repeated ref id as a new purchase it
 * could even debit twice.
 */
import { createKeyedQueue } from '../queue.ts';

/** What the holder of a claim learns when it gets it. */
export interface SendClaim {
  /**
   * True when another sender held the ref first and this caller waited for it to finish. The
   * waiter should take that sender's answer from the store rather than ask the provider again.
   */
  waited: boolean;
}

/**
 * Who may talk to the provider about one ref id right now.
 *
 * `withClaim(refId, task)` runs `task` as the only holder of `refId`'s claim: a caller that finds
 * the claim taken waits until it is free (and is told so through `waited`), then runs. Claims of
 * different refs never wait for each other. The claim is released when `task` settles, whether it
 * resolves or throws.
 *
 * In one process (the lowdb store) this is a map of promises: {@link createInProcessSendClaims}.
 * A PostgreSQL store running several bot processes honours the same contract across processes:
 * `task` runs inside a transaction that holds `pg_advisory_xact_lock(hashtext(ref_id))`, or a
 * lease row (`UPDATE … SET claimed_by = $me, claimed_until = now() + interval '1 min' WHERE
 * ref_id = $1 AND (claimed_until IS NULL OR claimed_until < now())`, renewed while the provider
 * call runs and cleared at the end); a caller that did not get it immediately reports
 * `waited: true` and re-reads the transaction row after it did.
 */
export interface SendClaims {
  withClaim<T>(refId: string, task: (claim: SendClaim) => Promise<T>): Promise<T>;
}

/**
 * Claims held in this process's memory: enough when one process owns the data directory (the
 * lowdb store's lock guarantees that). Waiters queue in call order.
 */
export function createInProcessSendClaims(): SendClaims {
  const queue = createKeyedQueue<string>();
  return { withClaim: (refId, task) => queue.run(refId, (waited) => task({ waited })) };
}
