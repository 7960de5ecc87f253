/** What the outbox says about its items: their queue order, their log fields, and Telegram's answers it reads. */
import { GrammyError, HttpError } from 'grammy';
import type { OutboxEntry } from '../store/outbox.ts';
import type { OutboxItem } from '../store/schema.ts';

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
