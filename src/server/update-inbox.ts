/**
 * How the update inbox (src/store/inbox.ts) sits between Telegram and the bot: which updates it
 * keeps, the getUpdates transformer of long polling, the done marks, and the replay on start.
 */
import type { Bot, Context, Transformer } from 'grammy';
import type { Update } from 'grammy/types';
import type { BotContext } from '../bot/context.ts';
import type { Logger } from '../logger.ts';
import type { Inbox } from '../store/inbox.ts';
import type { InboxDb } from '../store/db.ts';
import type { InboxStore, Lease } from '../store/contract.ts';

/** A start replays an update at most this many times (a crash loop on one update then gives up on it). */
export const maxReplayAttempts = 3;

/**
 * Whether an update may move money, and so must be stored before it is acknowledged: every
 * callback query (Confirm, "Yes, buy again", order and broadcast confirmations — a button in any
 * chat is cheap to keep) and every message in a private chat (a quick-buy, `/beli CODE TARGET`, the
 * PIN that completes a confirmed purchase: buying happens in private chats only). Group messages,
 * edits and membership changes never start or complete a payment.
 */
export function mayMoveMoney(update: Update): boolean {
  if (update.callback_query) return true;
  return update.message?.chat.type === 'private';
}

/**
 * The long-polling half: an API transformer for `getUpdates` (install it on `bot.api`). Before
 * the updates of an answer reach the runner — which acknowledges them only with the offset of
 * its NEXT getUpdates — those that may move money are written to the inbox (the call fails if
 * that write fails, so the runner asks again and nothing is acknowledged). Updates the inbox holds
 * already (Telegram re-sends what was not acknowledged before a crash, and the start has replayed
 * them) are dropped from the answer; the offset sent then still moves past them. The offset of each
 * successful call tells which updates Telegram will not send again, so their done entries go.
 */
export function inboxGetUpdatesTransformer(inbox: Inbox): Transformer {
  /** One past the highest update id this process was given (dropped duplicates included). */
  let nextOffset = 0;
  return async (prev, method, payload, signal) => {
    if (method !== 'getUpdates') return prev(method, payload, signal);
    const requested = (payload as { offset?: number }).offset ?? 0;
    // A negative offset (counting from the end) is left as it is.
    const offset = requested < 0 ? requested : Math.max(requested, nextOffset);
    const answer = await prev(method, { ...payload, offset } as typeof payload, signal);
    if (!answer.ok) return answer;
    if (offset > 0) inbox.acknowledgedBelow(offset);
    const updates = answer.result as unknown as Update[];
    // Held before this answer: a duplicate, already handled or replayed.
    const fresh = updates.filter((update) => !inbox.has(update.update_id));
    await inbox.add(fresh.filter(mayMoveMoney));
    const last = updates.at(-1);
    if (last) nextOffset = Math.max(nextOffset, last.update_id + 1);
    return { ...answer, result: fresh as unknown as typeof answer.result };
  };
}

/**
 * Marks every inbox update done once `bot.handleUpdate` finished with it (also when its handling
 * failed with an error the bot already reported: replaying it would fail again). Covers long
 * polling (the runner calls `bot.handleUpdate`), the webhook (grammY's callback calls it) and the
 * replay alike.
 */
export function markDoneAfterHandling<C extends Context>(bot: Bot<C>, inbox: Pick<InboxStore, 'markDone'>): void {
  const handle = bot.handleUpdate.bind(bot);
  bot.handleUpdate = async (update, webhookReplyEnvelope) => {
    try {
      return await handle(update, webhookReplyEnvelope);
    } finally {
      void inbox.markDone(update.update_id).catch(() => undefined);
    }
  };
}

/**
 * Replays the inbox entries not marked done whose handler is gone (a crash came between their
 * acknowledgement and the end of their handling; on PostgreSQL also an instance that died with
 * them while the others run), claimed with `lease` so that no other instance replays them too.
 * Updates of one chat run in update-id order, one after the other; different chats run side by
 * side. Resolves with how many were replayed, once all are handled.
 */
export async function replayInbox(
  bot: Bot<BotContext>,
  inbox: Pick<InboxDb, 'claimUpdatesForReplay'>,
  logger: Logger,
  lease: Lease,
): Promise<number> {
  const { updates, givenUp } = await inbox.claimUpdatesForReplay({ limit: 1000, lease, maxAttempts: maxReplayAttempts });
  if (givenUp.length > 0)
    logger.error('updates not replayed: each start crashed on them, or they cannot be opened', { updateIds: givenUp });
  if (updates.length === 0) return 0;
  logger.warn('replaying updates a crash interrupted', { count: updates.length, updateIds: updates.map((u) => u.update_id) });
  const chains = new Map<string, Update[]>();
  for (const update of updates) {
    const key = chatKey(update);
    chains.set(key, [...(chains.get(key) ?? []), update]);
  }
  await Promise.all(
    [...chains.values()].map(async (chain) => {
      for (const update of chain) {
        try {
          await bot.handleUpdate(update);
        } catch (error) {
          logger.error('replayed update failed', { updateId: update.update_id, error });
        }
      }
    }),
  );
  return updates.length;
}

/** The chat an update belongs to (its sender's private chat, or the update itself), for per-chat order. */
export function chatOf(update: Update): number | undefined {
  return update.message?.chat.id ?? update.callback_query?.message?.chat.id ?? update.message?.from?.id ?? update.callback_query?.from.id;
}

function chatKey(update: Update): string {
  const chat = update.message?.chat.id ?? update.callback_query?.message?.chat.id;
  const from = update.message?.from?.id ?? update.callback_query?.from.id;
  return String(chat ?? from ?? update.update_id);
}
