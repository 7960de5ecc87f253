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

export interface ReplyPacerOptions {
  /** The outbox's pacing: replies count in its global window and go before its messages. */
  pacing: Pacing;
  /** Monotonic clock (ms). */
  mono?: () => number;
  /** A reply waits at most this long for a slot, then goes anyway (Telegram's limit is not exact). Default 1000. */
  maxWaitMs?: number;
}

/**
 * The transformer that makes the bot's own replies share Telegram's overall limit with the
 * outbox: every message the bot posts in answer to a user is counted in the outbox's window, and
 * when a broadcast keeps that window full, the reply takes the next free slot before the outbox
 * does (the outbox starts nothing while a reply waits). Without it, a broadcast at the ceiling
 * made replies meet 429s and wait seconds (bench/broadcast.ts, `replies`).
 */
export function createReplyPacer(options: ReplyPacerOptions): Transformer {
  const { pacing } = options;
  const mono = options.mono ?? (() => performance.now());
  const maxWaitMs = options.maxWaitMs ?? 1000;
  return async (prev, method, payload, signal) => {
    if (!postingMethods.has(method)) return prev(method, payload, signal);
    const deadline = mono() + maxWaitMs;
    for (let t = mono(); t < deadline; t = mono()) {
      const freeAt = pacing.replyFreeAt(t);
      if (freeAt <= t) break;
      pacing.replyWaiting(1);
      try {
        await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(freeAt, deadline) - t)));
      } finally {
        pacing.replyWaiting(-1);
      }
    }
    pacing.replyStarted();
    let answered = false;
    try {
      const response = await prev(method, payload, signal);
      answered = true;
      return response;
    } finally {
      // Telegram's answer (success or error) counts in the window and starts the chat's 1 s gap
      // for the outbox; a request that never got an answer frees its slot only.
      const chatId = (payload as { chat_id?: unknown }).chat_id;
      pacing.replyEnded(typeof chatId === 'number' ? chatId : undefined, answered, mono());
    }
  };
}
