/**
 * One provider call about a purchase, by the ref's only sender (DESIGN invariant 8): the first
 * send (`create`) or a re-check (`check`), and what its answer or refusal means for the
 * transaction. The purchase service's `submit` and `check` are this call.
 */
import type { Db } from '../store/db.ts';
import { accountOf, isFinalStatus as isFinal, restoredUnsentMessage, type TransactionRecord } from '../store/records/transactions.ts';
import type { CredentialService } from './credentials.ts';
import type { Logger } from '../logger.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import { isProviderError, type ProviderError, type ProviderErrorKind } from '../providers/provider-error.ts';
import type { SendClaimStore } from '../store/contract.ts';
import type { CallOptions, PurchaseRecorder } from './purchase-records.ts';

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

/** `create`: the first send of a purchase; `check`: a re-check (the same request, same ref id). */
export type CallMode = 'create' | 'check';

export interface PurchaseSenderDeps {
  db: Db;
  credentials: CredentialService;
  logger: Logger;
  now: () => Date;
  /**
   * The operator-feed items asking to review an acknowledged transaction whose re-checks the
   * provider keeps refusing; queued in the same store write as the transaction's update.
   */
  reviewNotices?: (tx: TransactionRecord, details: { refusals: number; reason: string }) => NewOutboxItem[];
  /** Who may talk to the provider about a ref right now (one sender per ref, across instances where the store shares it). */
  claims: SendClaimStore;
}

/** Talks to the provider about one ref at a time and records what it learnt. */
export class PurchaseSender {
  private readonly deps: PurchaseSenderDeps;
  private readonly recorder: PurchaseRecorder;

  constructor(deps: PurchaseSenderDeps, recorder: PurchaseRecorder) {
    this.deps = deps;
    this.recorder = recorder;
  }

  /** One provider call for a ref, as its only sender: a caller that had to wait takes the answer just stored. */
  call(refId: string, mode: CallMode, options: CallOptions = {}): Promise<TransactionRecord> {
    const { db, logger } = this.deps;
    return this.deps.claims.withClaim(refId, async ({ waited, held }) => {
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
        return this.recorder.record(tx, { status: 'Unresolved' }, options);
      }
      // The claim went (with its connection) before anything was sent: another instance may be the
      // sender now; this one sends nothing and the transaction stays as stored.
      if (held.aborted) return tx;
      return this.send(tx, mode, options, held);
    });
  }

  /** Sends the request under the claim `held` and records the answer, or what a failure means. */
  private async send(tx: TransactionRecord, mode: CallMode, options: CallOptions, held: AbortSignal): Promise<TransactionRecord> {
    const { db } = this.deps;
    // A downline's purchase goes through their upline's account.
    const client = await this.deps.credentials.client(accountOf(tx), 'reseller');
    if (!client) {
      // Disconnected while the purchase was open: keep it open; the watcher reports it.
      return this.recorder.record(tx, { message: 'not-connected' }, options);
    }
    const firstSend = tx.sentAt === undefined;
    // Nothing reaches the provider before it is on disk: this write carries the transaction itself
    // if its creation is still being written, and a failed write (disk full) throws here, so the
    // request below is never made for a purchase the store has undone.
    if (firstSend) await db.transactions.update(tx.refId, { sentAt: this.deps.now().toISOString() });
    const request = { refId: tx.refId, code: tx.code, target: tx.target };
    try {
      const result = mode === 'create' ? await client.createTransaction(request) : await client.checkTransaction(request);
      if (held.aborted) return await this.claimLost(tx, mode);
      const status = result.status === 'Sukses' || result.status === 'Gagal' ? result.status : 'Pending';
      return this.recorder.record(
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
      if (held.aborted) return await this.claimLost(tx, mode);
      return this.failed(tx, mode, options, firstSend, error);
    }
  }

  /** What a provider error on this send means for the transaction. */
  private async failed(
    tx: TransactionRecord,
    mode: CallMode,
    options: CallOptions,
    firstSend: boolean,
    error: ProviderError,
  ): Promise<TransactionRecord> {
    const { kind, providerMessage } = error;
    // A refusal of the very first send: the provider has no transaction under this ref id.
    if (firstSend && (refusalKinds.has(kind) || accountKinds.has(kind))) {
      this.deps.logger.info('purchase refused by the provider', { refId: tx.refId, kind });
      if (tx.upline) return this.recorder.record(tx, downlineRefusal(kind), options);
      return this.recorder.record(tx, { status: 'Rejected', message: kind, providerStatus: providerMessage }, options);
    }
    // A send was attempted before (Pending, a trx id, or an unknown outcome): the provider may
    // hold the transaction and the money, so a refusal now finalises nothing.
    if (refusalKinds.has(kind)) return this.refusedRecheck(tx, kind, providerMessage, mode, options);
    this.deps.logger.warn('purchase outcome unknown for now; it stays Pending', { refId: tx.refId, kind, mode });
    return this.recorder.record(
      tx,
      {
        status: 'Pending',
        message: kind,
        checks: tx.checks + (mode === 'check' ? 1 : 0),
      },
      options,
    );
  }

  /**
   * What a sender that lost its claim during the provider call does with the answer: the request
   * cannot be unsent, but another instance may be the ref's sender by now and storing its own
   * answer, so this one stores nothing. The transaction stays open as stored (its send recorded by
   * `sentAt`), and the next sender's request under the same ref id is a status check that learns
   * the outcome.
   */
  private async claimLost(tx: TransactionRecord, mode: CallMode): Promise<TransactionRecord> {
    this.deps.logger.warn('send claim lost during the provider call; its answer is left to the next check', { refId: tx.refId, mode });
    return (await this.deps.db.transactions.find(tx.refId)) ?? tx;
  }

  /**
   * Records a refusal of a re-send: the transaction stays open (Pending) and is checked again on
   * the normal schedule; the operator is asked once to review it when refusals repeat. The user is
   * never told "not charged" for it; past the horizon it becomes Unresolved like any other.
   */
  private async refusedRecheck(
    tx: TransactionRecord,
    kind: ProviderErrorKind,
    providerMessage: string | undefined,
    mode: CallMode,
    options: CallOptions,
  ): Promise<TransactionRecord> {
    const refusals = (tx.refusals ?? 0) + 1;
    const review = refusals >= reviewAfterRefusals && tx.reviewRequestedAt === undefined;
    this.deps.logger.warn('provider refused a re-send of an acknowledged transaction; it stays open', {
      refId: tx.refId,
      kind,
      refusals,
      review,
    });
    const patch: Partial<TransactionRecord> = {
      status: 'Pending',
      message: 'recheck_refused',
      refusals,
      checks: tx.checks + (mode === 'check' ? 1 : 0),
      ...(review ? { reviewRequestedAt: this.deps.now().toISOString() } : {}),
    };
    const queue = review
      ? (this.deps.reviewNotices?.({ ...tx, ...patch, status: 'Pending' }, { refusals, reason: providerMessage ?? kind }) ?? [])
      : [];
    return this.recorder.record(tx, patch, options, queue);
  }
}

/**
 * A first-send refusal of a downline's purchase: the provider's own words may name the upline's
 * balance or account, so they are not kept where the downline reads (the kind is).
 */
function downlineRefusal(kind: ProviderErrorKind): Partial<TransactionRecord> {
  return { status: 'Rejected', message: kind, providerStatus: undefined };
}
