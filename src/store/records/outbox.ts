/**
 * Outbox items: messages the bot sends on its own, kept until Telegram accepted them, and the
 * rules that make and change one, shared by both engines.
 */
import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import { StoreError } from '../errors.ts';
import { isoDate, validated, withPatch } from './validation.ts';

export const outboxItemSchema = z.object({
  id: z.string().min(1),
  chatId: z.number().int(),
  kind: z.string().min(1),
  payload: z.unknown(),
  createdAt: isoDate,
  attempts: z.number().int().nonnegative(),
  /** Not to be sent before this time (retry back-off, 429 wait, scheduled reminder). */
  notBefore: isoDate.optional(),
  /** Enqueueing again with the same key while the first is pending is a no-op. */
  dedupeKey: z.string().min(1).optional(),
  /** Start of the current run of failed attempts (network errors, 5xx); the sender gives up some time after it. */
  failingSince: isoDate.optional(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

/** A notification to queue. `payload` must be JSON (it is stored as JSON). */
export interface NewOutboxItem {
  chatId: number;
  kind: string;
  payload: unknown;
  /** ISO time before which it must not be sent. */
  notBefore?: string;
  /** While an item with this key is pending, enqueueing another is a no-op returning the pending one. */
  dedupeKey?: string;
}

/** What a sender may change on a pending item (attempt count, back-off, payload). */
export type OutboxPatch = Partial<Pick<OutboxItem, 'attempts' | 'notBefore' | 'payload' | 'failingSince'>>;

/** What a scheduler needs to know of a pending item, without its payload. */
export type OutboxEntry = Pick<OutboxItem, 'id' | 'chatId' | 'createdAt' | 'attempts' | 'notBefore'>;

const nextId = monotonicFactory();

/** Builds and validates a new item (ids are time-ordered). */
export function buildOutboxItem(input: NewOutboxItem, now: Date): OutboxItem {
  const payload: unknown = input.payload === undefined ? null : JSON.parse(JSON.stringify(input.payload));
  return validated(
    outboxItemSchema,
    withPatch(
      { id: nextId(now.getTime()), chatId: input.chatId, kind: input.kind, payload, createdAt: now.toISOString(), attempts: 0 },
      { notBefore: input.notBefore, dedupeKey: input.dedupeKey },
    ),
    'notification',
  );
}

/** `existing` with the fields a sender may change replaced by `patch`, validated. */
export function patchedOutboxItem(existing: OutboxItem, patch: OutboxPatch): OutboxItem {
  const allowed: OutboxPatch = {};
  if ('attempts' in patch) allowed.attempts = patch.attempts;
  if ('notBefore' in patch) allowed.notBefore = patch.notBefore;
  if ('failingSince' in patch) allowed.failingSince = patch.failingSince;
  if ('payload' in patch) {
    if (patch.payload === undefined) throw new StoreError('invalid', 'A notification payload cannot be removed.');
    allowed.payload = JSON.parse(JSON.stringify(patch.payload));
  }
  return validated(outboxItemSchema, withPatch(existing, allowed), 'notification');
}

/** When an item is due: its notBefore, else when it was queued. */
export function outboxDueTime(item: OutboxItem): string {
  return item.notBefore ?? item.createdAt;
}

/** Refuses a retarget to something that is not a chat id. */
export function checkRetarget(toChatId: number): void {
  if (!Number.isInteger(toChatId))
    throw new StoreError('invalid', `Refusing to move notifications to chat ${toChatId}: not an integer id.`);
}
