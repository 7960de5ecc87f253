/** What the outbox says about its items: their queue order, their log fields, Telegram's answers it reads, and its retry settings. */
import { GrammyError, HttpError } from 'grammy';
import type { OutboxEntry, OutboxItem } from '../store/records/outbox.ts';

/** Retrying after network errors, timeouts and 5xx. */
export interface OutboxRetry {
  /** First back-off; it doubles with every failed attempt. Default 2000. */
  baseMs?: number;
  /** Longest back-off. Default 10 minutes. */
  maxMs?: number;
  /** An item failing for this long is dropped with an error log. Default 24 hours. */
  giveUpAfterMs?: number;
  /** A Telegram request without an answer after this long is aborted and retried. Default 30 000. */
  requestTimeoutMs?: number;
}

/** Telegram's answers to an edit that can never succeed: the message is gone, not editable, or already shows this. */
export const uneditable =
  /message to edit not found|message can't be edited|MESSAGE_ID_INVALID|there is no text in the message to edit|message is not modified/i;

/** Whether `a` was queued before `b` (createdAt, then the time-ordered id). */
export function queuedBefore(a: OutboxEntry, b: OutboxEntry): boolean {
  const byTime = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  return byTime < 0 || (byTime === 0 && a.id < b.id);
}

/** Log fields naming an item without its text (which may hold a customer's number). */
export function describe(item: Pick<OutboxItem, 'id' | 'chatId'> & Partial<Pick<OutboxItem, 'kind'>>): Record<string, unknown> {
  return { itemId: item.id, chatId: item.chatId, kind: item.kind };
}

/** One line on why a delivery failed, without the request (it may carry the bot token). */
export function errorSummary(error: unknown): string {
  if (error instanceof GrammyError) return `${error.error_code} ${error.description}`;
  if (error instanceof HttpError) return `network: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
