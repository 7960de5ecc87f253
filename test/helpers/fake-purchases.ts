/**
 * A purchase service for the settlement watcher alone: each check answers "still Pending" and
 * moves the transaction's next check an hour on (as the real one moves it by its back-off), after
 * `answer()` resolves (the move is in memory at once; its write is not waited for). It counts the calls and the most in flight at once, overall and per account.
 */
import type { PurchaseService } from '../../src/services/purchases.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';
import type { Store } from '../../src/store/store.ts';

export interface FakePurchases {
  service: PurchaseService;
  /** refId → how many times it was checked (or submitted). */
  readonly calls: Map<string, number>;
  /** The time (ms of `now()`) each refId was first checked. */
  readonly firstCheckedAt: Map<string, number>;
  readonly maxInFlight: { overall: number; perAccount: number };
  /** Resolves once `count` different transactions were checked. */
  checked(count: number): Promise<void>;
  /** Resolves once every one of `refIds` was checked. */
  checkedAll(refIds: readonly string[]): Promise<void>;
}

export function fakePurchases(
  store: Store,
  options: {
    now: () => Date;
    answer?: () => Promise<void>;
    nextCheckInMs?: number;
    /** Wait for the store write of each answer (as the real purchase service does for answers that must be on disk). Default false. */
    awaitWrites?: boolean;
    /**
     * Store each answer as the real purchase service stores a still-Pending re-check: a deferred
     * write (`deferWrite`), shared with the next write or made within a second. Default false.
     */
    deferWrites?: boolean;
  },
): FakePurchases {
  const calls = new Map<string, number>();
  const firstCheckedAt = new Map<string, number>();
  const maxInFlight = { overall: 0, perAccount: 0 };
  const running = new Map<number, number>();
  let overall = 0;
  const waiting: Array<{ done: () => boolean; resolve: () => void }> = [];
  const until = (done: () => boolean) => (done() ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ done, resolve })));
  const answer = options.answer ?? (() => Promise.resolve());

  const call = async (refId: string): Promise<TransactionRecord> => {
    const tx = store.transactions.get(refId);
    if (!tx) throw new Error(`fake purchases: ${refId} is not open`);
    overall += 1;
    running.set(tx.userId, (running.get(tx.userId) ?? 0) + 1);
    maxInFlight.overall = Math.max(maxInFlight.overall, overall);
    maxInFlight.perAccount = Math.max(maxInFlight.perAccount, running.get(tx.userId) ?? 0);
    try {
      await answer();
      const at = options.now().getTime();
      calls.set(refId, (calls.get(refId) ?? 0) + 1);
      if (!firstCheckedAt.has(refId)) firstCheckedAt.set(refId, at);
      const nextCheckAt = new Date(at + (options.nextCheckInMs ?? 3600_000)).toISOString();
      // The change is in memory (and in the due-time index) at once; not waiting for its write
      // lets many checks share one write, which keeps a test of thousands of checks fast.
      const updated = store.transactions.update(
        refId,
        { status: 'Pending', nextCheckAt, checks: tx.checks + 1 },
        options.deferWrites ? { deferWrite: true } : {},
      );
      updated.catch(() => undefined);
      if (options.awaitWrites) await updated;
      for (const wait of waiting.filter((w) => w.done())) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
      return { ...tx, status: 'Pending', nextCheckAt };
    } finally {
      overall -= 1;
      running.set(tx.userId, (running.get(tx.userId) ?? 1) - 1);
    }
  };

  const service = {
    check: (refId: string) => call(refId),
    submit: (refId: string) => call(refId),
    markUnresolved: (refId: string) => store.transactions.settle(refId, { status: 'Unresolved' }),
  } as Pick<PurchaseService, 'check' | 'submit' | 'markUnresolved'> as PurchaseService;

  return {
    service,
    calls,
    firstCheckedAt,
    maxInFlight,
    checked: (count) => until(() => calls.size >= count),
    checkedAll: (refIds) => until(() => refIds.every((refId) => calls.has(refId))),
  };
}
