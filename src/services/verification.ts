import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../store/db.ts';
import type { Logger } from '../logger.ts';
import type { CredentialService } from './credentials.ts';
import type { MarketplaceClient } from '../providers/marketplace/client.ts';
import type { Purchase } from '../providers/marketplace/schemas.ts';
import { isProviderError, type ProviderError } from '../providers/provider-error.ts';

/** How long a purchase-code answer is reused for the same account and code (ms). */
export const verifyCacheMs = 60_000;

/** At most this many purchase-code checks per chat within the window; more get "wait". */
export const verifyRateLimit = { checks: 5, windowMs: 60_000 } as const;

/** Real purchase codes are UUIDs (36 characters); anything much longer is not one. */
export const maxPurchaseCodeLength = 100;

/** Cap on remembered answers, whatever their age (a flood of distinct codes cannot grow memory). */
const maxCacheEntries = 5000;

/** Past this many remembered chats, quiet ones are forgotten. */
const maxTrackedChats = 1000;

/** What a purchase-code check found: the purchase, or the marketplace's refusal (its `msg`). */
export type VerifyOutcome = { valid: true; purchase: Purchase } | { valid: false; message: string };

/** One purchase-code check, as the chat asked for it (`senderId` undefined for an anonymous admin or a channel). */
export interface VerifyRequest {
  chatId: number;
  isPrivate: boolean;
  senderId: number | undefined;
  code: string;
}

/**
 * How a check ended:
 * - `bad-code`: empty or far too long to be a purchase code; nothing was asked or counted.
 * - `not-connected`: no marketplace account can answer here. `sender`: in a private chat the
 *   sender has none; `group-owner`: the group's linker has none; `group`: the group is not
 *   linked and the sender has none. Nothing was counted.
 * - `too-many`: the chat used up its checks; `waitMs` until the next is allowed. `tell` is false
 *   for a group already told within the window (a burst of checks is not met by a burst of notices).
 * - `answered`: the marketplace's verdict (valid purchase, or its refusal of the code), `cached`
 *   when reused from memory, `account` the label of the account that answered.
 * - `failed`: the marketplace could not answer (credentials, IP, outage...); `ownAccount` is
 *   false when the account was the group owner's rather than the sender's.
 */
export type VerifyResult =
  | { kind: 'bad-code' }
  | { kind: 'not-connected'; who: 'sender' | 'group-owner' | 'group' }
  | { kind: 'too-many'; waitMs: number; tell: boolean }
  | { kind: 'answered'; outcome: VerifyOutcome; cached: boolean; account: string | undefined }
  | { kind: 'failed'; error: ProviderError; ownAccount: boolean };

export interface VerificationDeps {
  db: Db;
  credentials: CredentialService;
  logger: Logger;
  now: () => Date;
}

/** Whose marketplace account answers a check, and whether that is the sender's own. */
interface Seller {
  client: MarketplaceClient;
  userId: number;
  own: boolean;
}

/** Marketplace purchase-code checks (/verify): who answers, the answers' memory and each chat's rate limit. */
export class VerificationService {
  /** By opaque key of (account, code): the outcome and when it was fetched (ms). */
  private readonly answers = new Map<string, { at: number; outcome: VerifyOutcome }>();
  /** By chat id: times (ms) of the checks within the rate-limit window, oldest first. */
  private readonly checks = new Map<number, number[]>();
  /** By group chat id: when the group was last told "too many checks" (told once per window). */
  private readonly warned = new Map<number, number>();
  /** Keys the cache with an HMAC under a per-process secret: a code cannot be recovered from a key. */
  private readonly keySecret = randomBytes(32);

  constructor(private readonly deps: VerificationDeps) {}

  /**
   * Checks a buyer's purchase code with the marketplace account that answers in this chat: the
   * sender's own in a private chat; in a group, the account of whoever linked it (/linkgroup),
   * else the sender's. Each chat gets `verifyRateLimit.checks` checks per window; the same code
   * for the same account (as connected: a reconnect starts afresh) is answered from memory for
   * `verifyCacheMs`. `beforeAsking` runs just before the marketplace is asked (not for an answer
   * from memory), e.g. to show "typing". A purchase code is never logged nor kept in plain text.
   * Errors that are not provider errors are thrown (they are bugs).
   */
  async verify(request: VerifyRequest, hooks: { beforeAsking?: () => Promise<void> } = {}): Promise<VerifyResult> {
    const { db, logger, now } = this.deps;
    const code = request.code.trim();
    if (code === '' || code.length > maxPurchaseCodeLength) return { kind: 'bad-code' };
    const seller = await this.sellerFor(request);
    if ('kind' in seller) return seller;

    const at = now().getTime();
    const waitMs = this.takeCheck(request.chatId, at);
    if (waitMs > 0) {
      if (request.isPrivate) return { kind: 'too-many', waitMs, tell: true };
      const told = (this.warned.get(request.chatId) ?? -Infinity) > at - verifyRateLimit.windowMs;
      if (!told) this.warned.set(request.chatId, at);
      return { kind: 'too-many', waitMs, tell: !told };
    }

    const account = (await db.credentials.info(seller.userId, 'marketplace'))?.label;
    const key = await this.answerKey(seller.userId, code);
    const remembered = this.recentAnswer(key, at);
    if (remembered) return { kind: 'answered', outcome: remembered, cached: true, account };

    await hooks.beforeAsking?.();
    let outcome: VerifyOutcome;
    try {
      outcome = { valid: true, purchase: await seller.client.validatePurchase(code) };
    } catch (error) {
      if (!isProviderError(error)) throw error;
      // Only the kind: the marketplace's message could quote the code, which must never be logged.
      logger.warn('marketplace purchase check failed', {
        chatId: request.chatId,
        userId: request.senderId,
        kind: error.kind,
        httpStatus: error.httpStatus,
      });
      if (error.kind !== 'not_found') return { kind: 'failed', error, ownAccount: seller.own };
      outcome = { valid: false, message: error.providerMessage ?? '-' };
    }
    this.remember(key, outcome, at);
    return { kind: 'answered', outcome, cached: false, account };
  }

  /** The account that answers here, or why there is none. */
  private async sellerFor(request: VerifyRequest): Promise<Seller | Extract<VerifyResult, { kind: 'not-connected' }>> {
    const { db, credentials } = this.deps;
    const { senderId } = request;
    const link = request.isPrivate ? undefined : await db.groups.get(request.chatId);
    if (link) {
      const client = await credentials.client(link.ownerId, 'marketplace');
      return client ? { client, userId: link.ownerId, own: link.ownerId === senderId } : { kind: 'not-connected', who: 'group-owner' };
    }
    const client = senderId === undefined ? undefined : await credentials.client(senderId, 'marketplace');
    if (client && senderId !== undefined) return { client, userId: senderId, own: true };
    return { kind: 'not-connected', who: request.isPrivate ? 'sender' : 'group' };
  }

  /** Counts a check in `chatId` at `at`. Returns 0 when allowed, else ms until the oldest check in the window expires. */
  private takeCheck(chatId: number, at: number): number {
    const { checks, warned } = this;
    const since = at - verifyRateLimit.windowMs;
    const recent = (checks.get(chatId) ?? []).filter((time) => time > since);
    if (recent.length >= verifyRateLimit.checks) {
      checks.set(chatId, recent);
      return recent[0]! + verifyRateLimit.windowMs - at;
    }
    recent.push(at);
    checks.set(chatId, recent);
    // Forget quiet chats now and then so the maps do not grow with every chat ever seen.
    if (checks.size > maxTrackedChats) {
      for (const [id, times] of checks) if (times.every((time) => time <= since)) checks.delete(id);
      for (const [id, time] of warned) if (time <= since) warned.delete(id);
    }
    return 0;
  }

  /** The seller's account (as connected) and the code as one opaque key. */
  private async answerKey(sellerId: number, code: string): Promise<string> {
    const connectedAt = (await this.deps.db.credentials.info(sellerId, 'marketplace'))?.connectedAt ?? '';
    return createHmac('sha256', this.keySecret).update(`${sellerId}\u0000${connectedAt}\u0000`).update(code).digest('base64url');
  }

  private recentAnswer(key: string, at: number): VerifyOutcome | undefined {
    const entry = this.answers.get(key);
    if (!entry) return undefined;
    if (at - entry.at < verifyCacheMs && at >= entry.at) return entry.outcome;
    this.answers.delete(key);
    return undefined;
  }

  private remember(key: string, outcome: VerifyOutcome, at: number): void {
    const { answers } = this;
    for (const [other, entry] of answers) if (at - entry.at >= verifyCacheMs) answers.delete(other);
    answers.delete(key);
    answers.set(key, { at, outcome });
    // Map order is insertion order: the oldest go first when a flood of distinct codes arrives.
    while (answers.size > maxCacheEntries) {
      const oldest = answers.keys().next().value;
      if (oldest === undefined) break;
      answers.delete(oldest);
    }
  }
}
