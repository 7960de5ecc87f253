import type { Transformer } from 'grammy';
import type { Pacing } from './pacing.ts';

/** Methods that post a message into a chat: Telegram counts them against its overall limit. */
export const postingMethods: ReadonlySet<string> = new Set([
  'sendMessage',
  'sendPhoto',
  'sendDocument',
  'sendVideo',
  'sendAnimation',
  'sendAudio',
  'sendVoice',
  'sendMediaGroup',
  'sendSticker',
  'sendLocation',
  'sendContact',
  'sendPoll',
  'sendDice',
  'copyMessage',
  'copyMessages',
  'forwardMessage',
  'forwardMessages',
]);

/** The abort signal grammY hands a transformer (its own AbortSignal type). */
type Signal = Parameters<Transformer>[3];

/** Where the bot's replies take their turn under Telegram's overall limit (one process, or the fleet's shared slots). */
export interface ReplySlots {
  /**
   * Resolves when one more message to `chatId` may go. `again`: the message was refused with a 429
   * and waited it out; it was there before those still waiting, so it goes first where it can.
   */
  take(chatId: number | undefined, again: boolean, signal: Signal): Promise<void>;
  /** The message that took a slot ended; `answered`: Telegram answered it (success or error). */
  ended(chatId: number | undefined, answered: boolean): void;
  /** Telegram refused a message to `chatId` with 429: nothing more to that chat for `ms`. */
  refused(chatId: number | undefined, ms: number): void;
}

/** Waits `ms`, or rejects when `signal` aborts. */
export type Sleep = (ms: number, signal?: Signal) => Promise<void>;

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('the request was aborted while it waited for Telegram'));
    const abort = () => {
      clearTimeout(timer);
      reject(new Error('the request was aborted while it waited for Telegram'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });

const chatIdOf = (payload: unknown): number | undefined => {
  const chatId = (payload as { chat_id?: unknown } | undefined)?.chat_id;
  return typeof chatId === 'number' ? chatId : undefined;
};

/**
 * The transformer that makes every reply wait its turn under Telegram's ceiling and never be
 * dropped: a message the bot posts takes a slot from `slots` first (however long the queue), and
 * any call Telegram refuses with 429 is sent again after `retry_after`, taking a slot again.
 *
 * Why not @grammyjs/auto-retry for the 429s: it counts 429s and 5xx against one `maxRetryAttempts`
 * and gives up on a 429 asking for more than `maxDelaySeconds`, so a reply in a long burst was
 * dropped after a few refusals; and installed below the pacer, every refused reply came back at
 * the same instant after `retry_after` and met the ceiling again. auto-retry stays, outside this
 * transformer, for what it does well: a few retries of Telegram's 5xx, each taking its slot here.
 */
export function createPacedReplies(slots: ReplySlots, sleep: Sleep = abortableSleep): Transformer {
  return async (prev, method, payload, signal) => {
    const posting = postingMethods.has(method);
    const chatId = chatIdOf(payload);
    /** One try: its slot, Telegram's answer, the slot given back with how it ended. */
    const sendOnce = async (again: boolean) => {
      if (posting) await slots.take(chatId, again, signal);
      let answered = false;
      try {
        const response = await prev(method, payload, signal);
        answered = true;
        return response;
      } finally {
        if (posting) slots.ended(chatId, answered);
      }
    };
    for (let again = false; ; again = true) {
      const response = await sendOnce(again);
      if (response.ok || response.error_code !== 429 || typeof response.parameters?.retry_after !== 'number') return response;
      const retryAfter = response.parameters.retry_after;
      const waitMs = Math.max(0, retryAfter) * 1000;
      slots.refused(chatId, waitMs);
      await sleep(waitMs, signal);
    }
  };
}

export interface ReplyPacerOptions {
  /** The outbox's pacing: replies count in its global window and go before its messages. */
  pacing: Pacing;
  /** Monotonic clock (ms). */
  mono?: () => number;
  /** Waits (tests pass a virtual one). */
  sleep?: Sleep;
}

/**
 * One process's reply slots: every message the bot posts in answer to a user is counted in the
 * outbox's window and waits, first come first served, until that window has room under Telegram's
 * ceiling; while a reply waits, the outbox starts nothing, so a reply takes the next slot before a
 * broadcast does. A burst of replies alone is held to the ceiling too (it would meet 429s).
 */
export function createLocalReplySlots(options: ReplyPacerOptions): ReplySlots {
  const { pacing } = options;
  const mono = options.mono ?? (() => performance.now());
  /** Replies waiting for a slot, in the order they asked; each entry starts its reply. */
  const queue: Array<() => void> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When only requests in flight fill the window, their answers free it: looked at again this soon. */
  const recheckMs = 10;

  /** Starts the waiting replies the window has room for, in order; wakes again when the next slot frees. */
  const pump = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0) {
      const t = mono();
      const freeAt = pacing.replyFreeAt(t);
      if (freeAt > t) {
        timer = setTimeout(pump, Number.isFinite(freeAt) ? Math.max(1, Math.ceil(freeAt - t)) : recheckMs);
        return;
      }
      queue.shift()!();
    }
  };

  return {
    take(_chatId, again, signal) {
      if (queue.length === 0 && pacing.replyFreeAt(mono()) <= mono()) {
        pacing.replyStarted();
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', abort);
          pacing.replyWaiting(-1);
          pacing.replyStarted();
          resolve();
        };
        const abort = () => {
          const index = queue.indexOf(start);
          if (index >= 0) queue.splice(index, 1);
          pacing.replyWaiting(-1);
          reject(new Error('the request was aborted while it waited for its turn under Telegram’s limit'));
        };
        pacing.replyWaiting(1);
        signal?.addEventListener('abort', abort, { once: true });
        if (again) queue.unshift(start);
        else queue.push(start);
        pump();
      });
    },
    ended(chatId, answered) {
      pacing.replyEnded(chatId, answered, mono());
      // A request that got no answer gave its slot back; an answer may move the next free slot.
      if (queue.length > 0) pump();
    },
    refused(chatId, ms) {
      // The outbox leaves the chat alone for as long as Telegram asked.
      if (chatId !== undefined) pacing.holdChat(chatId, mono() + ms);
    },
  };
}

/**
 * The transformer for one process's replies (see createLocalReplySlots): they share Telegram's
 * overall limit with the outbox, wait their turn however long the queue, and wait out a 429.
 */
export function createReplyPacer(options: ReplyPacerOptions): Transformer {
  return createPacedReplies(createLocalReplySlots(options), options.sleep);
}
