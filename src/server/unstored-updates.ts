/**
 * Updates that may move money when the data directory cannot take the inbox's write (full,
 * read-only, no permission): nothing that could move money runs unstored, so each is dropped for
 * good and its user told to try again in a few minutes, instead of Telegram delivering it over and
 * over. Dropped means acknowledged to Telegram BEFORE the user is told: handled later, it could
 * buy what its user was told had not been bought.
 */
import type { Api } from 'grammy';
import type { Update, User } from 'grammy/types';
import type { Logger } from '../logger.ts';
import { writeFailureFields, writeFailureOf } from '../store/errors.ts';

/** Drops updates that could not be stored and tells their users. */
export interface UnstoredUpdates {
  /** Whether `error` (from storing updates) says the data directory cannot be written; anything else is the caller's. */
  handles(error: unknown): boolean;
  /** Remembers `updates` as dropped and logs what is wrong with the data directory. Call it once they are acknowledged. */
  drop(updates: readonly Update[], error: unknown): void;
  /** Tells the user of each of `updates` that the bot cannot save right now; never rejects (a failure is logged). */
  tell(updates: readonly Update[]): Promise<void>;
  /** Whether the update was dropped (the last `rememberedDrops`): it is never handled, however often it comes again. */
  wasDropped(updateId: number): boolean;
}

/** How many dropped update ids are remembered (Telegram re-sends one it missed the acknowledgement of within minutes). */
const rememberedDrops = 10_000;

export interface UnstoredUpdatesOptions {
  api: Pick<Api, 'sendMessage' | 'answerCallbackQuery'>;
  logger: Logger;
  /** The words for `from` (in their language): cannot save now, try again in a few minutes. */
  textFor(from: User | undefined): Promise<string>;
}

/** Drops the updates the data directory cannot store, and tells each user in the way their update asks for. */
export function createUnstoredUpdates(options: UnstoredUpdatesOptions): UnstoredUpdates {
  const { api, logger } = options;
  /** Dropped update ids, oldest first (a Set keeps insertion order). */
  const dropped = new Set<number>();
  /** Answers a tap with an alert, a private message with a message. */
  const tellOne = async (update: Update): Promise<void> => {
    const query = update.callback_query;
    if (query) {
      await api.answerCallbackQuery(query.id, { text: await options.textFor(query.from), show_alert: true });
      return;
    }
    const message = update.message;
    if (message?.chat.type === 'private') await api.sendMessage(message.chat.id, await options.textFor(message.from));
  };
  return {
    handles: (error) => writeFailureOf(error) !== undefined,
    drop(updates, error) {
      const failure = writeFailureOf(error);
      logger.error(
        'the data directory cannot be written, so updates that may move money cannot be stored: they are not handled, and their users are told to try again in a few minutes',
        { updateIds: updates.map((update) => update.update_id), ...(failure ? writeFailureFields(failure) : { error }) },
      );
      for (const update of updates) dropped.add(update.update_id);
      for (const oldest of dropped) {
        if (dropped.size <= rememberedDrops) break;
        dropped.delete(oldest);
      }
    },
    async tell(updates) {
      const results = await Promise.allSettled(updates.map(tellOne));
      results.forEach((result, index) => {
        if (result.status === 'rejected')
          logger.warn('could not tell a user that their update could not be stored (it is not handled)', {
            updateId: updates[index]?.update_id,
            error: result.reason,
          });
      });
    },
    wasDropped: (updateId) => dropped.has(updateId),
  };
}
