import type { Transformer } from 'grammy';
import type { RateGate, TurnEnd } from './rate-gate.ts';

/** Methods that post a message into a chat: Telegram counts them against its overall limit. */
const postingMethods: ReadonlySet<string> = new Set([
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

/** Waits `ms`, or rejects when `signal` aborts. */
type Sleep = (ms: number, signal?: Signal) => Promise<void>;

const abortableSleep: Sleep = (ms, signal) =>
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
 * dropped: a posted message takes a turn in the gate's reply lane, and a 429 is sent again after
 * `retry_after`, first in the lane. Not @grammyjs/auto-retry for 429s: it gives up after
 * `maxRetryAttempts` or a long `retry_after` (a reply in a long burst was dropped), and below the
 * pacer every refused reply came back at one instant. auto-retry stays outside, for a few 5xx retries.
 */
export function createReplyPacer(gate: RateGate, sleep: Sleep = abortableSleep): Transformer {
  return async (prev, method, payload, signal) => {
    const posting = postingMethods.has(method);
    const chatId = chatIdOf(payload);
    /** One try: its turn, Telegram's answer, the turn ended with how it went. */
    const sendOnce = async (again: boolean) => {
      const turn = posting ? gate.take(chatId, 'reply', { again }) : undefined;
      let how: TurnEnd = 'unsent';
      try {
        await turn?.ready(signal as AbortSignal | undefined);
        how = 'unanswered';
        const response = await prev(method, payload, signal);
        how = 'answered';
        return response;
      } finally {
        turn?.end(how);
      }
    };
    for (let again = false; ; again = true) {
      const response = await sendOnce(again);
      if (response.ok || response.error_code !== 429 || typeof response.parameters?.retry_after !== 'number') return response;
      const waitMs = Math.max(0, response.parameters.retry_after) * 1000;
      // The outbox leaves the chat alone for as long as Telegram asked.
      if (chatId !== undefined) gate.hold(chatId, waitMs);
      await sleep(waitMs, signal);
    }
  };
}
