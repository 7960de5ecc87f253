/**
 * The one gate every message the bot posts goes through, so Telegram's limits (about 30 a second
 * overall, one a second per chat, 20 a minute per group) are kept in one book. Three lanes take
 * turns as priorities: the bot's replies (a user is waiting), the outbox's notices, a broadcast's
 * copies (the outbox's bulk lane).
 *
 * Counted from Telegram's answers, so network jitter cannot squeeze two messages into one window:
 * a turn counts from its start until its answer, and the answer for a window after that. Replies
 * are held to the ceiling only; notices and copies also keep the per-chat gap and a group's 20 a
 * minute, and their starts are spread evenly so a reply never finds the window filled by a burst.
 * A fleet wraps this process's book with the shared send slots (fleet-gate.ts).
 */

/** The lanes, highest first: a waiting user's reply, a notice of the outbox, a broadcast copy. */
export type Priority = 'reply' | 'notice' | 'bulk';

const rank: Record<Priority, number> = { reply: 0, notice: 1, bulk: 2 };

/** Telegram's limits as the gate applies them (defaults in `rateDefaults`). Tests shorten the windows. */
export interface RateLimits {
  /** Pause between two notices to one chat, counted from Telegram's answer to the previous message. */
  perChatMs?: number;
  /** Notices to one group (chat id < 0) per `groupWindowMs`. */
  perGroupPerMinute?: number;
  groupWindowMs?: number;
  /** Notices and broadcast copies over all chats per `globalWindowMs` (below Telegram's ~30: replies need room). */
  globalPerSecond?: number;
  globalWindowMs?: number;
  /** Telegram's overall ceiling per `globalWindowMs`: everything together, replies first, up to this. */
  ceilingPerSecond?: number;
  /** Broadcast copies per `bulkWindowMs`, paid ones too (BROADCAST_RATE); a copy not sent gives its place back. */
  bulkPerSecond?: number;
  bulkWindowMs?: number;
}

export const rateDefaults = {
  perChatMs: 1000,
  perGroupPerMinute: 20,
  groupWindowMs: 60_000,
  globalPerSecond: 25,
  globalWindowMs: 1000,
  ceilingPerSecond: 30,
  bulkPerSecond: Infinity,
  bulkWindowMs: 1000,
} as const satisfies Required<RateLimits>;

/**
 * The gate's rates that follow from the broadcast's pace (BROADCAST_RATE, BROADCAST_PAID), read
 * here only: the bulk lane keeps the rate, paid copies too; free copies paced above the default
 * overall rate (BROADCAST_RATE up to 30) need that room in the overall window, while paid ones are
 * not counted against it.
 */
export function broadcastRates(broadcast: { rate: number; paid: boolean }): Pick<RateLimits, 'globalPerSecond' | 'bulkPerSecond'> {
  if (broadcast.paid) return { bulkPerSecond: broadcast.rate };
  return { bulkPerSecond: broadcast.rate, globalPerSecond: Math.max(rateDefaults.globalPerSecond, broadcast.rate) };
}

export interface TurnOptions {
  /** The message was refused with a 429 and waited it out: it was there first, so it goes first in its lane. */
  again?: boolean;
  /** Sent with `allow_paid_broadcast`: Telegram bills it instead of counting it against the overall rate; the per-chat gap holds. */
  paid?: boolean;
}

/** `delivered` a new message (counts in a group's window), `answered` otherwise, `unanswered` (network failure), `unsent` (turn given back). */
export type TurnEnd = 'delivered' | 'answered' | 'unanswered' | 'unsent';

/** One message's turn, taken in line when it was asked for. */
export interface Turn {
  /** Resolves when the message may go; rejects when `signal` aborts first (the turn is then given up). */
  ready(signal?: AbortSignal): Promise<void>;
  /** The message ended (once; later calls do nothing). Ending a turn that never came gives up its place in line. */
  end(how: TurnEnd): void;
}

export interface RateGate {
  /**
   * A place in line for one message to `chatId` (undefined: names no chat) in `priority`'s lane.
   * Free now, it is counted at once (turns taken in one synchronous pass see each other); else it
   * waits behind the higher lanes and, in its lane, behind those that asked before it.
   */
  take(chatId: number | undefined, priority: Priority, options?: TurnOptions): Turn;
  /** When a turn in `priority`'s lane fits overall (monotonic ms; Infinity: only a turn ending frees one). For the outbox's scheduling. */
  nextTurnAt(priority: Priority, options?: TurnOptions): number;
  /** When the chat itself may get a message in `priority`'s lane: its gap, its 429 wait, its group's window. */
  chatReadyAt(chatId: number, priority: Priority): number;
  /** Telegram refused a message to `chatId` with 429: no notice or copy goes to that chat for `ms`. */
  hold(chatId: number, ms: number): void;
  /** No turn in `from`'s lane or any lower one for `ms` (Telegram failing, or asking a broadcast to wait); `'reply'` pauses everyone. */
  pause(ms: number, from: Priority): void;
}

interface Waiter {
  chatId: number | undefined;
  priority: Priority;
  paid: boolean;
  /** Order of asking; a refused message asking again goes before every waiter of its lane. */
  seq: number;
  start: () => void;
}

/** When only turns in flight fill the window, their answers free it: looked at again this soon. */
const recheckMs = 10;

const abortedError = () => new Error('the request was aborted while it waited for its turn under Telegram’s limit');

/** Creates the gate of one process (one book for every message it posts); `mono` defaults to `performance.now`. */
export function createRateGate(options: { limits?: RateLimits; mono?: () => number } = {}): RateGate {
  return new ProcessRateGate({ ...rateDefaults, ...definedOnly(options.limits) }, options.mono ?? (() => performance.now()));
}

/** One process's book: the overall window, each chat's next instant, each group's deliveries, the pauses and the line. */
class ProcessRateGate implements RateGate {
  /** Turns counted in the window whose answer has not arrived yet. */
  private inFlight = 0;
  /** Monotonic times of Telegram's answers, over all chats, in time order. */
  private readonly answers: number[] = [];
  /** Per group: monotonic times of delivered messages. */
  private readonly groupDeliveries = new Map<number, number[]>();
  /** Per chat: earliest time of its next notice (its gap after an answer, or a 429's wait). */
  private readonly chatWaits = new Map<number, number>();
  /** Monotonic start times of broadcast copies (paid ones too), for `bulkPerSecond`. */
  private readonly bulkStarts: number[] = [];
  /** Per lane rank: no turn before this time. */
  private readonly pausedUntil = [0, 0, 0];
  /** Notices and copies are spread evenly over the window: the next may start at `nextSlotAt`. */
  private readonly spacingMs: number;
  private nextSlotAt = -Infinity;
  /** The turns waiting, in the order they go: by lane, then by asking. */
  private readonly line: Waiter[] = [];
  private lastSeq = 0;
  private firstSeq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private prunedAt = -Infinity;

  constructor(
    private readonly limits: Required<RateLimits>,
    private readonly mono: () => number,
  ) {
    this.spacingMs = limits.globalWindowMs / limits.globalPerSecond;
  }

  take(chatId: number | undefined, priority: Priority, options: TurnOptions = {}): Turn {
    const paid = options.paid === true;
    let state: 'waiting' | 'started' | 'ended' = 'waiting';
    let came = false;
    let startedAt = 0;
    const begin = () => {
      state = 'started';
      came = true;
      startedAt = this.started(priority, paid);
    };
    let waiter: Waiter | undefined;
    let started: Promise<void>;
    const ahead = this.line.some((w) => rank[w.priority] <= rank[priority]);
    if (!ahead && this.grantableAt(chatId, priority, paid) <= this.mono()) {
      begin();
      started = Promise.resolve();
    } else {
      started = new Promise<void>((resolve) => {
        const seq = options.again ? (this.firstSeq -= 1) : (this.lastSeq += 1);
        waiter = { chatId, priority, paid, seq, start: () => (begin(), resolve()) };
      });
      this.enqueue(waiter!);
    }
    /** Gives up a place in line that never came. */
    const leave = () => {
      state = 'ended';
      const index = waiter ? this.line.indexOf(waiter) : -1;
      if (index >= 0) this.line.splice(index, 1);
      // It may have been in the way of the lanes below.
      this.pump();
    };
    return {
      ready: (signal) => {
        if (state === 'ended') return came ? Promise.resolve() : Promise.reject(abortedError());
        if (state !== 'waiting' || !signal) return started;
        if (signal.aborted) {
          leave();
          return Promise.reject(abortedError());
        }
        return new Promise<void>((resolve, reject) => {
          const abort = () => {
            if (state !== 'waiting') return;
            leave();
            reject(abortedError());
          };
          signal.addEventListener('abort', abort, { once: true });
          void started.then(() => {
            signal.removeEventListener('abort', abort);
            resolve();
          });
        });
      },
      end: (how) => {
        if (state === 'waiting') leave();
        if (state !== 'started') return;
        state = 'ended';
        this.ended(chatId, priority, paid, how, startedAt);
      },
    };
  }

  nextTurnAt(priority: Priority, options: TurnOptions = {}): number {
    const t = this.mono();
    const higherWaiting = this.line.some((w) => rank[w.priority] < rank[priority] && this.waitsForWindow(w, t));
    return higherWaiting ? t + this.spacingMs : this.overallFreeAt(priority, options.paid === true, t);
  }

  chatReadyAt(chatId: number, priority: Priority): number {
    if (priority === 'reply') return 0;
    return Math.max(this.chatWaits.get(chatId) ?? 0, this.groupFreeAt(chatId, this.mono()));
  }

  hold(chatId: number, ms: number): void {
    this.holdUntil(chatId, this.mono() + ms);
  }

  pause(ms: number, from: Priority): void {
    const until = this.mono() + ms;
    for (let r = rank[from]; r < this.pausedUntil.length; r++) this.pausedUntil[r] = Math.max(this.pausedUntil[r]!, until);
    this.pump();
  }

  /** Whether `waiter` waits for the overall window rather than for its own chat. */
  private waitsForWindow(waiter: Waiter, t: number): boolean {
    return waiter.chatId === undefined || this.chatReadyAt(waiter.chatId, waiter.priority) <= t;
  }

  /** When a turn of `priority` to `chatId` could start, leaving the line aside. */
  private grantableAt(chatId: number | undefined, priority: Priority, paid: boolean): number {
    const t = this.mono();
    const chatAt = chatId === undefined ? 0 : this.chatReadyAt(chatId, priority);
    return Math.max(chatAt, this.overallFreeAt(priority, paid, t));
  }

  private overallFreeAt(priority: Priority, paid: boolean, t: number): number {
    this.prune(t);
    const { bulkPerSecond, bulkWindowMs } = this.limits;
    const bulkFull = priority === 'bulk' && this.bulkStarts.length >= bulkPerSecond;
    const pausedUntil = Math.max(
      this.pausedUntil[rank[priority]]!,
      bulkFull ? this.bulkStarts[this.bulkStarts.length - bulkPerSecond]! + bulkWindowMs : 0,
    );
    if (paid) return pausedUntil;
    if (priority === 'reply') {
      // Replies alone are held to the ceiling too: past it Telegram refuses them.
      return Math.max(pausedUntil, this.windowFreeAt(Math.max(this.limits.ceilingPerSecond, this.limits.globalPerSecond)));
    }
    const freeAt = this.windowFreeAt(this.limits.globalPerSecond);
    return Math.max(pausedUntil, freeAt === 0 && this.nextSlotAt <= t ? 0 : Math.max(freeAt, this.nextSlotAt));
  }

  /** When one more turn fits the window under `limit` (`answers` pruned to it); Infinity when only a turn ending frees one. */
  private windowFreeAt(limit: number): number {
    const used = this.answers.length + this.inFlight;
    if (used < limit) return 0;
    const index = used - limit;
    return index < this.answers.length ? this.answers[index]! + this.limits.globalWindowMs : Infinity;
  }

  /** When one more message to the group fits its window (0 for private chats and groups under the limit). */
  private groupFreeAt(chatId: number, t: number): number {
    if (chatId >= 0) return 0;
    const times = this.groupDeliveries.get(chatId)?.filter((at) => at > t - this.limits.groupWindowMs) ?? [];
    if (times.length < this.limits.perGroupPerMinute) return 0;
    return times[times.length - this.limits.perGroupPerMinute]! + this.limits.groupWindowMs;
  }

  private holdUntil(chatId: number, until: number): void {
    this.chatWaits.set(chatId, Math.max(this.chatWaits.get(chatId) ?? 0, until));
  }

  /** Counts a turn that starts now; returns its start time. */
  private started(priority: Priority, paid: boolean): number {
    const t = this.mono();
    if (priority === 'bulk') this.bulkStarts.push(t);
    if (paid) return t;
    this.inFlight += 1;
    // Replies count in the window but do not move the spread of the other lanes' starts.
    if (priority === 'reply') return t;
    // A timer that fired a little late keeps the schedule; after a pause it starts from now.
    this.nextSlotAt = (t - this.nextSlotAt < this.spacingMs ? this.nextSlotAt : t) + this.spacingMs;
    return t;
  }

  private ended(chatId: number | undefined, priority: Priority, paid: boolean, how: TurnEnd, startedAt: number): void {
    const t = this.mono();
    const answered = how === 'delivered' || how === 'answered';
    const bulkAt = how === 'unsent' && priority === 'bulk' ? this.bulkStarts.indexOf(startedAt) : -1;
    if (bulkAt >= 0) this.bulkStarts.splice(bulkAt, 1);
    if (!paid) {
      this.inFlight -= 1;
      // Nothing was sent: the turn goes to the next message at once (a broadcast to an audience
      // with 5% inactive users would otherwise go 5% slower than its rate).
      if (how === 'unsent' && priority !== 'reply') this.nextSlotAt -= this.spacingMs;
      if (answered) this.answers.push(t);
    }
    if (chatId !== undefined && answered) this.holdUntil(chatId, t + this.limits.perChatMs);
    if (chatId !== undefined && chatId < 0 && how === 'delivered' && priority !== 'reply') {
      const times = this.groupDeliveries.get(chatId) ?? [];
      times.push(t);
      this.groupDeliveries.set(chatId, times);
    }
    // An answer may move the next free turn; a turn without one gave its place back.
    if (this.line.length > 0) this.pump();
  }

  private enqueue(waiter: Waiter): void {
    const at = this.line.findIndex(
      (w) => rank[w.priority] > rank[waiter.priority] || (w.priority === waiter.priority && w.seq > waiter.seq),
    );
    if (at < 0) this.line.push(waiter);
    else this.line.splice(at, 0, waiter);
    this.pump();
  }

  /** Starts the waiting turns that fit now, in line order; wakes again when the next may. */
  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.line.length > 0) {
      const t = this.mono();
      let soonest = Infinity;
      let next = -1;
      for (const [index, waiter] of this.line.entries()) {
        const at = this.grantableAt(waiter.chatId, waiter.priority, waiter.paid);
        if (at <= t) {
          next = index;
          break;
        }
        soonest = Math.min(soonest, at);
        // Waiting for the overall window (not for its own chat): the lanes below wait behind it.
        if (this.waitsForWindow(waiter, t)) break;
      }
      if (next < 0) {
        this.timer = setTimeout(() => this.pump(), Number.isFinite(soonest) ? Math.max(1, Math.ceil(soonest - t)) : recheckMs);
        return;
      }
      this.line.splice(next, 1)[0]!.start();
    }
  }

  /** Forgets answers, deliveries and chat waits that no longer matter (the maps: once a window). */
  private prune(t: number): void {
    const { globalWindowMs, groupWindowMs, bulkWindowMs } = this.limits;
    while (this.answers.length > 0 && this.answers[0]! <= t - globalWindowMs) this.answers.shift();
    while (this.bulkStarts.length > 0 && this.bulkStarts[0]! <= t - bulkWindowMs) this.bulkStarts.shift();
    if (t - this.prunedAt < globalWindowMs) return;
    this.prunedAt = t;
    for (const [chatId, times] of this.groupDeliveries) {
      while (times.length > 0 && times[0]! <= t - groupWindowMs) times.shift();
      if (times.length === 0) this.groupDeliveries.delete(chatId);
    }
    for (const [chatId, at] of this.chatWaits) if (at <= t) this.chatWaits.delete(chatId);
  }
}

/** `value` without its undefined fields, so they do not override defaults when spread. */
export function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
