/**
 * The confirmation ids of purchase summaries: derived, never random, so that a replay or a restart
 * of the buy conversation shows a summary with the same id (and a tap on the first one counts).
 */
import { createHash } from 'node:crypto';
import type { ConversationContext } from '../context.ts';

/**
 * The confirmation id of a conversation's summary, derived from the update that started the
 * conversation (a summary shown again after a price change gets `roundConfirmationId`). If a crash interrupts that update after the
 * summary was sent, the start replays it (update inbox) and shows a summary with the SAME id, so
 * the user's tap on the first one still counts, and a purchase recorded under it is found again
 * instead of bought twice. Never shared by two purchases: a message id is unique within its chat
 * and a callback query id is unique.
 */
export function confirmationIdOf(ctx: ConversationContext): string {
  const origin = ctx.callbackQuery
    ? `callback:${ctx.callbackQuery.id}`
    : `message:${ctx.chat?.id}:${ctx.msg?.message_id ?? `update-${ctx.update.update_id}`}`;
  return createHash('sha256').update(`kiosbot-confirmation:${origin}`).digest('base64url').slice(0, 16);
}

/** The confirmation id of a summary shown again (`round` ≥ 1) after its prices changed. */
export function roundConfirmationId(base: string, round: number): string {
  return createHash('sha256').update(`kiosbot-confirmation:${base}:${round}`).digest('base64url').slice(0, 16);
}
