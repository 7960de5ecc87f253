/**
 * The outbox's bulk lane: deliveries a bulk source (a broadcast job) hands out one recipient at a
 * time, each in the rate gate's lowest lane, so replies and queued items go first and all share one
 * window (paid copies aside) and one chat's gap. A delivery holds one of the `maxUnrecorded` slots
 * until its outcome is on disk, like an outbox item. Telegram's answers: 429 pauses the lane (not
 * replies or notices) for `retry_after`, 403 marks the user inactive, other 400s fail the delivery,
 * network errors and 5xx are retried after a pause; the source records what each means.
 */
import { GrammyError, type Api } from 'grammy';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/db.ts';
import type { RateGate } from './rate-gate.ts';
import type { OutcomeRecorder } from './recording.ts';

export type BulkOutcome = 'sent' | 'blocked' | 'failed';

/** One message of a bulk source to one chat. */
export interface BulkDelivery {
  chatId: number;
  /** Asked before sending: an outcome settles the delivery without a message (a recipient who blocked the bot since). */
  before?(): Promise<BulkOutcome | undefined>;
  /** Sends it (one Telegram request); rejects with Telegram's error. */
  send(api: Api, signal: AbortSignal): Promise<unknown>;
  /** Records the outcome; resolves once it is on disk. */
  settle(outcome: BulkOutcome): Promise<void>;
  /** Not sent: hand it out again later (or give up: resolves once recorded). `failure`: false for a 429 (only a wait), true for network errors and 5xx. */
  retry(failure: boolean): void | Promise<void>;
}

export interface BulkSource {
  /** Messages paid with `allow_paid_broadcast`: they do not count against the global window. */
  readonly paid: boolean;
  /** The next delivery at monotonic time `t` (never to a chat `isBusy`), the time to ask again, or undefined: nothing to send. */
  take(t: number, isBusy: (chatId: number) => boolean): BulkDelivery | number | undefined;
}

interface BulkLaneContext {
  api: Api;
  db: Db;
  log: Logger;
  gate: RateGate;
  /** The outbox's deliveries in flight (until their outcome is on disk). */
  sending: Map<string, Promise<void>>;
  busyChats: Set<number>;
  maxUnrecorded: number;
  recorder: OutcomeRecorder;
  requestTimeoutMs: number;
  retryBaseMs: number;
  /** Asks the outbox for a scheduling pass. */
  wake: () => void;
}

export interface BulkLane {
  setSource(source: BulkSource | undefined): void;
  /** Starts the deliveries the free slots allow at `t`; returns when to look again (Infinity: on a completion). */
  fill(t: number): number;
}

const fallbackRetryAfterSeconds = 5;

export function createBulkLane(context: BulkLaneContext): BulkLane {
  const { gate, sending, busyChats, recorder } = context;
  /** Writes `write` (an outcome) until it is on disk; the delivery keeps its slot meanwhile. */
  const persist = (delivery: BulkDelivery, write: () => Promise<unknown> | void) =>
    recorder.record(async () => write(), { chatId: delivery.chatId, kind: 'broadcast' });
  let source: BulkSource | undefined;
  let failures = 0;
  let counter = 0;

  function deliver(current: BulkSource, delivery: BulkDelivery): void {
    const key = `bulk:${(counter += 1)}`;
    busyChats.add(delivery.chatId);
    // Paid broadcast copies do not count against the overall rate (Telegram bills them instead).
    const turn = gate.take(delivery.chatId, 'bulk', { paid: current.paid });
    const run = (async () => {
      const early = await delivery.before?.();
      if (early) {
        turn.end('unsent');
        context.wake();
        await persist(delivery, () => delivery.settle(early));
        return;
      }
      await turn.ready();
      try {
        await delivery.send(context.api, AbortSignal.timeout(context.requestTimeoutMs));
      } catch (error) {
        turn.end(error instanceof GrammyError ? 'answered' : 'unanswered');
        await failed(delivery, error);
        return;
      }
      turn.end('delivered');
      failures = 0;
      await persist(delivery, () => delivery.settle('sent'));
    })()
      .catch((error: unknown) => context.log.error('recording a broadcast delivery failed', { chatId: delivery.chatId, error }))
      .finally(() => {
        turn.end('unanswered');
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
      gate.pause(waitMs, 'bulk');
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
    gate.pause(pauseMs, 'bulk');
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
      const turnOptions = { paid: current.paid };
      // Paused (a 429, failures) or no turn free: look again when there is one.
      const freeAt = gate.nextTurnAt('bulk', turnOptions);
      if (freeAt > t) return freeAt;
      // An outcome that cannot be written holds every new delivery back; its recovery wakes the outbox.
      if (recorder.failing) return Infinity;
      while (sending.size < context.maxUnrecorded) {
        const nextAt = gate.nextTurnAt('bulk', turnOptions);
        if (nextAt > t) return nextAt;
        const next = current.take(t, (chatId) => busyChats.has(chatId) || gate.chatReadyAt(chatId, 'bulk') > t);
        if (next === undefined) return Infinity;
        if (typeof next === 'number') return next;
        deliver(current, next);
      }
      return Infinity;
    },
  };
}
