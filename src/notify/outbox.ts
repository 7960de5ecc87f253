/**
 * The outbox: the one way the bot sends messages on its own (settlement notices, alerts, group
 * posts, reminders, broadcasts). Producers put items in the store (`store.outbox.enqueue`, or
 * `transactions.settle(..., { notify })` in the same write as a settlement) and call `kick()`;
 * the outbox delivers them in order per chat within Telegram's limits and removes each item only
 * after Telegram accepted it.
 *
 * Delivery guarantees
 * - Nothing is lost: an item leaves the store only when Telegram accepted it, or when it can never
 *   succeed (recipient blocked the bot, Telegram refused it as malformed, the payload is invalid,
 *   or it kept failing on the network / with 5xx for `retry.giveUpAfterMs`, 24 h by default) -
 *   each of those is logged.
 * - At least once, and in practice once: within a process an item is never sent twice. A crash in
 *   the milliseconds between Telegram's answer and the removal reaching the disk, or a request
 *   whose answer never arrives (timeout) although Telegram delivered it, re-sends that item after
 *   the restart. Store writes are coalesced, so a removal is on disk some milliseconds after
 *   Telegram's answer; to bound what a crash can repeat, at most `maxUnrecorded` deliveries
 *   (default `maxUnrecordedDeliveries`, 8) are "unrecorded" at any instant - from the request
 *   until the item's removal (or retry record) is written - and no new request starts while that
 *   many are. A kill -9 therefore re-sends at most 8 messages, however long the queue. Recording
 *   "sent" before removing would not narrow the window further: it is itself a write, as long as
 *   the removal; Telegram offers no idempotency key to close it. The price is some throughput
 *   when Telegram is far away (the bound then caps the requests in flight); on a short round trip
 *   the pace holds (bench/README.md, outbox.ts, the unrecorded bound).
 * - Order: per chat, items go out one at a time in the order they were queued. An item waiting
 *   out a 429 or a back-off holds back the later items of its chat (also across a restart). An
 *   item scheduled for later (`notBefore`, no failed attempt) does not hold anything back.
 *
 * Pacing (Telegram's limits, counted from Telegram's answers so network jitter cannot squeeze two
 * messages into one window): one message per chat per `perChatMs`, `perGroupPerMinute` per group
 * per `groupWindowMs`, `globalPerSecond` over all chats per `globalWindowMs`, the starts spread
 * evenly over the window. The global default is 25/s, below Telegram's ~30/s. The bot's replies
 * count in the same window through `replyPacer()` and go first: a reply that finds the window full
 * takes the next slot before the outbox does. The bookkeeping lives in pacing.ts.
 *
 * Errors: 429 waits `retry_after` for that chat (every outbox call names a chat, and the outbox's
 * own pacing keeps the bot under the global limit), then retries the same item - never dropped.
 * 403 (blocked, deactivated, kicked) marks a user inactive or calls `onBlocked` for a group, and
 * drops the item. 400 with `migrate_to_chat_id` moves every item of the chat to the supergroup and
 * calls `onMigrated`. An edit of a message that is gone, too old or already up to date is dropped
 * (or sent as a new message with `sendIfGone`). Any other 400 is logged and dropped. Network
 * errors, timeouts, 5xx and anything else are retried with exponential back-off (2 s doubling up
 * to 10 min, also pausing the whole outbox for a while) and given up after 24 h with an error log.
 */
import { singleProcessClaims, type ClaimTokens } from '../store/claim-holder.ts';
import { GrammyError, HttpError, type Api, type Transformer } from 'grammy';
import type { Logger } from '../logger.ts';
import type { OutboxEntry, OutboxItem } from '../store/records/outbox.ts';
import { randomUUID } from 'node:crypto';
import type { Db } from '../store/db.ts';
import { asSend, deliverPayload, outboxPayloadSchema, type OutboxPayload } from './payload.ts';
import { htmlParseMode } from '../text/html.ts';
import { createPacing, definedOnly, type OutboxLimits } from './pacing.ts';
import { createBulkLane, type BulkSource } from './bulk.ts';
import { createReplyPacer } from './reply-pacer.ts';
import { createOutcomeRecorder } from './recording.ts';
import { describe, errorSummary, queuedBefore, uneditable, type OutboxRetry } from './outbox-items.ts';
import type { FleetGate } from './fleet-pacing.ts';

export type { OutboxLimits } from './pacing.ts';

export interface OutboxOptions {
  /**
   * The Bot API client. It must NOT have the auto-retry transformer (or any retrying transformer):
   * the outbox handles 429 and retries itself, per chat and persistently. Pass a fresh
   * `new Api(token, { apiRoot })`, not `bot.api`, with only `htmlParseMode` installed.
   */
  api: Api;
  db: Db;
  /**
   * The process's claims: items are claimed under its token and sent only while that token holds
   * (a fleet instance's heartbeat renews it). Default: a single process's own, default lease.
   */
  claims?: ClaimTokens;
  /** With several instances: the fleet's shared send slots, taken before every message (fleet-pacing.ts). */
  fleetGate?: FleetGate;
  logger: Logger;
  /** Clock for the timestamps stored on items (`notBefore`, `failingSince`). Pacing uses the monotonic clock. */
  now?: () => Date;
  limits?: OutboxLimits;
  retry?: OutboxRetry;
  /** How often the queue is re-read without a `kick()`. Default 5000. */
  pollMs?: number;
  /**
   * Most deliveries at once whose outcome is not on disk yet (what a crash can re-send).
   * Default `maxUnrecordedDeliveries` (8).
   */
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
  /** Wakes the outbox now (call after queueing). Cheap; many kicks in a row cost one pass. */
  kick(): void;
  /**
   * Resolves when nothing is in flight and no item is due or waiting for a retry (items scheduled
   * for later may remain). Rejects if the outbox stops first or after `timeoutMs`. For tests and
   * benchmarks.
   */
  drain(options?: { timeoutMs?: number }): Promise<void>;
  /** Attaches (or detaches) the bulk lane's source: it gets the slots queued items leave free (bulk.ts). */
  setBulkSource(source: BulkSource | undefined): void;
  /**
   * A transformer for the Api the bot replies with (bot.api, and each conversation's): the replies
   * count in the outbox's global window and go first (reply-pacer.ts).
   */
  replyPacer(): Transformer;
}

const defaults = {
  baseMs: 2000,
  maxMs: 10 * 60_000,
  giveUpAfterMs: 24 * 3600_000,
  requestTimeoutMs: 30_000,
  pollMs: 5000,
} as const;

/**
 * Most deliveries whose outcome is not yet on disk at any instant: from the request to Telegram
 * until the item's removal (or its retry record) has been written. A kill -9 can therefore
 * re-send at most this many messages after the restart.
 */
export const maxUnrecordedDeliveries = 8;

/** Seconds to wait when a 429 carries no retry_after (it always does in practice). */
const fallbackRetryAfterSeconds = 5;

/**
 * Creates the outbox over `store.outbox`. Nothing is sent before `start()`.
 *
 * @example
 * const outbox = createOutbox({ api: new Api(token, { apiRoot }), store, logger });
 * outbox.start();
 * await store.outbox.enqueue({ chatId, kind: 'alert', payload: { type: 'send', text } satisfies OutboxPayload });
 * outbox.kick();
 */
export function createOutbox(options: OutboxOptions): Outbox {
  const { api, db } = options;
  const claims = options.claims ?? singleProcessClaims(`outbox-${randomUUID()}`);
  const log = options.logger.child({ component: 'outbox' });
  const now = options.now ?? (() => new Date());
  const limits = { ...defaults, ...definedOnly(options.retry) };
  const pacing = createPacing(options.limits);
  const pollMs = options.pollMs ?? defaults.pollMs;
  const maxUnrecorded = Math.max(1, options.maxUnrecorded ?? maxUnrecordedDeliveries);
  const mono = () => performance.now();

  // `htmlParseMode` only adds a field; any other transformer may retry on its own (auto-retry).
  if (api.config.installedTransformers().some((transformer) => transformer !== htmlParseMode)) {
    log.warn(
      'the outbox Api has transformers installed; it must not retry on its own (no auto-retry), or 429s are waited out twice and items may be sent twice',
    );
  }

  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  /** Deliveries in progress by item id: from the request until its outcome is recorded in the store. */
  const sending = new Map<string, Promise<void>>();
  const busyChats = new Set<number>();
  /** Per item: monotonic time of its retry (the in-process view of its stored notBefore). */
  const retryAt = new Map<string, number>();
  let consecutiveFailures = 0;
  const drainWaiters = new Set<{ resolve: () => void; reject: (error: Error) => void }>();
  // A delivery keeps its unrecorded slot until its outcome is on disk, however long the disk fails.
  const recorder = createOutcomeRecorder({ log, baseMs: limits.baseMs, onRecovered: () => schedulePump() });
  const persist = (write: () => Promise<unknown>, item: Pick<OutboxItem, 'id' | 'chatId'>) => recorder.record(write, describe(item));
  const bulk = createBulkLane({
    api,
    db,
    log,
    pacing,
    sending,
    busyChats,
    maxUnrecorded,
    recorder,
    requestTimeoutMs: limits.requestTimeoutMs,
    retryBaseMs: limits.baseMs,
    mono,
    wake: () => schedulePump(),
    ...(options.fleetGate ? { fleetGate: options.fleetGate } : {}),
  });

  const schedulePump = () => {
    if (!running || immediate) return;
    immediate = setImmediate(() => {
      immediate = undefined;
      pump();
    });
  };

  const setTimer = (delayMs: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = undefined;
        pump();
      },
      Math.max(0, Math.ceil(delayMs)),
    );
    timer.unref();
  };

  /** One scheduling pass: starts every delivery the limits allow now and sets the timer for the next. */
  /** One pass at a time: a pass reads the queue, then starts deliveries; a wake meanwhile runs another after it. */
  let pumping = false;
  let pumpAgain = false;
  function pump(): void {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    void pumpOnce().finally(() => {
      pumping = false;
      if (pumpAgain) {
        pumpAgain = false;
        pump();
      }
    });
  }

  async function pumpOnce(): Promise<void> {
    if (!running) return;
    let wakeAt = mono() + pollMs;
    try {
      const t = mono();
      const wall = now().getTime();
      pacing.prune(t, (chatId) => busyChats.has(chatId));
      // Per chat, the oldest item that is due or waiting for a retry; it holds back the rest of its chat.
      const heads = new Map<number, { entry: OutboxEntry; dueAt: number }>();
      for (const entry of await db.outbox.entries()) {
        if (busyChats.has(entry.chatId)) continue;
        const dueAt = retryAt.get(entry.id) ?? (entry.notBefore === undefined ? t : t + (Date.parse(entry.notBefore) - wall));
        if (dueAt > t && entry.attempts === 0) {
          // Scheduled for later: holds nothing back; wake up when it is due.
          wakeAt = Math.min(wakeAt, dueAt);
          continue;
        }
        const head = heads.get(entry.chatId);
        if (!head || queuedBefore(entry, head.entry)) heads.set(entry.chatId, { entry, dueAt });
      }
      const ready: OutboxEntry[] = [];
      for (const [chatId, { entry, dueAt }] of heads) {
        const readyAt = Math.max(dueAt, pacing.chatReadyAt(chatId, t));
        if (readyAt <= t) ready.push(entry);
        else wakeAt = Math.min(wakeAt, readyAt);
      }
      ready.sort((a, b) => (queuedBefore(a, b) ? -1 : 1));
      let started = 0;
      // While an outcome cannot be written, nothing new goes out (recording.ts); its recovery wakes the pump.
      if (recorder.failing) ready.length = 0;
      for (const entry of ready) {
        // Crash bound: a delivery frees its slot only once its outcome is on disk (see the module comment).
        if (sending.size >= maxUnrecorded) break;
        const freeAt = pacing.outboxFreeAt(t);
        if (freeAt > t) {
          // Full: a completion or the window's end frees a slot.
          if (Number.isFinite(freeAt)) wakeAt = Math.min(wakeAt, freeAt);
          break;
        }
        deliver(entry);
        started += 1;
      }
      // Queued items first: the bulk lane only gets what is left once every ready item started.
      if (started === ready.length && !recorder.failing) {
        const bulkAt = bulk.fill(t);
        if (Number.isFinite(bulkAt)) wakeAt = Math.min(wakeAt, bulkAt);
      }
      if (heads.size === 0 && sending.size === 0) settleDrains();
    } catch (error) {
      log.error('outbox pass failed; trying again shortly', { error });
      wakeAt = Math.min(wakeAt, mono() + 1000);
    }
    setTimer(wakeAt - mono());
  }

  function deliver(entry: OutboxEntry): void {
    busyChats.add(entry.chatId);
    pacing.requestStarted(mono());
    let released = false;
    /** Frees the global slot; `answered` records Telegram's answer for pacing. */
    const release = (answered: boolean) => {
      if (released) return;
      released = true;
      pacing.requestEnded(entry.chatId, answered, mono());
    };
    const run = (async () => {
      // Claimed, not read: of the instances sharing the store, one sends it.
      const lease = claims.lease();
      const item = await db.outbox.claim(entry.id, lease);
      if (!item) return;
      await options.fleetGate?.wait(item.chatId, 'notice');
      // Paused past the lease (waiting for a slot, or before): another instance may be sending it now.
      if (!claims.holds(lease.owner)) {
        const lost = 'claim on a notification lost before it was sent (this instance was paused past its lease): not sent here';
        return log.warn(lost, describe(item));
      }
      const parsed = outboxPayloadSchema.safeParse(item.payload);
      if (!parsed.success) {
        log.error('dropping a notification with an invalid payload (a bug in its producer)', {
          ...describe(item),
          problems: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`),
        });
        await drop(item);
        return;
      }
      let messageId: number;
      try {
        messageId = await call(item.chatId, parsed.data);
      } catch (error) {
        release(true);
        await failed(item, parsed.data, error);
        return;
      }
      release(true);
      consecutiveFailures = 0;
      retryAt.delete(item.id);
      if (parsed.data.type === 'send') pacing.delivered(item.chatId, mono());
      log.debug('notification delivered', { ...describe(item), messageId, attempts: item.attempts + 1 });
      await drop(item);
    })()
      .catch((error: unknown) => log.error('recording a notification outcome failed', { ...describe(entry), error }))
      .finally(() => {
        release(false);
        sending.delete(entry.id);
        busyChats.delete(entry.chatId);
        schedulePump();
      });
    sending.set(entry.id, run);
  }

  const call = (chatId: number, payload: OutboxPayload) => deliverPayload(api, chatId, payload, limits.requestTimeoutMs);

  /** Decides what a failed delivery means for the item (see the module comment). */
  async function failed(item: OutboxItem, payload: OutboxPayload, error: unknown): Promise<void> {
    const where = describe(item);
    if (error instanceof GrammyError) {
      const { error_code: code, description, parameters } = error;
      if (code === 429) {
        const waitMs = (parameters.retry_after ?? fallbackRetryAfterSeconds) * 1000;
        const until = mono() + waitMs;
        pacing.holdChat(item.chatId, until);
        retryAt.set(item.id, until);
        log.warn('Telegram asked to slow down; waiting before sending to this chat again', { ...where, retryAfterMs: waitMs });
        const notBefore = new Date(now().getTime() + waitMs).toISOString();
        await persist(() => db.outbox.update(item.id, { attempts: item.attempts + 1, notBefore }), item);
        return;
      }
      const newChatId = parameters.migrate_to_chat_id;
      if (newChatId !== undefined) {
        let moved = 0;
        await persist(async () => (moved += await db.outbox.retarget(item.chatId, newChatId)), item);
        log.info('group became a supergroup; its notifications follow it', { ...where, newChatId, moved });
        await hook('onMigrated', () => options.onMigrated?.(item.chatId, newChatId));
        return;
      }
      if (code === 403) {
        log.info('recipient cannot be messaged (blocked the bot, deactivated or removed it); dropping the notification', {
          ...where,
          description,
        });
        if (item.chatId > 0) {
          await persist(async () => {
            if ((await db.users.get(item.chatId))?.active) await db.users.setActive(item.chatId, false);
          }, item);
        } else {
          await hook('onBlocked', () => options.onBlocked?.(item.chatId));
        }
        await drop(item);
        return;
      }
      if (code === 400) {
        if (payload.type === 'edit' && uneditable.test(description)) {
          if (payload.sendIfGone && !/not modified/i.test(description)) {
            log.info('the message to edit is gone; sending the notification as a new message', { ...where, description });
            await persist(() => db.outbox.update(item.id, { payload: asSend(payload) }), item);
            return;
          }
          log.info('edit not applied (message gone, too old or unchanged); dropping it', { ...where, description });
          await drop(item);
          return;
        }
        log.warn('Telegram refused a notification; it cannot succeed, dropping it', { ...where, description });
        await drop(item);
        return;
      }
    }
    // Network errors, timeouts, 5xx, a wrong token or API root (401/404), anything unexpected: retry.
    const failingSince = item.failingSince ?? now().toISOString();
    const failingForMs = now().getTime() - Date.parse(failingSince);
    const reason = errorSummary(error);
    if (failingForMs >= limits.giveUpAfterMs) {
      log.error('giving up on a notification that kept failing', { ...where, attempts: item.attempts + 1, failingSince, reason });
      await drop(item);
      return;
    }
    const attempts = item.attempts + 1;
    const backoffMs = Math.min(limits.baseMs * 2 ** (attempts - 1), limits.maxMs);
    consecutiveFailures += 1;
    // Telegram unreachable or failing usually affects every chat: slow down everything, not just this item.
    pacing.pauseAll(mono() + Math.min(limits.baseMs * 2 ** (consecutiveFailures - 1), limits.maxMs));
    retryAt.set(item.id, mono() + backoffMs);
    const level = error instanceof HttpError || (error instanceof GrammyError && error.error_code >= 500) ? 'warn' : 'error';
    log[level]('sending a notification failed; retrying later', { ...where, attempts, retryInMs: backoffMs, reason });
    const notBefore = new Date(now().getTime() + backoffMs).toISOString();
    await persist(() => db.outbox.update(item.id, { attempts, failingSince, notBefore }), item);
  }

  async function drop(item: OutboxItem): Promise<void> {
    retryAt.delete(item.id);
    await persist(() => db.outbox.remove(item.id), item);
  }

  async function hook(name: string, run: () => void | Promise<void> | undefined): Promise<void> {
    try {
      await run();
    } catch (error) {
      log.error(`${name} failed`, { error });
    }
  }

  function settleDrains(): void {
    for (const waiter of drainWaiters) waiter.resolve();
  }

  return {
    start() {
      if (running) return;
      running = true;
      recorder.start();
      void db.outbox.size().then(
        (queued) => log.info('outbox started', { queued }),
        () => undefined,
      );
      schedulePump();
    },
    async stop() {
      running = false;
      // A record still failing gets one last try; its message may be sent again after the restart.
      recorder.stop();
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = undefined;
      immediate = undefined;
      for (const waiter of drainWaiters) waiter.reject(new Error('The outbox stopped before it drained.'));
      await Promise.allSettled([...sending.values()]);
    },
    kick: schedulePump,
    setBulkSource: (source) => bulk.setSource(source),
    replyPacer: () => createReplyPacer({ pacing, mono }),
    drain({ timeoutMs } = {}) {
      if (!running) return Promise.reject(new Error('The outbox is not running; call start() before drain().'));
      return new Promise<void>((resolve, reject) => {
        let timeout: NodeJS.Timeout | undefined;
        const waiter = {
          resolve: () => finish(),
          reject: (error: Error) => finish(error),
        };
        const finish = (error?: Error) => {
          drainWaiters.delete(waiter);
          if (timeout) clearTimeout(timeout);
          if (error) reject(error);
          else resolve();
        };
        if (timeoutMs !== undefined) {
          timeout = setTimeout(
            () =>
              void db.outbox
                .size()
                .then((queued) =>
                  finish(new Error(`The outbox did not drain within ${timeoutMs} ms (${queued} items queued, ${sending.size} in flight).`)),
                ),
            timeoutMs,
          );
        }
        drainWaiters.add(waiter);
        schedulePump();
      });
    },
  };
}
