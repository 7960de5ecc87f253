/**
 * The rate gate of a fleet: Telegram counts every instance's messages together, so a turn is the
 * process's turn (rate-gate.ts), then a send slot from the shared store (src/store/pg/send-slots.ts)
 * and a wait for its instant. Replies skip the per-chat and per-group gaps; paid broadcast copies take no slot.
 */
import type { FleetLimits, SendSlotStore } from '../store/contract.ts';
import type { RateGate, Turn } from './rate-gate.ts';

interface FleetGateOptions {
  /** This process's own book; the fleet gate asks it first. */
  local: RateGate;
  slots: SendSlotStore;
  limits: FleetLimits;
  /** The clock slots are instants on; default the wall clock (the gate sleeps in real time until them, so it must move meanwhile). */
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

/** Creates the gate of one instance of a fleet: its process's turn, then the fleet's shared slot. */
export function createFleetGate(options: FleetGateOptions): RateGate {
  const { local } = options;
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? realSleep;
  const limits: FleetLimits = { ...options.limits, perSecond: Math.max(1, Math.floor(options.limits.perSecond * slotShare)) };
  // As in one process's book: a reply is held to the ceiling only, in a group too (a 429 there is waited out).
  const replyLimits: FleetLimits = { ...limits, perChatMs: 0, perGroupPerMinute: Number.POSITIVE_INFINITY };
  const slotMs = 1000 / limits.perSecond;

  /** Resolves at the instant of a shared slot for one message to `chatId`. */
  const sharedSlot = async (chatId: number, reply: boolean) => {
    for (let taken = 0; ; taken += 1) {
      const at = await options.slots.reserve(chatId, now().getTime(), reply ? replyLimits : limits);
      const waitMs = at - now().getTime();
      if (waitMs > 0) await sleep(waitMs);
      if (now().getTime() - at <= lateSlots * slotMs || taken >= maxRetakes) return;
    }
  };

  return {
    take(chatId, priority, turnOptions) {
      const turn = local.take(chatId, priority, turnOptions);
      if (chatId === undefined || turnOptions?.paid) return turn;
      return {
        ready: async (signal) => {
          await turn.ready(signal);
          await sharedSlot(chatId, priority === 'reply');
        },
        end: (how) => turn.end(how),
      } satisfies Turn;
    },
    nextTurnAt: (priority, turnOptions) => local.nextTurnAt(priority, turnOptions),
    chatReadyAt: (chatId, priority) => local.chatReadyAt(chatId, priority),
    hold: (chatId, ms) => local.hold(chatId, ms),
    pause: (ms, from) => local.pause(ms, from),
  };
}
