import type { Transformer } from 'grammy';
import type { RateGate, TurnEnd } from './rate-gate.ts';

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
 * dropped: a message the bot posts takes a turn in the gate's reply lane first (however long the
 * line; it goes before the outbox's notices and a broadcast's copies), and any call Telegram
 * refuses with 429 is sent again after `retry_after`, first in the lane.
 *
 * Why not @grammyjs/auto-retry for the 429s: it counts 429s and 5xx against one `maxRetryAttempts`
 * and gives up on a 429 asking for more than `maxDelaySeconds`, so a reply in a long burst was
 * dropped after a few refusals; and installed below the pacer, every refused reply came back at
 * the same instant after `retry_after` and met the ceiling again. auto-retry stays, outside this
 * transformer, for what it does well: a few retries of Telegram's 5xx, each taking its turn here.
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
