/**
 * The outbox's pacing bookkeeping: Telegram's limits (one message per chat per `perChatMs`,
 * `perGroupPerMinute` per group per `groupWindowMs`, `globalPerSecond` over all chats per
 * `globalWindowMs`), counted from Telegram's answers so network jitter cannot squeeze two messages
 * into one window. Also holds the per-chat waits a 429 asks for and the pause of the whole outbox
 * after failures. Pure bookkeeping over monotonic times passed in: it sends and schedules nothing.
 */

/** Telegram's limits as the outbox applies them. Tests shorten the windows. */
export interface OutboxLimits {
  /** Pause between two messages to one chat, counted from Telegram's answer to the previous one. Default 1000. */
  perChatMs?: number;
  /** Messages to one group (chat id < 0) per `groupWindowMs`. Default 20. */
  perGroupPerMinute?: number;
  /** Default 60 000. */
  groupWindowMs?: number;
  /** Messages over all chats per `globalWindowMs`. Default 25 (Telegram allows about 30; replies need some room). */
  globalPerSecond?: number;
  /** Default 1000. */
  globalWindowMs?: number;
  /**
   * Telegram's overall ceiling per `globalWindowMs`, for the bot's own replies: they count in the
   * same window as the outbox's messages and go first, up to this. Default 30.
   */
  ceilingPerSecond?: number;
}

export const pacingDefaults = {
  perChatMs: 1000,
  perGroupPerMinute: 20,
  groupWindowMs: 60_000,
  globalPerSecond: 25,
  globalWindowMs: 1000,
  ceilingPerSecond: 30,
} as const satisfies Required<OutboxLimits>;

export interface Pacing {
  /** Forgets answers and waits that no longer matter at `t`; a busy chat keeps its wait. */
  prune(t: number, isBusy: (chatId: number) => boolean): void;
  /** Earliest time a request to the chat may start: its own gap or 429 wait, its group window, the global pause. */
  chatReadyAt(chatId: number, t: number): number;
  /** When one more request fits the global window; Infinity when only a request ending can free a slot. */
  globalFreeAt(t: number): number;
  /**
   * When the outbox (queued items, the bulk lane) may start its next request: when the global
   * window has room, spread evenly over the window (one start per window / limit, so a reply never
   * finds a window filled by one burst), and not while a reply waits for a slot.
   */
  outboxFreeAt(t: number): number;
  /**
   * When a reply of the bot may start: when one more message fits Telegram's ceiling in the window
   * (replies and the outbox's messages together); the outbox leaves the next free slot to a
   * waiting reply. Replies alone are held to the ceiling too: past it Telegram refuses them.
   */
  replyFreeAt(t: number): number;
  /** A reply starts (+1) or stops (-1) waiting for a slot; the outbox starts nothing meanwhile. */
  replyWaiting(delta: 1 | -1): void;
  /** A reply started: it counts in the global window (but does not move the outbox's schedule). */
  replyStarted(): void;
  /**
   * A reply (started with `replyStarted`) to `chatId` ended; Telegram's answer counts in the global
   * window and starts the chat's gap for the outbox, as its own messages do.
   */
  replyEnded(chatId: number | undefined, answered: boolean, t: number): void;
  /** A request started at `t`: it counts against the global window until `requestEnded`. */
  requestStarted(t: number): void;
  /** A request ended; when Telegram `answered` (successfully or not), that answer starts the chat's gap and counts globally. */
  requestEnded(chatId: number, answered: boolean, t: number): void;
  /**
   * A request started with `requestStarted` was never sent (a recipient found to have blocked the
   * bot): its slot goes back, the next request may take it at once.
   */
  requestCancelled(): void;
  /** A message was delivered to the chat; counts towards a group's window. */
  delivered(chatId: number, t: number): void;
  /** No request to the chat before `until` (a 429's retry_after). */
  holdChat(chatId: number, until: number): void;
  /** No request to any chat before `until` (Telegram failing or unreachable). */
  pauseAll(until: number): void;
}

/** Creates empty pacing bookkeeping with `limits` over the defaults. */
export function createPacing(options: OutboxLimits = {}): Pacing {
  const limits = { ...pacingDefaults, ...definedOnly(options) };
  /** Requests whose answer has not arrived yet (they count against the global window). */
  let requestsInFlight = 0;
  /** Monotonic times of Telegram's answers, over all chats. */
  const globalAnswers: number[] = [];
  /** Monotonic times of delivered messages per group. */
  const groupDeliveries = new Map<number, number[]>();
  /** Per chat: earliest monotonic time of the next request (pacing gap, or a 429 wait). */
  const chatWaits = new Map<number, number>();
  let globalPausedUntil = 0;
  /**
   * The outbox's limit: the configured rate, all of it, even at Telegram's ceiling. A reply that
   * finds the window full is not left behind: it waits for the next slot and the outbox starts
   * nothing until it has it (`replyWaiting`), so it waits behind other replies only.
   */
  const outboxLimit = limits.globalPerSecond;
  /** The outbox's starts are spread evenly: the next may start at `nextSlotAt`. */
  const spacingMs = limits.globalWindowMs / outboxLimit;
  let nextSlotAt = -Infinity;
  /** Replies waiting for a slot. */
  let repliesWaiting = 0;

  /** Forgets the answers that left the window at `t` (cheap: the list is in time order). */
  const pruneWindow = (t: number) => {
    while (globalAnswers.length > 0 && globalAnswers[0]! <= t - limits.globalWindowMs) globalAnswers.shift();
  };

  /** When one more request fits the global window under `limit`; Infinity when only a request ending frees a slot. */
  const windowFreeAt = (limit: number, t: number): number => {
    const answers = globalAnswers.filter((at) => at > t - limits.globalWindowMs);
    const used = answers.length + requestsInFlight;
    if (used < limit) return 0;
    const index = used - limit;
    return index < answers.length ? answers[index]! + limits.globalWindowMs : Infinity;
  };

  const holdChat = (chatId: number, until: number) => chatWaits.set(chatId, Math.max(chatWaits.get(chatId) ?? 0, until));

  /** When one more message to the group fits its window (0 for private chats and groups under the limit). */
  const groupFreeAt = (chatId: number, t: number): number => {
    if (chatId >= 0) return 0;
    const times = groupDeliveries.get(chatId)?.filter((at) => at > t - limits.groupWindowMs) ?? [];
    if (times.length < limits.perGroupPerMinute) return 0;
    return times[times.length - limits.perGroupPerMinute]! + limits.groupWindowMs;
  };

  return {
    prune(t, isBusy) {
      pruneWindow(t);
      for (const [chatId, times] of groupDeliveries) {
        while (times.length > 0 && times[0]! <= t - limits.groupWindowMs) times.shift();
        if (times.length === 0) groupDeliveries.delete(chatId);
      }
      for (const [chatId, at] of chatWaits) if (at <= t && !isBusy(chatId)) chatWaits.delete(chatId);
    },
    chatReadyAt: (chatId, t) => Math.max(chatWaits.get(chatId) ?? 0, groupFreeAt(chatId, t), globalPausedUntil),
    globalFreeAt: (t) => windowFreeAt(limits.globalPerSecond, t),
    outboxFreeAt(t) {
      if (repliesWaiting > 0) return t + spacingMs;
      const freeAt = windowFreeAt(outboxLimit, t);
      return freeAt === 0 && nextSlotAt <= t ? 0 : Math.max(freeAt, nextSlotAt);
    },
    replyFreeAt(t) {
      // Replies come whether or not the outbox pumps (which prunes too): keep the lists short here.
      pruneWindow(t);
      return windowFreeAt(Math.max(limits.ceilingPerSecond, limits.globalPerSecond), t);
    },
    replyWaiting(delta) {
      repliesWaiting = Math.max(0, repliesWaiting + delta);
    },
    replyStarted() {
      requestsInFlight += 1;
    },
    replyEnded(chatId, answered, t) {
      requestsInFlight -= 1;
      if (!answered) return;
      globalAnswers.push(t);
      if (chatId !== undefined) holdChat(chatId, t + limits.perChatMs);
    },
    requestStarted(t) {
      requestsInFlight += 1;
      // A timer that fired a little late keeps the schedule; after a pause it starts from now.
      nextSlotAt = (t - nextSlotAt < spacingMs ? nextSlotAt : t) + spacingMs;
    },
    requestCancelled() {
      requestsInFlight -= 1;
      nextSlotAt -= spacingMs;
    },
    requestEnded(chatId, answered, t) {
      requestsInFlight -= 1;
      if (!answered) return;
      globalAnswers.push(t);
      holdChat(chatId, t + limits.perChatMs);
    },
    delivered(chatId, t) {
      if (chatId >= 0) return;
      const times = groupDeliveries.get(chatId) ?? [];
      times.push(t);
      groupDeliveries.set(chatId, times);
    },
    holdChat,
    pauseAll(until) {
      globalPausedUntil = Math.max(globalPausedUntil, until);
    },
  };
}

/** `value` without its undefined fields, so they do not override defaults when spread. */
export function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
