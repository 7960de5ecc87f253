import type { Store } from '../store/store.ts';
import type { TransactionRecord } from '../store/schema.ts';
import type { PurchaseService } from '../services/purchases.ts';
import type { Logger } from '../logger.ts';

export interface SettlementWatcherOptions {
  store: Store;
  purchases: PurchaseService;
  logger: Logger;
  now: () => Date;
  /** After this age a Pending transaction is marked Unresolved and never checked again. */
  horizonMs: number;
  /**
   * How often the watcher looks for due transactions. Default 1 s. A check that ends starts the
   * next due one at once, so the tick only matters for checks that become due.
   */
  tickMs?: number;
  /** Provider calls in flight at once for one account. Default 2. */
  perAccountConcurrency?: number;
  /** Provider calls in flight at once overall. Default 8. */
  concurrency?: number;
  /**
   * Called once when an account's re-checks are paused because the provider refused its
   * credentials or IP (401/403), or the user disconnected. The caller tells the user.
   */
  onAccountPaused?: (userId: number, reason: string) => void | Promise<void>;
}

export interface SettlementWatcher {
  start(): void;
  /** Stops ticking and waits for the calls in flight. */
  stop(): Promise<void>;
  /** One pass over the due transactions; resolves when their calls are done (tests drive this). */
  runOnce(): Promise<void>;
}

const accountProblems = ['credentials', 'ip_blocked', 'not-connected'] as const;

/**
 * Re-checks every transaction whose outcome is not final — Pending, an unknown outcome after a
 * timeout or 5xx, or a `Created` one that a crash left unsent — by re-sending the same ref id,
 * code and target when its stored `nextCheckAt` is due (back-off and jitter are set by the
 * purchase service, so a restart continues where it left off). Past the horizon it marks the
 * transaction Unresolved. Settlement notices are queued by the purchase service in the same write.
 * What is due comes from the transactions' due-time index (`store.transactions.due`), so a tick
 * with nothing due reads no transaction, and each pick reads only the due ones it can start.
 *
 * A refusal (400/402/404) of a re-check finalises nothing: the purchase service keeps the
 * transaction Pending on the normal schedule and asks the operator once to review it when
 * refusals repeat (DESIGN invariant 8). One sender per ref: when a due transaction is being sent
 * by someone else right now (the conversation whose hold ran out mid-send, a user's /cek), the
 * purchase service makes this check wait for that send and take its answer; it never sends the
 * same ref a second time at once.
 */
export function createSettlementWatcher(options: SettlementWatcherOptions): SettlementWatcher {
  const { store, purchases, logger } = options;
  const tickMs = options.tickMs ?? 1000;
  const perAccount = options.perAccountConcurrency ?? 2;
  const overall = options.concurrency ?? 8;
  const inFlight = new Map<string, Promise<void>>();
  const perUser = new Map<number, number>();
  /**
   * Accounts whose checks are paused, with the time of the pause; resumed by a reconnect. Kept on
   * the user record too, so a restart neither re-checks a refused account nor tells its user again.
   */
  const paused = new Map<number, number>();
  for (const user of store.users.list({ where: (candidate) => candidate.recheckPause !== undefined })) {
    if (user.recheckPause) paused.set(user.id, Date.parse(user.recheckPause.since));
  }
  /** Accounts whose pause is being announced and stored right now. */
  const pausing = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  /**
   * Transactions still `Created` when this process started: whoever was about to send them died
   * with the previous process, so they are due at once, whatever hold their nextCheckAt carries.
   */
  const orphaned = new Set(
    store.transactions
      .listOpen()
      .filter((tx) => tx.status === 'Created')
      .map((tx) => tx.refId),
  );

  const isPaused = (userId: number): boolean => {
    const since = paused.get(userId);
    if (since === undefined) return false;
    const connectedAt = store.credentials.info(userId, 'reseller')?.connectedAt;
    if (connectedAt && Date.parse(connectedAt) > since) {
      paused.delete(userId);
      logger.info('re-checks resumed after reconnect', { userId });
      store.users
        .update(userId, { recheckPause: undefined })
        .catch((error: unknown) => logger.error('could not store a resumed account', { userId, error }));
      return false;
    }
    return true;
  };

  async function handle(tx: TransactionRecord): Promise<void> {
    const now = options.now().getTime();
    if (now - Date.parse(tx.createdAt) > options.horizonMs) {
      logger.warn('transaction unresolved after the horizon', { refId: tx.refId, userId: tx.userId });
      await purchases.markUnresolved(tx.refId);
      return;
    }
    const result =
      tx.status === 'Created'
        ? await purchases.submit(tx.refId, { notifyOwner: true })
        : await purchases.check(tx.refId, { notifyOwner: true });
    const reason = accountProblems.find((problem) => problem === result.message);
    if (reason && !paused.has(tx.userId) && !pausing.has(tx.userId)) {
      pausing.add(tx.userId);
      try {
        logger.warn('re-checks paused for an account', { userId: tx.userId, reason });
        // Told first, stored second: a crash in between tells the user twice rather than never.
        await options.onAccountPaused?.(tx.userId, reason);
        await store.users.update(tx.userId, { recheckPause: { reason, since: new Date(now).toISOString() } });
        paused.set(tx.userId, now);
      } finally {
        pausing.delete(tx.userId);
      }
    }
  }

  /** Room for more calls of this account now: 0 while it is paused or at its bound. */
  const roomOf = (userId: number): number => (pausing.has(userId) || isPaused(userId) ? 0 : perAccount - (perUser.get(userId) ?? 0));

  /**
   * The orphans still `Created` (checked first, whatever their due time), then what the due-time
   * index says is due, up to the free slots. An account that cannot take a call now (paused, at
   * its bound) is skipped, not waited for; nothing due costs one comparison, not a pass over
   * every open transaction.
   */
  function dueNow(now: number, free: number): TransactionRecord[] {
    const picked: TransactionRecord[] = [];
    const room = new Map<number, number>();
    const take = (tx: TransactionRecord) => {
      picked.push(tx);
      room.set(tx.userId, (room.get(tx.userId) ?? roomOf(tx.userId)) - 1);
    };
    for (const refId of orphaned) {
      if (picked.length >= free) break;
      const tx = store.transactions.get(refId);
      if (tx?.status !== 'Created') orphaned.delete(refId);
      else if (!inFlight.has(refId) && (room.get(tx.userId) ?? roomOf(tx.userId)) > 0) take(tx);
    }
    const chosen = new Set(picked.map((tx) => tx.refId));
    const more = store.transactions.due(now, {
      limit: free - picked.length,
      room: (userId) => room.get(userId) ?? roomOf(userId),
      skip: (refId) => inFlight.has(refId) || chosen.has(refId),
    });
    return [...picked, ...more];
  }

  /** Starts the calls for the due transactions, within the concurrency bounds; does not wait. */
  function launch(): void {
    const free = overall - inFlight.size;
    if (free <= 0) return;
    for (const tx of dueNow(options.now().getTime(), free)) {
      perUser.set(tx.userId, (perUser.get(tx.userId) ?? 0) + 1);
      const job = handle(tx)
        .catch((error: unknown) => logger.error('re-check failed', { refId: tx.refId, error }))
        .finally(() => {
          inFlight.delete(tx.refId);
          perUser.set(tx.userId, (perUser.get(tx.userId) ?? 1) - 1);
          // A freed slot takes the next due check at once: the pace is set by the bounds and the
          // provider's answer time, not by the tick.
          if (timer) launch();
        });
      inFlight.set(tx.refId, job);
    }
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(launch, tickMs);
      timer.unref?.();
      launch();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.all(inFlight.values());
    },
    async runOnce() {
      launch();
      await Promise.all(inFlight.values());
    },
  };
}
