/**
 * The outbox's bulk lane: deliveries that a bulk source (a broadcast job) hands out one recipient
 * at a time, sent with the outbox's own bookkeeping so that
 * - the outbox's queued items (settlement notices, alerts) go first: the lane only takes the
 *   global slots and crash-bound slots they leave free in a scheduling pass;
 * - both share Telegram's global window (unless the source pays for its messages,
 *   `allow_paid_broadcast`, which Telegram does not count against it) and one chat's pacing;
 * - a delivery holds one of the `maxUnrecorded` slots until the source recorded its outcome on
 *   disk, so a crash re-sends at most that many broadcast messages, like outbox items.
 * The source decides what a retry or a failure means for its record; the lane handles Telegram's
 * answers: 429 pauses the lane for `retry_after`, 403 marks the user inactive, other 400s fail
 * the delivery, network errors and 5xx are retried after a pause.
 */
import { GrammyError, type Api } from 'grammy';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/db.ts';
import type { FleetGate } from './fleet-pacing.ts';
import type { Pacing } from './pacing.ts';
import type { OutcomeRecorder } from './recording.ts';

export type BulkOutcome = 'sent' | 'blocked' | 'failed';

/** One message of a bulk source to one chat. */
export interface BulkDelivery {
  chatId: number;
  /** Sends it (one Telegram request); rejects with Telegram's error. */
  /** Asked before sending: an outcome settles the delivery without a message (a recipient who blocked the bot since). */
  before?(): Promise<BulkOutcome | undefined>;
  send(api: Api, signal: AbortSignal): Promise<unknown>;
  /** Records the outcome; resolves once it is on disk. */
  settle(outcome: BulkOutcome): Promise<void>;
  /** Not sent: hand it out again later (or give up: resolves once recorded). `failure`: false for a 429 (only a wait), true for network errors and 5xx. */
  retry(failure: boolean): void | Promise<void>;
}

export interface BulkSource {
  /** Messages paid with `allow_paid_broadcast`: they do not count against the global window. */
  readonly paid: boolean;
  /**
   * The next delivery allowed at monotonic time `t` (never to a chat `isBusy` says is busy), or the
   * monotonic time when one will be, or undefined when there is nothing to send.
   */
  take(t: number, isBusy: (chatId: number) => boolean): BulkDelivery | number | undefined;
}

export interface BulkLaneContext {
  api: Api;
  db: Db;
  log: Logger;
  pacing: Pacing;
  /** The outbox's deliveries in flight (until their outcome is on disk). */
  sending: Map<string, Promise<void>>;
  busyChats: Set<number>;
  maxUnrecorded: number;
  /** Writes outcomes until they land; while one fails, no delivery starts (recording.ts). */
  recorder: OutcomeRecorder;
  requestTimeoutMs: number;
  retryBaseMs: number;
  mono: () => number;
  /** Asks the outbox for a scheduling pass. */
  wake: () => void;
  /** With several instances: the fleet's shared send slots (fleet-pacing.ts). */
  fleetGate?: FleetGate;
}

export interface BulkLane {
  setSource(source: BulkSource | undefined): void;
  /** Starts the deliveries the free slots allow at `t`; returns when to look again (Infinity: on a completion). */
  fill(t: number): number;
}

const fallbackRetryAfterSeconds = 5;

export function createBulkLane(context: BulkLaneContext): BulkLane {
  const { pacing, sending, busyChats, mono, recorder } = context;
  /** Writes `write` (an outcome) until it is on disk; the delivery keeps its slot meanwhile. */
  const persist = (delivery: BulkDelivery, write: () => Promise<unknown> | void) =>
    recorder.record(async () => write(), { chatId: delivery.chatId, kind: 'broadcast' });
  let source: BulkSource | undefined;
  let pausedUntil = 0;
  let failures = 0;
  let counter = 0;

  function deliver(current: BulkSource, delivery: BulkDelivery): void {
    const key = `bulk:${(counter += 1)}`;
    const counted = !current.paid;
    busyChats.add(delivery.chatId);
    if (counted) pacing.requestStarted(mono());
    let released = false;
    /** Frees the slot once: `answered` by Telegram, not (a network failure), or never `sent` at all. */
    const release = (how: 'answered' | 'unanswered' | 'unsent') => {
      if (released) return;
      released = true;
      // Nothing was sent: the slot goes to the next recipient at once (a broadcast to an audience
      // with 5% inactive users would otherwise go 5% slower than its rate).
      if (how === 'unsent') {
        if (counted) pacing.requestCancelled();
        context.wake();
      } else if (counted) pacing.requestEnded(delivery.chatId, how === 'answered', mono());
      else if (how === 'answered') pacing.holdChat(delivery.chatId, mono() + 1000);
    };
    const run = (async () => {
      const early = await delivery.before?.();
      if (early) {
        release('unsent');
        await persist(delivery, () => delivery.settle(early));
        return;
      }
      // Paid broadcast copies do not count against the overall rate (Telegram bills them instead).
      if (counted) await context.fleetGate?.wait(delivery.chatId, 'notice');
      try {
        await delivery.send(context.api, AbortSignal.timeout(context.requestTimeoutMs));
      } catch (error) {
        release(error instanceof GrammyError ? 'answered' : 'unanswered');
        await failed(delivery, error);
        return;
      }
      release('answered');
      failures = 0;
      await persist(delivery, () => delivery.settle('sent'));
    })()
      .catch((error: unknown) => context.log.error('recording a broadcast delivery failed', { chatId: delivery.chatId, error }))
      .finally(() => {
        release('unanswered');
        sending.delete(key);
        busyChats.delete(delivery.chatId);
        context.wake();
      });
    sending.set(key, run);
  }

  async function failed(delivery: BulkDelivery, error: unknown): Promise<void> {
    const { chatId } = delivery;
    if (error instanceof GrammyError && error.error_code === 429) {
      const waitMs = (error.parameters.retry_after ?? fallbackRetryAfterSeconds) * 1000;
      pausedUntil = Math.max(pausedUntil, mono() + waitMs);
      context.log.warn('Telegram asked to slow down; the broadcast waits', { chatId, retryAfterMs: waitMs });
      await persist(delivery, () => delivery.retry(false));
      return;
    }
    if (error instanceof GrammyError && error.error_code === 403) {
      await persist(delivery, async () => {
        if (chatId > 0 && (await context.db.users.get(chatId))?.active) await context.db.users.setActive(chatId, false);
        await delivery.settle('blocked');
      });
      return;
    }
    if (error instanceof GrammyError && error.error_code === 400) {
      context.log.warn('Telegram refused a broadcast message', { chatId, description: error.description });
      await persist(delivery, () => delivery.settle('failed'));
      return;
    }
    failures += 1;
    const pauseMs = Math.min(context.retryBaseMs * 2 ** (failures - 1), 60_000);
    pausedUntil = Math.max(pausedUntil, mono() + pauseMs);
    context.log.warn('a broadcast message failed; retrying later', { chatId, retryInMs: pauseMs, reason: String(error) });
    await persist(delivery, () => delivery.retry(true));
  }

  return {
    setSource(next) {
      source = next;
      context.wake();
    },
    fill(t) {
      const current = source;
      if (!current) return Infinity;
      if (pausedUntil > t) return pausedUntil;
      // An outcome that cannot be written holds every new delivery back; its recovery wakes the outbox.
      if (recorder.failing) return Infinity;
      while (sending.size < context.maxUnrecorded) {
        if (!current.paid) {
          const freeAt = pacing.outboxFreeAt(t);
          if (freeAt > t) return freeAt;
        }
        const next = current.take(t, (chatId) => busyChats.has(chatId) || pacing.chatReadyAt(chatId, t) > t);
        if (next === undefined) return Infinity;
        if (typeof next === 'number') return next;
        deliver(current, next);
      }
      return Infinity;
    },
  };
}
