/**
 * The outbox: the one way the bot sends messages on its own (notices, alerts, group posts,
 * reminders, broadcasts). Producers put items in the store (`store.outbox.enqueue`, or with a
 * settlement in the same write) and call `kick()`.
 *
 * - Nothing is lost: an item leaves the store only once Telegram accepted it, or when it can never
 *   succeed (blocked, refused as malformed, invalid payload, failing for `retry.giveUpAfterMs`),
 *   each logged.
 * - At least once: a crash between Telegram's answer and the removal reaching the disk (or a
 *   timeout Telegram delivered anyway) re-sends the item. At most `maxUnrecorded` deliveries are
 *   unrecorded at once (request until its outcome is written), so a kill -9 re-sends at most that
 *   many. Recording "sent" first would not help: it is a write as long as the removal, and
 *   Telegram offers no idempotency key.
 * - Order: per chat, one at a time in queue order; an item waiting out a 429 or a back-off holds
 *   back its chat (across restarts too); one scheduled for later (`notBefore`) holds nothing back.
 *
 * Pacing: every message takes its turn in the one rate gate (rate-gate.ts): queued items in the
 * notice lane, broadcast copies in the bulk lane below, the bot's replies above.
 * Errors: 429 waits `retry_after` for that chat and retries; 403 marks a user inactive (a group:
 * `onBlocked`) and drops; 400 with `migrate_to_chat_id` moves the chat's items (`onMigrated`); an
 * edit that cannot apply is dropped (or sent anew with `sendIfGone`); any other 400 is dropped;
 * the rest is retried with back-off (2 s doubling to 10 min, pausing the outbox) for 24 h.
 */
import { singleProcessClaims, type ClaimTokens } from '../store/claim-holder.ts';
import type { Api } from 'grammy';
import type { Logger } from '../logger.ts';
import type { OutboxEntry } from '../store/records/outbox.ts';
import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.ts';
import { htmlParseMode } from '../text/html.ts';
import { createRateGate, definedOnly, type RateGate, type RateLimits } from './rate-gate.ts';
import { createBulkLane, type BulkLane, type BulkSource } from './bulk.ts';
import { createOutcomeRecorder, type OutcomeRecorder } from './recording.ts';
import { queuedBefore, type OutboxRetry } from './outbox-items.ts';
import { OutboxDeliveries } from './outbox-delivery.ts';

/** Telegram's limits as the outbox's own gate applies them (when no `gate` is passed). */
export type OutboxLimits = RateLimits;

export interface OutboxOptions {
  /** A fresh `new Api(token, { apiRoot })` with only `htmlParseMode`: no retrying transformer, the outbox retries itself. */
  api: Api;
  db: Db;
  /** Items are claimed under its token and sent only while it holds. Default: a single process's own. */
  claims?: ClaimTokens;
  /** The process's one gate, shared with the replies (on `performance.now`). Default: the outbox's own with `limits`. */
  gate?: RateGate;
  logger: Logger;
  /** Clock for the timestamps stored on items (`notBefore`, `failingSince`); pacing is monotonic. */
  now?: () => Date;
  /** The limits of the outbox's own gate; ignored when `gate` is passed. */
  limits?: OutboxLimits;
  retry?: OutboxRetry;
  /** Most deliveries whose outcome is not on disk yet. Default `maxUnrecordedDeliveries`. */
  maxUnrecorded?: number;
  /** A group (chat id < 0) refused the bot (403): remove its link. Users are marked inactive by the outbox itself. */
  onBlocked?: (chatId: number) => void | Promise<void>;
  /** A group became a supergroup; its queued items already moved to `newId`. */
  onMigrated?: (oldId: number, newId: number) => void | Promise<void>;
}

export interface Outbox {
  /** Starts delivering (resumes whatever the store holds). Idempotent. */
  start(): void;
  /** Stops scheduling and resolves once the calls in flight are answered and recorded. Items stay queued. */
  stop(): Promise<void>;
  /** Wakes the outbox now (call after queueing); many kicks in a row cost one pass. */
  kick(): void;
  /** Resolves when nothing is in flight, due or waiting for a retry; rejects on stop or after `timeoutMs`. For tests and benchmarks. */
  drain(options?: { timeoutMs?: number }): Promise<void>;
  /** Attaches (or detaches) the bulk lane's source: it gets the turns queued items leave free (bulk.ts). */
  setBulkSource(source: BulkSource | undefined): void;
}

const defaults = {
  baseMs: 2000,
  maxMs: 10 * 60_000,
  giveUpAfterMs: 24 * 3600_000,
  requestTimeoutMs: 30_000,
} as const;

/** How often the queue is re-read without a `kick()`. */
const pollMs = 5000;

/** Most deliveries whose outcome is not on disk yet at any instant: what a kill -9 can re-send. */
export const maxUnrecordedDeliveries = 8;

/** Creates the outbox over `store.outbox`. Nothing is sent before `start()`. */
export function createOutbox(options: OutboxOptions): Outbox {
  return new OutboxRunner(options);
}

/** What one scheduling pass found: when the outbox should look again (the soonest wins). */
interface Wake {
  at: number;
}

/** The outbox's scheduling: passes over the queue, their timer, start and stop, and drains. */
class OutboxRunner implements Outbox {
  private readonly db: Db;
  private readonly log: Logger;
  private readonly now: () => Date;
  private readonly mono = () => performance.now();
  private readonly gate: RateGate;
  private readonly maxUnrecorded: number;
  private readonly recorder: OutcomeRecorder;
  private readonly deliveries: OutboxDeliveries;
  private readonly bulk: BulkLane;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** Deliveries in progress by item id: from the request until its outcome is recorded in the store. */
  private readonly sending = new Map<string, Promise<void>>();
  private readonly busyChats = new Set<number>();
  private readonly drainWaiters = new Set<(error?: Error) => void>();
  /** One pass at a time: a pass reads the queue, then starts deliveries; a wake meanwhile runs another after it. */
  private pumping = false;
  private pumpAgain = false;

  constructor(options: OutboxOptions) {
    const { api, db } = options;
    this.db = db;
    this.log = options.logger.child({ component: 'outbox' });
    this.now = options.now ?? (() => new Date());
    const retry = { ...defaults, ...definedOnly(options.retry) };
    this.gate = options.gate ?? createRateGate({ limits: options.limits, mono: this.mono });
    this.maxUnrecorded = Math.max(1, options.maxUnrecorded ?? maxUnrecordedDeliveries);
    warnIfRetrying(api, this.log);
    const wake = () => this.schedulePump();
    // A delivery keeps its unrecorded slot until its outcome is on disk, however long the disk fails.
    this.recorder = createOutcomeRecorder({ log: this.log, baseMs: retry.baseMs, onRecovered: wake });
    const shared = { api, db, log: this.log, gate: this.gate, sending: this.sending, busyChats: this.busyChats };
    this.deliveries = new OutboxDeliveries({
      ...shared,
      claims: options.claims ?? singleProcessClaims(`outbox-${randomUUID()}`),
      now: this.now,
      mono: this.mono,
      retry,
      recorder: this.recorder,
      onBlocked: options.onBlocked,
      onMigrated: options.onMigrated,
      wake,
    });
    this.bulk = createBulkLane({
      ...shared,
      maxUnrecorded: this.maxUnrecorded,
      recorder: this.recorder,
      requestTimeoutMs: retry.requestTimeoutMs,
      retryBaseMs: retry.baseMs,
      wake,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.recorder.start();
    void this.db.outbox.size().then(
      (queued) => this.log.info('outbox started', { queued }),
      () => undefined,
    );
    this.schedulePump();
  }

  async stop(): Promise<void> {
    this.running = false;
    // A record still failing gets one last try; its message may be sent again after the restart.
    this.recorder.stop();
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    for (const finish of this.drainWaiters) finish(new Error('The outbox stopped before it drained.'));
    await Promise.allSettled([...this.sending.values()]);
  }

  kick(): void {
    this.schedulePump();
  }

  setBulkSource(source: BulkSource | undefined): void {
    this.bulk.setSource(source);
  }

  drain({ timeoutMs }: { timeoutMs?: number } = {}): Promise<void> {
    if (!this.running) return Promise.reject(new Error('The outbox is not running; call start() before drain().'));
    return new Promise<void>((resolve, reject) => {
      let timeout: NodeJS.Timeout | undefined;
      const finish = (error?: Error) => {
        this.drainWaiters.delete(finish);
        clearTimeout(timeout);
        if (error) reject(error);
        else resolve();
      };
      if (timeoutMs !== undefined) {
        timeout = setTimeout(() => {
          void this.db.outbox.size().then((queued) => {
            finish(new Error(`The outbox did not drain within ${timeoutMs} ms (${queued} items queued, ${this.sending.size} in flight).`));
          });
        }, timeoutMs);
      }
      this.drainWaiters.add(finish);
      this.schedulePump();
    });
  }

  private schedulePump(): void {
    if (!this.running || this.immediate) return;
    this.immediate = setImmediate(() => {
      this.immediate = undefined;
      this.pump();
    });
  }

  private setTimer(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.pump();
      },
      Math.max(0, Math.ceil(delayMs)),
    );
    this.timer.unref();
  }

  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void this.pumpOnce().finally(() => {
      this.pumping = false;
      if (this.pumpAgain) {
        this.pumpAgain = false;
        this.pump();
      }
    });
  }

  /** One scheduling pass: starts every delivery the limits allow now and sets the timer for the next. */
  private async pumpOnce(): Promise<void> {
    if (!this.running) return;
    const wake: Wake = { at: this.mono() + pollMs };
    try {
      await this.pass(wake);
    } catch (error) {
      this.log.error('outbox pass failed; trying again shortly', { error });
      wake.at = Math.min(wake.at, this.mono() + 1000);
    }
    this.setTimer(wake.at - this.mono());
  }

  /** Reads the queue, starts what may go now, and moves `wake.at` to the soonest time something else may. */
  private async pass(wake: Wake): Promise<void> {
    const t = this.mono();
    const wall = this.now().getTime();
    const heads = await this.headsOfChats(t, wall, wake);
    const ready: OutboxEntry[] = [];
    for (const [chatId, { entry, dueAt }] of heads) {
      const readyAt = Math.max(dueAt, this.gate.chatReadyAt(chatId, 'notice'));
      if (readyAt <= t) ready.push(entry);
      else wake.at = Math.min(wake.at, readyAt);
    }
    ready.sort((a, b) => (queuedBefore(a, b) ? -1 : 1));
    // While an outcome cannot be written, nothing new goes out (recording.ts); its recovery wakes the pump.
    if (this.recorder.failing) ready.length = 0;
    const started = this.startDeliveries(ready, t, wake);
    // Queued items first: the bulk lane only gets what is left once every ready item started.
    if (started === ready.length && !this.recorder.failing) {
      const bulkAt = this.bulk.fill(t);
      if (Number.isFinite(bulkAt)) wake.at = Math.min(wake.at, bulkAt);
    }
    if (heads.size === 0 && this.sending.size === 0) for (const finish of this.drainWaiters) finish();
  }

  /** Per chat, the oldest item that is due or waiting for a retry; it holds back the rest of its chat. */
  private async headsOfChats(t: number, wall: number, wake: Wake): Promise<Map<number, { entry: OutboxEntry; dueAt: number }>> {
    const heads = new Map<number, { entry: OutboxEntry; dueAt: number }>();
    for (const entry of await this.db.outbox.entries()) {
      if (this.busyChats.has(entry.chatId)) continue;
      const dueAt = this.deliveries.retryTimeOf(entry.id) ?? (entry.notBefore === undefined ? t : t + (Date.parse(entry.notBefore) - wall));
      if (dueAt > t && entry.attempts === 0) {
        // Scheduled for later: holds nothing back; wake up when it is due.
        wake.at = Math.min(wake.at, dueAt);
        continue;
      }
      const head = heads.get(entry.chatId);
      if (!head || queuedBefore(entry, head.entry)) heads.set(entry.chatId, { entry, dueAt });
    }
    return heads;
  }

  /** Starts the ready items in queue order while the crash bound and the gate's notice lane allow; returns how many started. */
  private startDeliveries(ready: readonly OutboxEntry[], t: number, wake: Wake): number {
    let started = 0;
    for (const entry of ready) {
      // Crash bound: a delivery frees its slot only once its outcome is on disk (see the module comment).
      if (this.sending.size >= this.maxUnrecorded) break;
      const freeAt = this.gate.nextTurnAt('notice');
      if (freeAt > t) {
        // Full (or a reply waits, or paused): a completion or the window's end frees a turn.
        if (Number.isFinite(freeAt)) wake.at = Math.min(wake.at, freeAt);
        break;
      }
      this.deliveries.start(entry);
      started += 1;
    }
    return started;
  }
}

/** `htmlParseMode` only adds a field; any other transformer may retry on its own (auto-retry). */
function warnIfRetrying(api: Api, log: Logger): void {
  if (api.config.installedTransformers().some((transformer) => transformer !== htmlParseMode)) {
    log.warn(
      'the outbox Api has transformers installed; it must not retry on its own (no auto-retry), or 429s are waited out twice and items may be sent twice',
    );
  }
}
