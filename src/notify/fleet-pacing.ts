/**
 * Telegram's limits for a fleet: several instances sharing PostgreSQL each pace their own outbox
 * (pacing.ts), but Telegram counts the bot's messages together. Here every message an instance
 * posts — a notice, a broadcast copy, a reply — first takes a send slot from the shared store
 * (`sendSlots.reserve`, see src/store/pg/send-slots.ts) and waits for its instant, so the fleet
 * together stays under the ceiling. One process on lowdb does not need it: its outbox's own pacing
 * sees every message it sends.
 */
import type { Transformer } from 'grammy';
import type { FleetLimits, SendSlotStore } from '../store/contract.ts';
import { createPacedReplies, type ReplySlots, type Sleep } from './reply-pacer.ts';

export interface FleetGate {
  /**
   * Resolves at the instant this process may post one message to `chatId`. A reply keeps the
   * overall rate and a group's 20 a minute (a user waiting for an answer is not held to one
   * message a second); a notice or a broadcast copy also keeps the per-chat gap.
   */
  wait(chatId: number, kind: 'reply' | 'notice'): Promise<void>;
}

export interface FleetGateOptions {
  slots: SendSlotStore;
  limits: FleetLimits;
  /** The store's clock (slots are instants on it). */
  now?: () => Date;
  /** Waits `ms` (tests pass a virtual one). */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Share of the configured rate handed out as slots: a message leaves a little after its slot's
 * start (a timer's wake-up, a busy event loop, the request on its way), so slots at the full rate
 * would let one second hold a late message beside that second's own.
 */
export const slotShare = 0.9;

/** A message that wakes this many slots late takes another slot (at most `maxRetakes` times) rather than crowd a later second. */
const lateSlots = 1;
const maxRetakes = 3;

export function createFleetGate(options: FleetGateOptions): FleetGate {
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? realSleep;
  const limits: FleetLimits = { ...options.limits, perSecond: Math.max(1, Math.floor(options.limits.perSecond * slotShare)) };
  const replyLimits: FleetLimits = { ...limits, perChatMs: 0 };
  const slotMs = 1000 / limits.perSecond;
  return {
    async wait(chatId, kind) {
      for (let taken = 0; ; taken += 1) {
        const at = await options.slots.reserve(chatId, now().getTime(), kind === 'reply' ? replyLimits : limits);
        const waitMs = at - now().getTime();
        if (waitMs > 0) await sleep(waitMs);
        if (now().getTime() - at <= lateSlots * slotMs || taken >= maxRetakes) return;
      }
    },
  };
}

/**
 * The API transformer that makes the bot's replies take their slot of the fleet's rate, however
 * long the fleet's queue, and wait out a 429 (reply-pacer.ts): a refused reply takes a new slot.
 */
export function createFleetReplyPacer(gate: FleetGate, sleep?: Sleep): Transformer {
  const slots: ReplySlots = {
    take: (chatId) => (chatId === undefined ? Promise.resolve() : gate.wait(chatId, 'reply')),
    // The shared slots are instants handed out in order: nothing to give back or to hold here.
    ended: () => undefined,
    refused: () => undefined,
  };
  return createPacedReplies(slots, sleep);
}
