import { singleProcessClaims, type ClaimTokens } from '../store/claim-holder.ts';
import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.ts';
import type { TransactionRecord } from '../store/records/transactions.ts';
import type { PurchaseService } from '../services/purchases.ts';
import type { Logger } from '../logger.ts';

export interface SettlementWatcherOptions {
  db: Db;
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
  /**
   * Whether the `Created` transactions found at start are this process's orphans, sent at once
   * (default true: one process owns the store). Off on a shared store, where another live
   * instance may be sending them right now: they are checked when due, under a claim, like the rest.
   */
  orphansAtStart?: boolean;
  /**
   * The process's claims: due checks are claimed under its token and made only while that token
   * holds (a fleet instance's heartbeat renews it; a check's answer ends its claim sooner, and an
   * instance that dies lets it go after the lease). Default: a single process's own, default lease.
   */
  claims?: ClaimTokens;
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
  const { db, purchases, logger } = options;
  const tickMs = options.tickMs ?? 1000;
  const perAccount = options.perAccountConcurrency ?? 2;
  const overall = options.concurrency ?? 8;
  const claims = options.claims ?? singleProcessClaims(`watcher-${randomUUID()}`);
  const inFlight = new Map<string, Promise<void>>();
  const perUser = new Map<number, number>();
  /**
   * Accounts whose checks are paused, with the time of the pause; resumed by a reconnect. Kept on
   * the user record too, so a restart neither re-checks a refused account nor tells its user again.
   */
  const paused = new Map<number, number>();
  /** Accounts whose pause is being announced and stored right now. */
  const pausing = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  /**
   * Transactions still `Created` when this process started: whoever was about to send them died
   * with the previous process, so they are due at once, whatever hold their nextCheckAt carries.
   */
  const orphaned = new Set<string>();
  /** Read once, when the watcher is made (the first pass waits for it). */
  const load = async () => {
    const open = db.transactions.listOpen();
    const pausedUsers = db.users.list({ where: (candidate) => candidate.recheckPause !== undefined });
    if (options.orphansAtStart ?? true) for (const tx of await open) if (tx.status === 'Created') orphaned.add(tx.refId);
    for (const user of await pausedUsers) {
      if (user.recheckPause) paused.set(user.id, Date.parse(user.recheckPause.since));
    }
  };
  const loaded = load();
  // Reported by the first pass that waits for it.
  loaded.catch(() => undefined);

  /** Resumes the paused accounts that were connected again since their pause. */
  async function resumeReconnected(): Promise<void> {
    for (const [userId, since] of paused) {
      const connectedAt = (await db.credentials.info(userId, 'reseller'))?.connectedAt;
      if (!connectedAt || Date.parse(connectedAt) <= since) continue;
      paused.delete(userId);
      logger.info('re-checks resumed after reconnect', { userId });
      db.users
        .update(userId, { recheckPause: undefined })
        .catch((error: unknown) => logger.error('could not store a resumed account', { userId, error }));
    }
  }

  async function handle(tx: TransactionRecord, owner: string | undefined): Promise<void> {
    // Paused past the lease since the claim: the check may be another instance's now.
    if (owner !== undefined && !claims.holds(owner)) {
      logger.warn('claim on a due check lost before it was made (this instance was paused past its lease): not made here', {
        refId: tx.refId,
      });
      return;
    }
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
        await db.users.update(tx.userId, { recheckPause: { reason, since: new Date(now).toISOString() } });
        paused.set(tx.userId, now);
      } finally {
        pausing.delete(tx.userId);
      }
    }
  }

  /** Room for more calls of this account now: 0 while it is paused or at its bound. */
  const roomOf = (userId: number): number => (pausing.has(userId) || paused.has(userId) ? 0 : perAccount - (perUser.get(userId) ?? 0));

  /**
   * The orphans still `Created` (checked first, whatever their due time), then what the due-time
   * index says is due, up to the free slots, claimed (one lease) so that no other instance
   * sharing the store checks them meanwhile. An account that cannot take a call now (paused, at
   * its bound) is skipped, not waited for; nothing due costs one comparison, not a pass over
   * every open transaction.
   */
  async function dueNow(now: number, free: number): Promise<Array<{ tx: TransactionRecord; owner?: string }>> {
    const picked: TransactionRecord[] = [];
    const room = new Map<number, number>();
    const roomLeft = (userId: number) => room.get(userId) ?? roomOf(userId);
    for (const refId of orphaned) {
      if (picked.length >= free) break;
      const tx = await db.transactions.get(refId);
      if (tx?.status !== 'Created') orphaned.delete(refId);
      else if (!inFlight.has(refId) && roomLeft(tx.userId) > 0) {
        picked.push(tx);
        room.set(tx.userId, roomLeft(tx.userId) - 1);
      }
    }
    const chosen = new Set(picked.map((tx) => tx.refId));
    const lease = claims.lease();
    const more = await db.transactions.claimDue(now, {
      limit: free - picked.length,
      lease,
      room: roomLeft,
      skip: (refId) => inFlight.has(refId) || chosen.has(refId),
    });
    // Orphans are this process's own (one process owns the data directory): no claim to lose.
    return [...picked.map((tx) => ({ tx })), ...more.map((tx) => ({ tx, owner: lease.owner }))];
  }

  /** One launch at a time: a freed slot and the tick may both ask for one. */
  let launching: Promise<void> | undefined;
  let again = false;
  function launch(): Promise<void> {
    if (launching) {
      again = true;
      return launching;
    }
    launching = (async () => {
      try {
        await loaded;
        do {
          again = false;
          await resumeReconnected();
          await launchDue();
        } while (again);
      } catch (error) {
        logger.error('settlement watcher pass failed', { error });
      } finally {
        launching = undefined;
      }
    })();
    return launching;
  }

  /** Starts the calls for the due transactions, within the concurrency bounds; does not wait. */
  async function launchDue(): Promise<void> {
    const free = overall - inFlight.size;
    if (free <= 0) return;
    for (const { tx, owner } of await dueNow(options.now().getTime(), free)) {
      perUser.set(tx.userId, (perUser.get(tx.userId) ?? 0) + 1);
      const job = handle(tx, owner)
        .catch((error: unknown) => logger.error('re-check failed', { refId: tx.refId, error }))
        // A check that wrote nothing (it waited for another sender, or its send claim went) would
        // otherwise stay claimed: the heartbeat renews every claim of a live instance.
        .then(() => (owner === undefined ? undefined : db.transactions.releaseClaim(tx.refId, owner)))
        .catch((error: unknown) =>
          logger.warn('could not end the claim on a check; it runs out with its lease', { refId: tx.refId, error }),
        )
        .finally(() => {
          inFlight.delete(tx.refId);
          perUser.set(tx.userId, (perUser.get(tx.userId) ?? 1) - 1);
          // A freed slot takes the next due check at once: the pace is set by the bounds and the
          // provider's answer time, not by the tick.
          if (timer) void launch();
        });
      inFlight.set(tx.refId, job);
    }
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(() => void launch(), tickMs);
      timer.unref?.();
      void launch();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await launching;
      await Promise.all(inFlight.values());
    },
    async runOnce() {
      await launch();
      await Promise.all(inFlight.values());
    },
  };
}
