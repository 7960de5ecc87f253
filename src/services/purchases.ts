import type { Db } from '../store/db.ts';
import { isFinalStatus as isFinal, restoredUnsentMessage, type TransactionRecord } from '../store/records/transactions.ts';
import type { CredentialService } from './credentials.ts';
import type { Logger } from '../logger.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import { isProviderError, type ProviderErrorKind } from '../providers/provider-error.ts';
import { mintRefId } from './refs.ts';
import { createInProcessSendClaims } from '../store/send-claims.ts';
import type { SendClaimStore } from '../store/contract.ts';
import { sellPriceOf, type SellRules } from './pricing.ts';
import { createKeyedQueue } from '../queue.ts';

/** One line of a purchase: a product bought for one target, at the price the user confirmed. */
export interface PurchaseLine {
  code: string;
  productName: string;
  target: string;
  price: number;
}

/** A purchase of the same code and target within this window needs a second confirmation. */
export const repeatWindowMs = 60_000;

/**
 * A line of a new purchase that repeats another: `index` is its place in the lines asked about;
 * `seconds` (at least 1) says how long ago the same code and target were bought, and is absent when
 * the line repeats an earlier line of the same request.
 */
export interface RecentRepeat {
  index: number;
  seconds?: number;
}

/**
 * Back-off schedule of re-checks, by the age of the transaction: `firstMs` (RECHECK_FIRST_SECONDS,
 * default 10 s) for the first 2 minutes, then 30 s up to 10 minutes, then 5 minutes.
 */
export function nextCheckDelayMs(ageMs: number, firstMs = 10_000): number {
  if (ageMs < 2 * 60_000) return firstMs;
  if (ageMs < 10 * 60_000) return 30_000;
  return 5 * 60_000;
}

export interface PurchaseService {
  /**
   * Records the purchase lines of one confirmation as transactions with freshly minted ref ids,
   * status `Created`, on disk before anything is sent. Idempotent per `confirmationId`: a double
   * tap, a re-sent callback or a replayed update gets the same transactions back, never new ones.
   * `holdMs`: the caller submits them itself right away, so the settlement watcher leaves them
   * alone for that long (it sends them only if the caller crashed before submitting).
   */
  confirm(input: {
    confirmationId: string;
    userId: number;
    chatId: number;
    lines: PurchaseLine[];
    holdMs?: number;
  }): Promise<TransactionRecord[]>;
  /**
   * Sends a `Created` transaction to the provider with its stored ref id, code and target, and
   * records the answer. A timeout, network error, 5xx or unreadable answer leaves it Pending
   * (outcome unknown), never failed. Only a refusal (401/402/403/404/400) of the FIRST send marks
   * it Rejected ("not created"); once a send was attempted, refusals are handled as on a re-check.
   * One sender per ref: a submit that finds another call for the ref in flight waits for it and
   * returns its answer; a transaction already sent and answered is returned as stored (its
   * re-sends are the watcher's checks), so a replayed submit never asks the provider again.
   */
  submit(refId: string, options?: CallOptions): Promise<TransactionRecord>;
  /**
   * Re-checks a transaction (same ref id, code and target) and records the answer. A check that
   * finds another call for the ref in flight waits for it and returns its answer instead of
   * asking the provider a second time. A refusal (400/402/404) of a transaction the provider had
   * acknowledged never finalises it (DESIGN invariant 8): it stays Pending with the message
   * `recheck_refused`, is checked again on the normal schedule, and after
   * {@link reviewAfterRefusals} refusals in a row the operator is asked once to review it.
   */
  check(refId: string, options?: CallOptions): Promise<TransactionRecord>;
  /**
   * Records the message that shows a purchase's open lines, edited when they settle: a single
   * purchase's result message (`single`: it becomes the receipt) or a multi-line purchase's (edited
   * line by line). Settled lines are left as they are.
   */
  showResultIn(refIds: readonly string[], message: { chatId: number; messageId: number }, kind: 'single' | 'lines'): Promise<void>;
  /**
   * Gives up on a transaction past the re-check horizon: it becomes Unresolved (final) and its
   * owner is told to ask the provider. Never re-checked afterwards.
   */
  markUnresolved(refId: string): Promise<TransactionRecord | undefined>;
  /**
   * The lines of a purchase about to be confirmed that look like a mistaken repeat: the same code
   * (any case) and target bought by `userId` less than {@link repeatWindowMs} ago, or an earlier
   * line of the same request. Purchases that failed (Gagal) or were refused (Rejected) do not
   * count, nor those of `confirmationId` itself (a replay after it was recorded). Reads the store
   * and the clock only; in line order.
   */
  recentRepeats(
    userId: number,
    lines: ReadonlyArray<Pick<PurchaseLine, 'code' | 'target'>>,
    confirmationId: string,
  ): Promise<RecentRepeat[]>;
}

export interface CallOptions {
  /**
   * True when nobody is looking at this call's result (the watcher): the owner then gets a
   * settlement notice through the outbox. False (default) when the result is shown as a reply.
   */
  notifyOwner?: boolean;
}

export interface PurchaseServiceDeps {
  db: Db;
  credentials: CredentialService;
  logger: Logger;
  now: () => Date;
  /**
   * The notices a settlement queues, in the same store write as the final status (so each final
   * status is announced exactly once, even across crashes).
   */
  settlementNotices?: (tx: TransactionRecord, options: { notifyOwner: boolean; batch?: TransactionRecord[] }) => Promise<NewOutboxItem[]>;
  /** Called after a transaction settled (wakes the outbox, checks the balance alert). */
  onSettled?: (tx: TransactionRecord) => void;
  /** Random source for the re-check jitter (tests pass a fixed one). */
  random?: () => number;
  /** Delay of the re-checks during a purchase's first 2 minutes (default 10 s). */
  recheckFirstMs?: number;
  /**
   * The operator-feed items asking to review an acknowledged transaction whose re-checks the
   * provider keeps refusing; queued in the same store write as the transaction's update.
   */
  reviewNotices?: (tx: TransactionRecord, details: { refusals: number; reason: string }) => NewOutboxItem[];
  /** Called after something was queued outside a settlement (wakes the outbox). */
  onQueued?: () => void;
  /**
   * Who may talk to the provider about a ref right now: the store's `sendClaims` (PostgreSQL: held
   * across instances). Default: claims in this process's memory, right for the lowdb store.
   */
  claims?: SendClaimStore;
}

/**
 * Refusals in a row on re-checks of an acknowledged transaction after which the operator is asked
 * to review it (once). One refusal may be a provider hiccup; three in a row (about 30 s apart at
 * first) are not.
 */
export const reviewAfterRefusals = 3;

/**
 * Answers that, on the first send, mean the provider has no such transaction and will not make
 * it. On a later send (the provider may have acknowledged it) they mean nothing definite.
 */
const refusalKinds: ReadonlySet<ProviderErrorKind> = new Set(['insufficient_balance', 'not_found', 'rejected', 'validation']);
/** Account-level refusals: definite for a first send; on a re-check they say nothing about the transaction. */
const accountKinds: ReadonlySet<ProviderErrorKind> = new Set(['credentials', 'ip_blocked']);

/** The stored sell price and margin of a purchase line under `rules` (none: sell = cost). */
function sellFigures(rules: SellRules | undefined, line: PurchaseLine): { sellPrice: number; margin: number } {
  const { sell, margin } = sellPriceOf(rules, { code: line.code, product_name: line.productName, price: line.price });
  return { sellPrice: sell, margin };
}

export function createPurchaseService(deps: PurchaseServiceDeps): PurchaseService {
  const { db, logger } = deps;
  const claims = deps.claims ?? createInProcessSendClaims();
  const iso = () => deps.now().toISOString();
  /** Per multi-line purchase: the settlement running now (see `settleInTurn`). */
  const batchTurns = createKeyedQueue<string>();

  /**
   * Runs the settlements of one multi-line purchase one after another, so each sees the lines
   * settled before it: the result message's edit queued by each is rendered from every line as it
   * stands, and the last one queued shows them all, however many settle at once. (In this
   * process; one process owns the data directory, like the send claims.)
   */
  function settleInTurn<T>(batchId: string, task: () => Promise<T>): Promise<T> {
    return batchTurns.run(batchId, () => task());
  }

  /**
   * The transactions of `tx`'s multi-line purchase in line order, `tx` as given, when it has a
   * result message to edit; undefined otherwise (or when a line cannot be read any more).
   */
  async function batchOf(tx: TransactionRecord): Promise<TransactionRecord[] | undefined> {
    if (tx.summaryMessage === undefined || tx.batchId === undefined) return undefined;
    const refIds = await db.transactions.confirmation(tx.batchId);
    if (!refIds) return undefined;
    const lines = await Promise.all(refIds.map((refId) => (refId === tx.refId ? Promise.resolve(tx) : db.transactions.find(refId))));
    return lines.every((line) => line !== undefined) ? lines : undefined;
  }

  /**
   * Stores an answer: final statuses move the transaction to history, others schedule a re-check.
   * `queue` (operator items about an open transaction) goes in the same write as the update.
   */
  async function record(
    tx: TransactionRecord,
    patch: Partial<TransactionRecord>,
    options: CallOptions = {},
    queue: NewOutboxItem[] = [],
  ): Promise<TransactionRecord> {
    const status = patch.status ?? tx.status;
    const now = deps.now();
    if (isFinal(status)) {
      const settle = async () => {
        // As stored now: the message to edit may have been recorded since `tx` was read.
        const final: TransactionRecord = {
          ...((await db.transactions.get(tx.refId)) ?? tx),
          ...patch,
          status,
          settledAt: now.toISOString(),
        };
        const batch = await batchOf(final);
        const notify =
          (await deps.settlementNotices?.(final, { notifyOwner: options.notifyOwner ?? false, ...(batch ? { batch } : {}) })) ?? [];
        return db.transactions.settle(tx.refId, { ...patch, status, settledAt: now.toISOString() }, { notify });
      };
      const batchId = (await db.transactions.get(tx.refId))?.summaryMessage !== undefined ? tx.batchId : undefined;
      const settled = batchId === undefined ? await settle() : await settleInTurn(batchId, settle);
      if (settled) deps.onSettled?.(settled);
      // Undefined: someone else settled it meanwhile; report what is stored.
      return settled ?? (await db.transactions.find(tx.refId)) ?? { ...tx, ...patch, status };
    }
    const age = now.getTime() - Date.parse(tx.createdAt);
    // ±20 % jitter spreads the re-checks of a burst of purchases.
    const jitter = 0.8 + 0.4 * (deps.random ?? Math.random)();
    const nextCheckAt = new Date(now.getTime() + Math.round(nextCheckDelayMs(age, deps.recheckFirstMs) * jitter)).toISOString();
    // Still Pending after being Pending: nothing a crash could lose but this re-check's schedule
    // (the transaction is then checked again sooner), so its write is not waited for and a wave
    // of re-checks shares a few writes. Anything else (the first answer, a queued notice) is on
    // disk before this returns.
    const stillPending = status === 'Pending' && tx.status === 'Pending' && queue.length === 0;
    const updated = await db.transactions.update(
      tx.refId,
      { ...patch, status, nextCheckAt },
      queue.length > 0 ? { notify: queue } : stillPending ? { deferWrite: true } : {},
    );
    if (updated && queue.length > 0) deps.onQueued?.();
    return updated ?? (await db.transactions.find(tx.refId)) ?? { ...tx, ...patch, status };
  }

  /** One provider call for a ref, as its only sender: a caller that had to wait takes the answer just stored. */
  function call(refId: string, mode: 'create' | 'check', options: CallOptions = {}): Promise<TransactionRecord> {
    return claims.withClaim(refId, async ({ waited, held }) => {
      const tx = (await db.transactions.get(refId)) ?? (await db.transactions.find(refId));
      if (!tx) throw new Error(`transaction ${refId} is unknown`);
      if (isFinal(tx.status)) return tx;
      // Another sender (the conversation, the watcher, a /cek) just asked the provider about this
      // ref and stored the answer: asking again right away would learn nothing new.
      if (waited) return tx;
      // Sent and answered already: re-sending it is the watcher's job, on its schedule.
      if (mode === 'create' && tx.status !== 'Created') return tx;
      // Confirmed but not sent in a restored backup: the bot that made the backup may have sent it
      // or had it refused, and any request under its ref id (a status check too) would buy it.
      if (tx.status === 'Created' && tx.message === restoredUnsentMessage) {
        logger.warn('purchase from a restored backup not sent: its first send is unknown', { refId, userId: tx.userId });
        return record(tx, { status: 'Unresolved' }, options);
      }
      // The claim went (with its connection) before anything was sent: another instance may be the
      // sender now; this one sends nothing and the transaction stays as stored.
      if (held.aborted) return tx;
      return send(tx, mode, options, held);
    });
  }

  /**
   * What a sender that lost its claim during the provider call does with the answer: the request
   * cannot be unsent, but another instance may be the ref's sender by now and storing its own
   * answer, so this one stores nothing. The transaction stays open as stored (its send recorded by
   * `sentAt`), and the next sender's request under the same ref id is a status check that learns
   * the outcome.
   */
  async function claimLost(tx: TransactionRecord, mode: 'create' | 'check'): Promise<TransactionRecord> {
    logger.warn('send claim lost during the provider call; its answer is left to the next check', { refId: tx.refId, mode });
    return (await db.transactions.find(tx.refId)) ?? tx;
  }

  async function send(
    tx: TransactionRecord,
    mode: 'create' | 'check',
    options: CallOptions,
    held: AbortSignal,
  ): Promise<TransactionRecord> {
    const refId = tx.refId;
    const client = await deps.credentials.client(tx.userId, 'reseller');
    if (!client) {
      // Disconnected while the purchase was open: keep it open; the watcher reports it.
      return record(tx, { message: 'not-connected' }, options);
    }
    const firstSend = tx.sentAt === undefined;
    // Nothing reaches the provider before it is on disk: this write carries the transaction itself
    // if its creation is still being written, and a failed write (disk full) throws here, so the
    // request below is never made for a purchase the store has undone.
    if (firstSend) await db.transactions.update(refId, { sentAt: iso() });
    const request = { refId: tx.refId, code: tx.code, target: tx.target };
    try {
      const result = mode === 'create' ? await client.createTransaction(request) : await client.checkTransaction(request);
      if (held.aborted) return await claimLost(tx, mode);
      const status = result.status === 'Sukses' || result.status === 'Gagal' ? result.status : 'Pending';
      return record(
        tx,
        {
          status,
          providerStatus: result.status,
          trxId: result.trxId ?? tx.trxId,
          sn: result.sn !== undefined && result.sn !== '' ? result.sn : tx.sn,
          checks: tx.checks + (mode === 'check' ? 1 : 0),
          message: undefined,
          // A status answer ends a run of refusals (the review, if asked, stays asked).
          refusals: undefined,
        },
        options,
      );
    } catch (error) {
      if (!isProviderError(error)) throw error;
      if (held.aborted) return await claimLost(tx, mode);
      // A refusal of the very first send: the provider has no transaction under this ref id.
      if (firstSend && (refusalKinds.has(error.kind) || accountKinds.has(error.kind))) {
        logger.info('purchase refused by the provider', { refId, kind: error.kind });
        return record(tx, { status: 'Rejected', message: error.kind, providerStatus: error.providerMessage }, options);
      }
      // A send was attempted before (Pending, a trx id, or an unknown outcome): the provider may
      // hold the transaction and the money, so a refusal now finalises nothing.
      if (refusalKinds.has(error.kind)) return refusedRecheck(tx, error.kind, error.providerMessage, mode, options);
      logger.warn('purchase outcome unknown for now; it stays Pending', { refId, kind: error.kind, mode });
      return record(
        tx,
        {
          status: 'Pending',
          message: error.kind,
          checks: tx.checks + (mode === 'check' ? 1 : 0),
        },
        options,
      );
    }
  }

  /**
   * Records a refusal of a re-send: the transaction stays open (Pending) and is checked again on
   * the normal schedule; the operator is asked once to review it when refusals repeat. The user is
   * never told "not charged" for it; past the horizon it becomes Unresolved like any other.
   */
  async function refusedRecheck(
    tx: TransactionRecord,
    kind: ProviderErrorKind,
    providerMessage: string | undefined,
    mode: 'create' | 'check',
    options: CallOptions,
  ): Promise<TransactionRecord> {
    const refusals = (tx.refusals ?? 0) + 1;
    const review = refusals >= reviewAfterRefusals && tx.reviewRequestedAt === undefined;
    logger.warn('provider refused a re-send of an acknowledged transaction; it stays open', { refId: tx.refId, kind, refusals, review });
    const patch: Partial<TransactionRecord> = {
      status: 'Pending',
      message: 'recheck_refused',
      refusals,
      checks: tx.checks + (mode === 'check' ? 1 : 0),
      ...(review ? { reviewRequestedAt: iso() } : {}),
    };
    const queue = review
      ? (deps.reviewNotices?.({ ...tx, ...patch, status: 'Pending' }, { refusals, reason: providerMessage ?? kind }) ?? [])
      : [];
    return record(tx, patch, options, queue);
  }

  /**
   * The transactions of a confirmation that is already recorded, once that record is durable (the
   * engine waits for a concurrent confirm's write, and reads a failed one as none).
   */
  async function recordedConfirmation(confirmationId: string): Promise<TransactionRecord[] | undefined> {
    const refIds = await db.transactions.confirmation(confirmationId);
    return refIds ? loadAll(refIds) : undefined;
  }

  async function loadAll(refIds: string[]): Promise<TransactionRecord[]> {
    const found = await Promise.all(refIds.map((refId) => db.transactions.find(refId)));
    return found.filter((tx): tx is TransactionRecord => tx !== undefined);
  }

  return {
    async confirm({ confirmationId, userId, chatId, lines, holdMs }) {
      const existing = await recordedConfirmation(confirmationId);
      if (existing) return existing;
      const now = deps.now();
      const hold = holdMs !== undefined && holdMs > 0 ? { nextCheckAt: new Date(now.getTime() + holdMs).toISOString() } : {};
      // The sell price in force now, at the confirmation: stored with it and never recomputed.
      const rules = (await db.users.get(userId))?.sellRules;
      const records = lines.map((line) => ({
        ...hold,
        ...sellFigures(rules, line),
        refId: mintRefId(now),
        userId,
        chatId,
        code: line.code,
        productName: line.productName,
        target: line.target,
        price: line.price,
        createdAt: now.toISOString(),
        batchId: confirmationId,
      }));
      try {
        return await db.transactions.createMany(records, { confirmationId });
      } catch (error) {
        // A concurrent confirm of the same id won the race: return its transactions, once on disk.
        // (A failed write is undone in memory, so this never finds a confirmation that is lost.)
        const raced = await recordedConfirmation(confirmationId).catch(() => undefined);
        if (raced) return raced;
        throw error;
      }
    },
    submit: (refId, options) => call(refId, 'create', options),
    check: (refId, options) => call(refId, 'check', options),
    async recentRepeats(userId, lines, confirmationId) {
      const now = deps.now().getTime();
      // Fifty is far more than anyone buys in a minute.
      const recent = (await db.transactions.listByUser(userId, { limit: 50 })).filter(
        (tx) =>
          now - Date.parse(tx.createdAt) < repeatWindowMs &&
          tx.batchId !== confirmationId &&
          tx.status !== 'Rejected' &&
          tx.status !== 'Gagal',
      );
      const same = (a: { code: string; target: string }, b: { code: string; target: string }) =>
        a.code.toUpperCase() === b.code.toUpperCase() && a.target === b.target;
      const found: RecentRepeat[] = [];
      lines.forEach((line, index) => {
        const earlier = recent.find((tx) => same(tx, line));
        if (earlier) found.push({ index, seconds: Math.max(1, Math.round((now - Date.parse(earlier.createdAt)) / 1000)) });
        else if (lines.slice(0, index).some((other) => same(other, line))) found.push({ index });
      });
      return found;
    },
    async showResultIn(refIds, message, kind) {
      const patch = kind === 'single' ? { pendingMessage: message } : { summaryMessage: message };
      await Promise.all(refIds.map((refId) => db.transactions.update(refId, patch)));
    },
    async markUnresolved(refId) {
      const tx = await db.transactions.get(refId);
      if (!tx || isFinal(tx.status)) return undefined;
      return record(tx, { status: 'Unresolved', providerStatus: tx.providerStatus ?? tx.status }, { notifyOwner: true });
    },
  };
}
