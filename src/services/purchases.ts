/**
 * The purchase service: the one writer of transactions. It records a confirmation's lines, sends
 * them (purchase-sender.ts: one provider call per ref at a time), records the answers
 * (purchase-records.ts) and answers the questions the buy flow asks before a confirmation.
 */
import type { Db } from '../store/db.ts';
import { isFinalStatus as isFinal, type NewTransaction, type TransactionRecord } from '../store/records/transactions.ts';
import { LedgerShortError, type NewLedgerEntry } from '../store/records/ledger.ts';
import { mintRefId } from './refs.ts';
import { createInProcessSendClaims } from '../store/send-claims.ts';
import type { SendClaimStore } from '../store/contract.ts';
import { sellPriceOf, type SellRules } from './pricing.ts';
import { PurchaseRecorder, type CallOptions, type PurchaseRecorderDeps } from './purchase-records.ts';
import { PurchaseSender, type PurchaseSenderDeps } from './purchase-sender.ts';
import type { TradingAccount, TradingAccounts } from './trading.ts';
import { summaryPriceMaxAgeMs, type CatalogueService } from './catalogue.ts';
import { closingEntry, holdKey } from './wallet-purchases.ts';
import { checkDailySpend } from './downline-spend.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { LedgerEntry } from '../store/records/ledger.ts';
import type { UserRecord } from '../store/records/users.ts';

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

/** One confirmation of a purchase: its lines, whose they are, and where they were confirmed. */
export interface PurchaseConfirmation {
  confirmationId: string;
  userId: number;
  chatId: number;
  lines: PurchaseLine[];
  holdMs?: number;
}

/** What the purchase service needs: the recorder's and the sender's needs (see each), and the claims. */
export interface PurchaseServiceDeps extends PurchaseRecorderDeps, Omit<PurchaseSenderDeps, 'claims'> {
  /**
   * Who may talk to the provider about a ref right now: the store's `sendClaims` (PostgreSQL: held
   * across instances). Default: claims in this process's memory, right for the lowdb store.
   */
  claims?: SendClaimStore;
  /** Whose account a user buys through; without it everyone buys through their own. */
  trading?: TradingAccounts;
  /** The price lists (a downline's purchase reads the upline's cost from it at confirmation). */
  catalogue?: Pick<CatalogueService, 'priceList'>;
  /** The message to a downline whose upline decided a held purchase (queued with the entry). */
  heldResolvedNotice?: (downline: UserRecord, tx: TransactionRecord, entry: LedgerEntry) => NewOutboxItem;
}

/** What became of an upline's decision on a downline's held purchase. */
export type HeldResolution =
  /** Decided now: the wallet's balance after it. */
  | { kind: 'resolved'; tx: TransactionRecord; balance: number }
  /** Not a purchase of one of this upline's downlines paid from a wallet. */
  | { kind: 'unknown' }
  /** Still being checked with the provider: its settlement will decide. */
  | { kind: 'open'; tx: TransactionRecord }
  /** Closed already (by its settlement or an earlier decision), as `as`. */
  | { kind: 'closed'; tx: TransactionRecord; as: 'final' | 'refund' };

/** Why a confirmation was refused: nothing was recorded, held or sent. */
export type PurchaseRefusal =
  /** The downline's wallet holds less than the purchase: `shortBy` more is needed. */
  | { reason: 'wallet-short'; balance: number; shortBy: number }
  /** The upline suspended the downline. */
  | { reason: 'suspended' }
  /** The upline's account cannot sell now (disconnected, downline mode closed). */
  | { reason: 'unavailable' }
  /** A price is no longer the one confirmed (the upline's cost or the level's rules changed). */
  | { reason: 'price-changed' }
  /** Over the daily spend limit the upline set (`left` of `limit` is left today, WIB). */
  | { reason: 'over-limit'; limit: number; left: number };

/** A confirmation the purchase service refused (see PurchaseRefusal). */
export class PurchaseRefusedError extends Error {
  constructor(readonly refusal: PurchaseRefusal) {
    super(`purchase refused: ${refusal.reason}`);
    this.name = 'PurchaseRefusedError';
  }
}

/** The stored sell price and margin of a purchase line under `rules` (none: sell = cost). */
function sellFigures(rules: SellRules | undefined, line: PurchaseLine): { sellPrice: number; margin: number } {
  const { sell, margin } = sellPriceOf(rules, { code: line.code, product_name: line.productName, price: line.price });
  return { sellPrice: sell, margin };
}

/** The purchase service; {@link PurchaseSender} makes its provider calls. */
export class PurchaseService {
  private readonly deps: PurchaseServiceDeps;
  private readonly db: Db;
  private readonly recorder: PurchaseRecorder;
  private readonly sender: PurchaseSender;

  constructor(deps: PurchaseServiceDeps) {
    this.deps = deps;
    this.db = deps.db;
    this.recorder = new PurchaseRecorder(deps);
    this.sender = new PurchaseSender({ ...deps, claims: deps.claims ?? createInProcessSendClaims() }, this.recorder);
  }

  /**
   * Records the purchase lines of one confirmation as transactions with freshly minted ref ids,
   * status `Created`, on disk before anything is sent. Idempotent per `confirmationId`: a double
   * tap, a re-sent callback or a replayed update gets the same transactions back, never new ones.
   * `holdMs`: the caller submits them itself right away, so the settlement watcher leaves them
   * alone for that long (it sends them only if the caller crashed before submitting).
   * A downline's lines are sent through their upline's account and paid from their wallet: the
   * upline's cost is read at this instant and each line's price held in the same write (all lines
   * or none). Refusals (PurchaseRefusedError): a wallet short of the total, a suspended downline,
   * an upline that cannot sell, a price that changed since the summary, the daily spend limit.
   */
  async confirm({ confirmationId, userId, chatId, lines, holdMs }: PurchaseConfirmation): Promise<TransactionRecord[]> {
    const existing = await this.recordedConfirmation(confirmationId);
    if (existing) return existing;
    const now = this.deps.now();
    const hold = holdMs !== undefined && holdMs > 0 ? { nextCheckAt: new Date(now.getTime() + holdMs).toISOString() } : {};
    const account = await this.deps.trading?.of(userId);
    const costs = account?.kind === 'downline' ? await this.uplineCosts(account, lines) : undefined;
    if (costs) await this.withinDailyLimit(userId, lines, now);
    // The sell price in force now, at the confirmation: stored with it and never recomputed.
    const rules = (await this.db.users.get(userId))?.sellRules;
    const records: NewTransaction[] = lines.map((line, index) => {
      const cost = costs?.[index];
      return {
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
        ...(cost !== undefined && account ? { upline: { id: account.accountId, cost, margin: line.price - cost } } : {}),
      };
    });
    // A downline pays from their wallet: each line's price is held in the same write as the line.
    const ledger: NewLedgerEntry[] = records.flatMap((tx) =>
      tx.upline && tx.price > 0
        ? [{ wallet: userId, upline: tx.upline.id, kind: 'hold', amount: -tx.price, key: holdKey(tx.refId), refId: tx.refId }]
        : [],
    );
    try {
      return await this.db.transactions.createMany(records, { confirmationId, ...(ledger.length > 0 ? { ledger } : {}) });
    } catch (error) {
      // A concurrent confirm of the same id won the race: return its transactions, once on disk.
      // (A failed write is undone in memory, so this never finds a confirmation that is lost.)
      const raced = await this.recordedConfirmation(confirmationId).catch(() => undefined);
      if (raced) return raced;
      if (error instanceof LedgerShortError) {
        // The error speaks of the line that did not fit; the user is told of the whole purchase.
        const total = ledger.reduce((sum, entry) => sum - entry.amount, 0);
        const balance = await this.db.ledger.balance(userId).catch(() => error.balance);
        throw new PurchaseRefusedError({ reason: 'wallet-short', balance, shortBy: Math.max(error.shortBy, total - balance) });
      }
      throw error;
    }
  }

  /**
   * Refuses a downline's purchase that would take today's spend past the limit their upline set.
   * Advisory across confirmations at the same instant (the wallet hold is the hard bound).
   */
  private async withinDailyLimit(userId: number, lines: readonly PurchaseLine[], now: Date): Promise<void> {
    const total = lines.reduce((sum, line) => sum + line.price, 0);
    const check = await checkDailySpend(this.db, userId, total, now);
    if (!check.fits) throw new PurchaseRefusedError({ reason: 'over-limit', limit: check.limit ?? 0, left: check.left ?? 0 });
  }

  /**
   * What the upline pays the provider for each line of a downline's purchase (their cost), read
   * from the upline's price list no older than a summary's; refused when the downline cannot buy,
   * or when a line's price is no longer their level's price over that cost.
   */
  private async uplineCosts(account: Extract<TradingAccount, { kind: 'downline' }>, lines: readonly PurchaseLine[]): Promise<number[]> {
    if (!account.active) throw new PurchaseRefusedError({ reason: 'suspended' });
    const catalogue = this.deps.catalogue;
    if (!account.connected || !catalogue) throw new PurchaseRefusedError({ reason: 'unavailable' });
    const list = await catalogue.priceList(account.accountId, { maxAgeMs: summaryPriceMaxAgeMs });
    return lines.map((line) => {
      const product = list.find((p) => p.code.toUpperCase() === line.code.toUpperCase());
      if (!product || sellPriceOf(account.level.rules, product).sell !== line.price) {
        throw new PurchaseRefusedError({ reason: 'price-changed' });
      }
      return product.price;
    });
  }

  /**
   * Sends a `Created` transaction to the provider with its stored ref id, code and target, and
   * records the answer. A timeout, network error, 5xx or unreadable answer leaves it Pending
   * (outcome unknown), never failed. Only a refusal (401/402/403/404/400) of the FIRST send marks
   * it Rejected ("not created"); once a send was attempted, refusals are handled as on a re-check.
   * One sender per ref: a submit that finds another call for the ref in flight waits for it and
   * returns its answer; a transaction already sent and answered is returned as stored (its
   * re-sends are the watcher's checks), so a replayed submit never asks the provider again.
   */
  submit(refId: string, options?: CallOptions): Promise<TransactionRecord> {
    return this.sender.call(refId, 'create', options);
  }

  /**
   * Re-checks a transaction (same ref id, code and target) and records the answer. A check that
   * finds another call for the ref in flight waits for it and returns its answer instead of
   * asking the provider a second time. A refusal (400/402/404) of a transaction the provider had
   * acknowledged never finalises it (DESIGN invariant 8): it stays Pending with the message
   * `recheck_refused`, is checked again on the normal schedule, and after
   * `reviewAfterRefusals` (purchase-sender.ts) refusals in a row the operator is asked once to review it.
   */
  check(refId: string, options?: CallOptions): Promise<TransactionRecord> {
    return this.sender.call(refId, 'check', options);
  }

  /**
   * The lines of a purchase about to be confirmed that look like a mistaken repeat: the same code
   * (any case) and target bought by `userId` less than {@link repeatWindowMs} ago, or an earlier
   * line of the same request. Purchases that failed (Gagal) or were refused (Rejected) do not
   * count, nor those of `confirmationId` itself (a replay after it was recorded). Reads the store
   * and the clock only; in line order.
   */
  async recentRepeats(
    userId: number,
    lines: ReadonlyArray<Pick<PurchaseLine, 'code' | 'target'>>,
    confirmationId: string,
  ): Promise<RecentRepeat[]> {
    const now = this.deps.now().getTime();
    // Fifty is far more than anyone buys in a minute.
    const recent = (await this.db.transactions.listByUser(userId, { limit: 50 })).filter(
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
  }

  /**
   * Records the message that shows a purchase's open lines, edited when they settle: a single
   * purchase's result message (`single`: it becomes the receipt) or a multi-line purchase's (edited
   * line by line). Settled lines are left as they are.
   */
  async showResultIn(refIds: readonly string[], message: { chatId: number; messageId: number }, kind: 'single' | 'lines'): Promise<void> {
    const patch = kind === 'single' ? { pendingMessage: message } : { summaryMessage: message };
    await Promise.all(refIds.map((refId) => this.db.transactions.update(refId, patch)));
  }

  /**
   * Gives up on a transaction past the re-check horizon: it becomes Unresolved (final) and its
   * owner is told to ask the provider. Never re-checked afterwards.
   */
  async markUnresolved(refId: string): Promise<TransactionRecord | undefined> {
    const tx = await this.db.transactions.get(refId);
    if (!tx || isFinal(tx.status)) return undefined;
    return this.recorder.record(tx, { status: 'Unresolved', providerStatus: tx.providerStatus ?? tx.status }, { notifyOwner: true });
  }

  /**
   * The upline's decision on a downline's purchase whose hold stayed open because its outcome is
   * unknown (Unresolved, or any final status whose hold is still open): `final` (the provider did
   * charge the upline: the price is spent) or `refund` (it did not: the price goes back to the
   * wallet). At most once per purchase, whoever decides (the same ledger keys as a settlement's),
   * with the downline told in the same commit. The transaction record itself stays as it is.
   */
  async resolveHeld(uplineId: number, refId: string, decision: 'final' | 'refund'): Promise<HeldResolution> {
    const tx = await this.db.transactions.find(refId);
    if (!tx?.upline || tx.upline.id !== uplineId || tx.price <= 0) return { kind: 'unknown' };
    if (!isFinal(tx.status)) return { kind: 'open', tx };
    const closed = (await this.db.ledger.byRef(tx.userId, refId)).find((entry) => entry.kind === 'final' || entry.kind === 'refund');
    if (closed) return { kind: 'closed', tx, as: closed.kind === 'final' ? 'final' : 'refund' };
    const downline = await this.db.users.get(tx.userId);
    const notice = this.deps.heldResolvedNotice;
    try {
      const [appended] = await this.db.ledger.append(closingEntry(tx, decision), {
        notify: (created) => (downline && notice ? created.map((entry) => notice(downline, tx, entry)) : []),
      });
      if (!appended) return { kind: 'unknown' };
      if (!appended.created) return { kind: 'closed', tx, as: decision };
      this.deps.onQueued?.();
      return { kind: 'resolved', tx, balance: appended.entry.balance };
    } catch (error) {
      // Closed meanwhile (a second tap, another admin): report what was decided.
      const now = (await this.db.ledger.byRef(tx.userId, refId)).find((entry) => entry.kind === 'final' || entry.kind === 'refund');
      if (now) return { kind: 'closed', tx, as: now.kind === 'final' ? 'final' : 'refund' };
      throw error;
    }
  }

  /**
   * The transactions of a confirmation that is already recorded, once that record is durable (the
   * engine waits for a concurrent confirm's write, and reads a failed one as none).
   */
  private async recordedConfirmation(confirmationId: string): Promise<TransactionRecord[] | undefined> {
    const refIds = await this.db.transactions.confirmation(confirmationId);
    return refIds ? this.loadAll(refIds) : undefined;
  }

  private async loadAll(refIds: string[]): Promise<TransactionRecord[]> {
    const found = await Promise.all(refIds.map((refId) => this.db.transactions.find(refId)));
    return found.filter((tx): tx is TransactionRecord => tx !== undefined);
  }
}
