import { singleProcessClaims, type ClaimTokens } from '../store/claim-holder.ts';
import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.ts';
import { accountOf, type TransactionRecord } from '../store/records/transactions.ts';
import type { PurchaseService } from '../services/purchases.ts';
import type { Logger } from '../logger.ts';
import { AccountPauses } from './settlement-pauses.ts';
import { DueChecks } from './settlement-due.ts';

export interface SettlementWatcherOptions {
  db: Db;
  purchases: PurchaseService;
  logger: Logger;
  now: () => Date;
  /** After this age a Pending transaction is marked Unresolved and never checked again. */
  horizonMs: number;
  /** How often the watcher looks for due transactions (a check that ends starts the next at once). Default 1 s. */
  tickMs?: number;
  /** Provider calls in flight at once overall. Default 8. */
  concurrency?: number;
  /** Called once when an account's re-checks are paused (credentials or IP refused, disconnected); the caller tells the user. */
  onAccountPaused?: (userId: number, reason: string) => void | Promise<void>;
  /**
   * Whether `Created` transactions found at start are this process's orphans, sent at once (default
   * true). Off on a shared store, where a live instance may be sending them: checked when due, claimed.
   */
  orphansAtStart?: boolean;
  /** Due checks are claimed under its token and made only while it holds. Default: a single process's own. */
  claims?: ClaimTokens;
}

/** Provider calls in flight at once for one account. */
const perAccountCalls = 2;

export interface SettlementWatcher {
  start(): void;
  /** Stops ticking and waits for the calls in flight. */
  stop(): Promise<void>;
  /** One pass over the due transactions; resolves when their calls are done (tests drive this). */
  runOnce(): Promise<void>;
}

/**
 * Re-checks every transaction whose outcome is not final (Pending, unknown, or `Created` left by a
 * crash) with the same ref id when its stored `nextCheckAt` is due (`db.transactions.claimDue`: a
 * tick with nothing due reads nothing); past the horizon it marks it Unresolved. What an answer
 * means, its notices and one sender per ref are the purchase service's.
 */
export function createSettlementWatcher(options: SettlementWatcherOptions): SettlementWatcher {
  return new SettlementLoop(options);
}

/** The watcher's passes: each starts the due checks that fit the bounds, and a check that ends starts the next. */
class SettlementLoop implements SettlementWatcher {
  private readonly options: SettlementWatcherOptions;
  private readonly tickMs: number;
  private readonly overall: number;
  private readonly claims: ClaimTokens;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perUser = new Map<number, number>();
  private readonly pauses: AccountPauses;
  private readonly due: DueChecks;
  private timer: NodeJS.Timeout | undefined;
  /** Read once, when the watcher is made (the first pass waits for it). */
  private readonly loaded: Promise<void>;
  /** One launch at a time: a freed slot and the tick may both ask for one. */
  private launching: Promise<void> | undefined;
  private again = false;

  constructor(options: SettlementWatcherOptions) {
    const { db, logger } = options;
    this.options = options;
    this.tickMs = options.tickMs ?? 1000;
    this.overall = options.concurrency ?? 8;
    this.claims = options.claims ?? singleProcessClaims(`watcher-${randomUUID()}`);
    this.pauses = new AccountPauses({ db, logger, onAccountPaused: options.onAccountPaused });
    this.due = new DueChecks({ db, claims: this.claims, inFlight: this.inFlight, roomOf: (userId) => this.roomOf(userId) });
    this.loaded = this.load();
    // Reported by the first pass that waits for it.
    this.loaded.catch(() => undefined);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.launch(), this.tickMs);
    this.timer.unref?.();
    void this.launch();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.launching;
    await Promise.all(this.inFlight.values());
  }

  async runOnce(): Promise<void> {
    await this.launch();
    await Promise.all(this.inFlight.values());
  }

  /** The orphans, from the store. (A stored pause is read at the account's check: no user record is read at start.) */
  private async load(): Promise<void> {
    if (!(this.options.orphansAtStart ?? true)) return;
    for (const tx of await this.options.db.transactions.listOpen()) if (tx.status === 'Created') this.due.addOrphan(tx.refId);
  }

  /** Room for more calls of this account now: 0 while it is paused or at its bound. */
  private roomOf(userId: number): number {
    return this.pauses.holds(userId) ? 0 : perAccountCalls - (this.perUser.get(userId) ?? 0);
  }

  private launch(): Promise<void> {
    if (this.launching) {
      this.again = true;
      return this.launching;
    }
    this.launching = (async () => {
      try {
        await this.loaded;
        do {
          this.again = false;
          await this.pauses.resumeReconnected();
          await this.launchDue();
        } while (this.again);
      } catch (error) {
        this.options.logger.error('settlement watcher pass failed', { error });
      } finally {
        this.launching = undefined;
      }
    })();
    return this.launching;
  }

  /** Starts the calls for the due transactions, within the concurrency bounds; does not wait. */
  private async launchDue(): Promise<void> {
    const { db, logger } = this.options;
    const free = this.overall - this.inFlight.size;
    if (free <= 0) return;
    for (const { tx, owner } of await this.due.pick(this.options.now().getTime(), free)) {
      this.perUser.set(accountOf(tx), (this.perUser.get(accountOf(tx)) ?? 0) + 1);
      const job = this.handle(tx, owner)
        .catch((error: unknown) => logger.error('re-check failed', { refId: tx.refId, error }))
        // A check that wrote nothing (it waited for another sender, or its send claim went) would
        // otherwise stay claimed: the heartbeat renews every claim of a live instance.
        .then(() => (owner === undefined ? undefined : db.transactions.releaseClaim(tx.refId, owner)))
        .catch((error: unknown) =>
          logger.warn('could not end the claim on a check; it runs out with its lease', { refId: tx.refId, error }),
        )
        .finally(() => {
          this.inFlight.delete(tx.refId);
          this.checkEnded(accountOf(tx));
          // A freed slot takes the next due check at once: the pace is set by the bounds and the
          // provider's answer time, not by the tick.
          if (this.timer) void this.launch();
        });
      this.inFlight.set(tx.refId, job);
    }
  }

  /** Counts a check of the account as ended; an account with none left is forgotten (memory holds the accounts being checked). */
  private checkEnded(userId: number): void {
    const left = (this.perUser.get(userId) ?? 1) - 1;
    if (left > 0) this.perUser.set(userId, left);
    else {
      this.perUser.delete(userId);
      this.pauses.checksEnded(userId);
    }
  }

  /** Makes one check: marks it Unresolved past the horizon, else sends or re-checks it, and pauses its account on a refusal of the account. */
  private async handle(tx: TransactionRecord, owner: string | undefined): Promise<void> {
    const { purchases, logger } = this.options;
    // Read before the claim is looked at: a pause during the read must not let the check go on.
    if (await this.pauses.heldAtFirstCheck(accountOf(tx))) return;
    // Paused past the lease since the claim: the check may be another instance's now.
    if (owner !== undefined && !this.claims.holds(owner)) {
      logger.warn('claim on a due check lost before it was made (this instance was paused past its lease): not made here', {
        refId: tx.refId,
      });
      return;
    }
    const now = this.options.now().getTime();
    if (now - Date.parse(tx.createdAt) > this.options.horizonMs) {
      logger.warn('transaction unresolved after the horizon', { refId: tx.refId, userId: tx.userId });
      await purchases.markUnresolved(tx.refId);
      return;
    }
    const result =
      tx.status === 'Created'
        ? await purchases.submit(tx.refId, { notifyOwner: true })
        : await purchases.check(tx.refId, { notifyOwner: true });
    await this.pauses.pauseOn(accountOf(tx), result.message, now);
  }
}
