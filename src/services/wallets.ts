/**
 * Downlines' wallets: deposit requests, the upline's decision on them, manual adjustments, the
 * balance and statement. The one writer of ledger entries outside the purchase path (which writes
 * its holds and refunds with its transactions) and of the upline's deposit desk (`depositDesk`:
 * payment instructions and deposit requests).
 *
 * Money moves exactly once by idempotency keys: a deposit is credited under `deposit:<request
 * id>`, an adjustment under the key of the update that asked for it. The downline's notice of a
 * movement is queued in the same commit as its entry (`ledger.append`'s `notify`), so a repeated
 * append (a double tap, a replayed update, a second instance) neither credits nor tells twice.
 *
 * Accepting is two commits: the decision on the upline's record (so accept and reject exclude
 * each other), then the credit. A crash between them leaves an accepted request not yet credited:
 * the replayed update, any later tap on it, or the pass at the next start (`finishAccepted`: when
 * the update was answered with an error, its credit's write having failed) credits it (the key
 * makes that once).
 *
 * A removed downline's wallet stays with their former upline (the ledger keeps a wallet with the
 * upline of its latest entry, and moves it only once empty): they still see it, and the former
 * upline may only deduct from it (pay it out), so it can only shrink until it is empty and they
 * may join someone else (see `heldElsewhere`, which the downline service asks before a join).
 */
import type { Db } from '../store/db.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { UsersChange } from '../store/contract.ts';
import type { DepositDesk, DepositRequest, Membership, UserRecord } from '../store/records/users.ts';
import {
  isMovable,
  LedgerRefusedError,
  LedgerShortError,
  maxLedgerAmount,
  type LedgerEntry,
  type WalletSummary,
} from '../store/records/ledger.ts';
import { randomInt } from 'node:crypto';
import { randomId } from './downline-rules.ts';
import { transactUsers } from './downlines.ts';

/** Bounds of deposits and the desk (an upline's record is read on every update of theirs: it stays small). */
export const walletLimits = {
  minDeposit: 10_000,
  maxDeposit: 100_000_000,
  /** How long a unique amount is valid for. */
  depositValidMs: 6 * 3600_000,
  /** Open requests one downline may have at once. */
  openPerDownline: 3,
  /** Open requests of one upline at once (codes are 1..999). */
  openPerUpline: 300,
  /** Decided or expired requests kept to answer a late tap with what happened. */
  closedKept: 100,
  maxAdjust: 100_000_000,
  payInfoLength: 1000,
  reasonLength: 200,
  /** Entries per /mutasi page. */
  statementPage: 10,
} as const;

/** The amounts the /deposit buttons offer. */
export const depositPresets = [50_000, 100_000, 200_000, 500_000, 1_000_000] as const;

/** The messages the service queues (built in the recipient's language by notify/wallet-notices.ts). */
export interface WalletMessages {
  /** To the upline: a downline asks for a deposit, with ✅ Terima / ❌ Tolak. */
  request(upline: UserRecord, downline: UserRecord, request: DepositRequest): NewOutboxItem;
  /** To the downline: their deposit was credited. */
  credited(downline: UserRecord, upline: UserRecord, request: DepositRequest, entry: LedgerEntry): NewOutboxItem;
  /** To the downline: their deposit request was rejected. */
  rejected(downline: UserRecord, upline: UserRecord, request: DepositRequest): NewOutboxItem;
  /** To the downline: their upline added to or deducted from the wallet. */
  adjusted(downline: UserRecord, upline: UserRecord, entry: LedgerEntry): NewOutboxItem;
}

export interface WalletServiceDeps {
  db: Db;
  now: () => Date;
  messages: WalletMessages;
  /** Wakes the outbox after a change queued a message. */
  onQueued?: () => void;
  /** The codes 1..999 in the order a request tries them; default a fresh random order each time. */
  codes?: () => number[];
}

/** A wallet with money or an open purchase, kept with an upline the user is no longer a downline of. */
export interface FormerWallet {
  summary: WalletSummary;
  /** The former upline (undefined if their record is gone). */
  upline: UserRecord | undefined;
}

/** What asking for a deposit came to. */
export type DepositAnswer =
  | { kind: 'not-downline' }
  | { kind: 'suspended' }
  | { kind: 'bad-amount' }
  | { kind: 'no-pay-info'; upline: UserRecord }
  | { kind: 'too-many'; open: DepositRequest[] }
  | { kind: 'busy' }
  | { kind: 'requested'; request: DepositRequest; upline: UserRecord; payInfo: string };

/** What the upline's ✅ / ❌ came to. */
export type DepositDecision =
  | { kind: 'unknown' }
  | { kind: 'expired'; request: DepositRequest }
  | { kind: 'accepted'; request: DepositRequest; balance: number; now: boolean }
  /** Not accepted: the downline left (or was removed) since asking; the request stays open to reject. */
  | { kind: 'gone'; request: DepositRequest }
  /** Not accepted: a former upline still keeps money or a purchase of this downline's wallet (see `keptByAnother`). */
  | { kind: 'held-elsewhere'; request: DepositRequest }
  | { kind: 'rejected'; request: DepositRequest; now: boolean };

/** What a manual adjustment came to (`former-deduct-only`: a former downline's wallet is only paid out). */
export type AdjustAnswer =
  | { kind: 'not-yours' }
  | { kind: 'former-deduct-only'; balance: number }
  | { kind: 'held-elsewhere' }
  | { kind: 'short'; balance: number }
  | { kind: 'done'; entry: LedgerEntry; downline: UserRecord; repeated: boolean };

/** Whether a request can still be decided at `now` (pending, not expired). */
export function isOpenRequest(request: DepositRequest, now: Date): boolean {
  return request.status === 'pending' && Date.parse(request.expiresAt) > now.getTime();
}

/** The ledger key a request is credited under. */
export const depositKey = (requestId: string): string => `deposit:${requestId}`;

const answer = <R>(result: R): UsersChange<R> => ({ patches: [], result });

/** Deposits, adjustments, balances and statements of downlines' wallets (see the file comment). */
export class WalletService {
  constructor(private readonly deps: WalletServiceDeps) {}

  /** The user's membership, when they are someone's downline. */
  async membership(userId: number): Promise<Membership | undefined> {
    return (await this.deps.db.users.get(userId))?.membership;
  }

  /** The upline's payment instructions, if set. */
  async payInfo(uplineId: number): Promise<string | undefined> {
    return (await this.deps.db.users.get(uplineId))?.depositDesk?.payInfo;
  }

  /** Sets the payment instructions downlines are shown with each deposit (only with downline mode open). */
  async setPayInfo(uplineId: number, text: string): Promise<'saved' | 'not-open' | 'too-long'> {
    const payInfo = text.trim();
    if (payInfo.length === 0 || payInfo.length > walletLimits.payInfoLength) return 'too-long';
    return this.change([uplineId], (users) => {
      const upline = users.get(uplineId);
      if (!upline?.downlineMode) return answer('not-open' as const);
      const desk: DepositDesk = { ...(upline.depositDesk ?? { requests: [] }), payInfo };
      return { patches: [{ id: uplineId, patch: { depositDesk: desk } }], result: 'saved' as const };
    });
  }

  /**
   * A downline asks to deposit `amount`: a request with a code 1..999 that no other open request of
   * the upline has (so the sum to transfer names it), valid for `depositValidMs`; the upline is
   * sent it in the same commit. Refused for a suspended downline, an upline without payment
   * instructions, or too many open requests.
   */
  async requestDeposit(downlineId: number, amount: number): Promise<DepositAnswer> {
    if (!Number.isSafeInteger(amount) || amount < walletLimits.minDeposit || amount > walletLimits.maxDeposit)
      return { kind: 'bad-amount' };
    const membership = await this.membership(downlineId);
    if (!membership) return { kind: 'not-downline' };
    const at = this.deps.now();
    const id = randomId();
    // Drawn outside the change (which must be pure: it may run again); the change picks the first free one.
    const candidates = (this.deps.codes ?? shuffledCodes)();
    return this.change([membership.uplineId, downlineId], (users): UsersChange<DepositAnswer> => {
      const downline = users.get(downlineId);
      const upline = users.get(membership.uplineId);
      if (!downline?.membership || downline.membership.uplineId !== membership.uplineId || !upline?.downlineMode)
        return answer({ kind: 'not-downline' });
      if (downline.membership.status !== 'active') return answer({ kind: 'suspended' });
      const desk = upline.depositDesk ?? { requests: [] };
      if (desk.payInfo === undefined) return answer({ kind: 'no-pay-info', upline });
      const open = desk.requests.filter((r) => isOpenRequest(r, at));
      const mine = open.filter((r) => r.downlineId === downlineId);
      if (mine.length >= walletLimits.openPerDownline) return answer({ kind: 'too-many', open: mine });
      const taken = new Set(open.map((r) => r.code));
      const code = candidates.find((c) => !taken.has(c));
      if (code === undefined || open.length >= walletLimits.openPerUpline) return answer({ kind: 'busy' });
      const request: DepositRequest = {
        id,
        downlineId,
        amount,
        code,
        total: amount + code,
        at: at.toISOString(),
        expiresAt: new Date(at.getTime() + walletLimits.depositValidMs).toISOString(),
        status: 'pending',
      };
      const next: DepositDesk = { ...desk, requests: keptRequests([...desk.requests, request], at) };
      return {
        patches: [{ id: upline.id, patch: { depositDesk: next } }],
        notify: [this.deps.messages.request(upline, downline, request)],
        result: { kind: 'requested', request, upline, payInfo: desk.payInfo },
      };
    });
  }

  /**
   * The upline's ✅ Terima or ❌ Tolak on a request. Decided once: a later tap is answered with
   * what was decided; an expired request is refused. Accepting credits the wallet once (see the
   * file comment), the downline told in the credit's commit; rejecting tells them in the decision's.
   */
  async decide(uplineId: number, requestId: string, decision: 'accept' | 'reject'): Promise<DepositDecision> {
    const found = (await this.deps.db.users.get(uplineId))?.depositDesk?.requests.find((r) => r.id === requestId);
    if (!found) return { kind: 'unknown' };
    const downlineId = found.downlineId;
    if (decision === 'accept' && found.status === 'pending' && (await this.keptByAnother(downlineId, uplineId))) {
      return { kind: 'held-elsewhere', request: found };
    }
    const at = this.deps.now();
    const decided = await this.change([uplineId, downlineId], (users): UsersChange<DepositDecision> => {
      const upline = users.get(uplineId);
      const desk = upline?.depositDesk;
      const request = desk?.requests.find((r) => r.id === requestId);
      if (!upline || !desk || !request) return answer({ kind: 'unknown' });
      if (request.status === 'accepted') return answer({ kind: 'accepted', request, balance: 0, now: false });
      if (request.status === 'rejected') return answer({ kind: 'rejected', request, now: false });
      if (!isOpenRequest(request, at)) return answer({ kind: 'expired', request });
      const downline = users.get(downlineId);
      // A credit to someone no longer theirs would grow a wallet they can only pay out (and could
      // block its move to a new upline); the upline settles such a transfer directly, or rejects it.
      if (decision === 'accept' && downline?.membership?.uplineId !== uplineId) return answer({ kind: 'gone', request });
      const next: DepositRequest = { ...request, status: decision === 'accept' ? 'accepted' : 'rejected', decidedAt: at.toISOString() };
      const patch = { depositDesk: { ...desk, requests: desk.requests.map((r) => (r.id === requestId ? next : r)) } };
      if (decision === 'reject') {
        return {
          patches: [{ id: uplineId, patch }],
          notify: downline ? [this.deps.messages.rejected(downline, upline, next)] : [],
          result: { kind: 'rejected', request: next, now: true },
        };
      }
      return { patches: [{ id: uplineId, patch }], result: { kind: 'accepted', request: next, balance: 0, now: true } };
    });
    if (decided.kind !== 'accepted') return decided;
    // Now or on an earlier run that may have stopped before the credit: the key makes it once.
    const balance = await this.credit(uplineId, decided.request);
    return { ...decided, balance };
  }

  /** Credits an accepted request's total under its key, the downline told with the entry; resolves the balance after. */
  private async credit(uplineId: number, request: DepositRequest): Promise<number> {
    const [upline, downline] = await Promise.all([this.deps.db.users.get(uplineId), this.deps.db.users.get(request.downlineId)]);
    const [appended] = await this.deps.db.ledger.append(
      [
        {
          wallet: request.downlineId,
          upline: uplineId,
          kind: 'deposit',
          amount: request.total,
          key: depositKey(request.id),
          refId: request.id,
        },
      ],
      {
        notify: (created) =>
          upline && downline ? created.map((entry) => this.deps.messages.credited(downline, upline, request, entry)) : [],
      },
    );
    if (appended?.created) this.deps.onQueued?.();
    return appended?.entry.balance ?? (await this.deps.db.ledger.balance(request.downlineId));
  }

  /**
   * Credits every accepted request whose credit is missing (see the file comment); run once at
   * start. The key makes each credit once however many instances run it at once. A credit the
   * ledger refuses (the wallet moved to another upline meanwhile) is left, its request id returned.
   */
  async finishAccepted(): Promise<{ credited: number; refused: string[] }> {
    const isAccepted = (request: DepositRequest) => request.status === 'accepted';
    const uplines = await this.deps.db.users.list({ where: (user) => user.depositDesk?.requests.some(isAccepted) === true });
    const done = { credited: 0, refused: [] as string[] };
    for (const upline of uplines) {
      for (const request of upline.depositDesk?.requests.filter(isAccepted) ?? []) {
        const entries = await this.deps.db.ledger.byRef(request.downlineId, request.id);
        if (entries.some((entry) => entry.key === depositKey(request.id))) continue;
        try {
          await this.credit(upline.id, request);
          done.credited += 1;
        } catch (error) {
          if (!(error instanceof LedgerRefusedError)) throw error;
          done.refused.push(request.id);
        }
      }
    }
    return done;
  }

  /**
   * The upline adds to (`amount` > 0) or deducts from (< 0) a downline's wallet, with a reason;
   * `key` names the asking (the update), so a replay moves nothing again. A deduction never takes
   * the balance below zero: refused with the balance. The downline is told in the same commit.
   */
  async adjust(uplineId: number, downlineId: number, amount: number, reason: string, key: string): Promise<AdjustAnswer> {
    const [upline, downline, summary] = await Promise.all([
      this.deps.db.users.get(uplineId),
      this.deps.db.users.get(downlineId),
      this.deps.db.ledger.summary(downlineId),
    ]);
    if (!upline?.downlineMode || !downline) return { kind: 'not-yours' };
    if (downline.membership?.uplineId !== uplineId) {
      // A former downline whose wallet this upline still keeps: paying it out only.
      if (summary?.upline !== uplineId) return { kind: 'not-yours' };
      if (amount > 0) return { kind: 'former-deduct-only', balance: summary.balance };
    }
    if (!Number.isSafeInteger(amount) || amount === 0 || Math.abs(amount) > Math.min(walletLimits.maxAdjust, maxLedgerAmount))
      throw new RangeError(`an adjustment of Rp ${amount} is out of bounds`);
    try {
      const [appended] = await this.deps.db.ledger.append(
        [{ wallet: downlineId, upline: uplineId, kind: 'adjust', amount, key: `adjust:${key}`, by: uplineId, reason }],
        { notify: (created) => created.map((entry) => this.deps.messages.adjusted(downline, upline, entry)) },
      );
      if (!appended) throw new Error('unreachable: an append of one entry answered none');
      if (appended.created) this.deps.onQueued?.();
      return { kind: 'done', entry: appended.entry, downline, repeated: !appended.created };
    } catch (error) {
      if (error instanceof LedgerShortError) return { kind: 'short', balance: error.balance };
      if (error instanceof LedgerRefusedError && error.reason === 'other-upline') return { kind: 'held-elsewhere' };
      throw error;
    }
  }

  /**
   * Whether another upline than `uplineId` still keeps money or an open purchase in the user's
   * wallet, so that `uplineId` cannot credit it. Joining is refused in that state, so only a join
   * racing a former upline's last credit (a ticket accepted just before the removal) comes here.
   */
  private async keptByAnother(userId: number, uplineId: number): Promise<boolean> {
    const summary = await this.deps.db.ledger.summary(userId);
    return summary !== undefined && summary.upline !== uplineId && !isMovable(summary);
  }

  /**
   * The upline's downline named by id or `@username` (any case), if theirs; or a former downline
   * whose wallet they still keep (to pay it out).
   */
  async findDownline(uplineId: number, ref: string): Promise<UserRecord | undefined> {
    const name = ref.startsWith('@') ? ref.slice(1).toLowerCase() : undefined;
    // An id as older screens showed it may be grouped (`700.000.002`).
    const digits = ref.replace(/[.,]/g, '');
    const id = name === undefined && /^\d{1,15}$/.test(digits) ? Number(digits) : undefined;
    if (name === undefined && id === undefined) return undefined;
    const matches = (user: UserRecord) => (id !== undefined ? user.id === id : user.username?.toLowerCase() === name);
    const downlines = await this.deps.db.users.list({ uplineId });
    const current = downlines.find(matches);
    if (current) return current;
    const candidates = id !== undefined ? [await this.deps.db.users.get(id)] : await this.deps.db.users.list({ where: matches });
    for (const user of candidates) {
      if (user && (await this.deps.db.ledger.summary(user.id))?.upline === uplineId) return user;
    }
    return undefined;
  }

  /**
   * The user's wallet when it holds money or an open purchase with an upline they are not a
   * downline of (removed, or never moved): what a removed downline still sees, and what stops
   * them joining another upline until it is paid out.
   */
  async heldElsewhere(userId: number): Promise<FormerWallet | undefined> {
    const [user, summary] = await Promise.all([this.deps.db.users.get(userId), this.deps.db.ledger.summary(userId)]);
    if (!summary || isMovable(summary) || user?.membership?.uplineId === summary.upline) return undefined;
    return { summary, upline: await this.deps.db.users.get(summary.upline) };
  }

  /** A wallet's balance. */
  balance(downlineId: number): Promise<number> {
    return this.deps.db.ledger.balance(downlineId);
  }

  /** A statement page (0 the newest), newest first with the running balance, and whether an older page exists. */
  async statement(downlineId: number, page: number): Promise<{ entries: LedgerEntry[]; hasMore: boolean }> {
    const size = walletLimits.statementPage;
    const found = await this.deps.db.ledger.statement(downlineId, { limit: size + 1, offset: page * size });
    return { entries: found.slice(0, size), hasMore: found.length > size };
  }

  private change<R>(ids: readonly number[], change: (users: ReadonlyMap<number, UserRecord>) => UsersChange<R>): Promise<R> {
    return transactUsers(this.deps, ids, change);
  }
}

/** The requests with the closed (decided or expired) ones beyond `closedKept` dropped, oldest first. */
function keptRequests(requests: readonly DepositRequest[], now: Date): DepositRequest[] {
  const closed = requests.filter((r) => !isOpenRequest(r, now));
  const drop = new Set(closed.slice(0, Math.max(0, closed.length - walletLimits.closedKept)));
  return requests.filter((r) => !drop.has(r));
}

/** The codes 1..999 in random order (Fisher-Yates): which one a request gets says nothing about the others. */
function shuffledCodes(): number[] {
  const codes = Array.from({ length: 999 }, (_, i) => i + 1);
  for (let i = codes.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [codes[i], codes[j]] = [codes[j]!, codes[i]!];
  }
  return codes;
}
