/**
 * How the update inbox (the store contract's `inbox`) sits between Telegram and the bot: which updates it
 * keeps, the getUpdates transformer of long polling, the done marks, and the replay on start.
 */
import { BotError, type Transformer } from 'grammy';
import type { Update } from 'grammy/types';
import type { BotContext } from '../bot/context.ts';
import { isTemporaryFailure } from '../bot/errors.ts';
import { StoreError, writeFailureFields, writeFailureOf } from '../store/errors.ts';
import type { Logger } from '../logger.ts';
import { updateChatId } from '../store/records/updates.ts';
import type { InboxDb } from '../store/db.ts';
import { inboxRetention, type ChatLockStore, type InboxStore } from '../store/contract.ts';
import type { ClaimHolder } from '../store/claim-holder.ts';
import type { UnstoredUpdates } from './unstored-updates.ts';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PipelineStage } from './pipeline-stage.ts';

/** A start replays an update at most this many times (a crash loop on one update then gives up on it). */
const maxReplayAttempts = 3;

/**
 * Whether an update may move money, and so is stored before it is acknowledged: every callback
 * query (a button in any chat is cheap to keep) and every private message (quick-buy, `/beli`, a
 * PIN: buying happens in private chats only). Group messages, edits and membership changes never do.
 */
export function mayMoveMoney(update: Update): boolean {
  if (update.callback_query) return true;
  return update.message?.chat.type === 'private';
}

/**
 * The long-polling half, a `getUpdates` transformer on `bot.api`: before an answer reaches the
 * runner (which acknowledges it only with its NEXT offset), its updates that may move money are
 * stored. A data directory that cannot be written (with `unstored`): the answer is acknowledged at
 * once, those updates dropped for good and their users told to try again; any other failure fails
 * the call, so nothing is acknowledged. Updates the inbox holds already (re-sent after a crash,
 * replayed by the start) are dropped from the answer while the offset moves past them. Once a call
 * with an offset succeeded, done entries past `inboxRetention.polling` go.
 */
export function inboxGetUpdatesTransformer(
  inbox: Pick<InboxDb, 'has' | 'addUpdates' | 'pruneDone'>,
  unstored?: UnstoredUpdates,
): Transformer {
  /** One past the highest update id this process was given (dropped duplicates included). */
  let nextOffset = 0;
  const dropped = (update: Update) => unstored?.wasDropped(update.update_id) === true;
  return async (prev, method, payload, signal) => {
    if (method !== 'getUpdates') return prev(method, payload, signal);
    const requested = (payload as { offset?: number }).offset ?? 0;
    // A negative offset (counting from the end) is left as it is.
    const offset = requested < 0 ? requested : Math.max(requested, nextOffset);
    const answer = await prev(method, { ...payload, offset } as typeof payload, signal);
    if (!answer.ok) return answer;
    const updates = answer.result as unknown as Update[];
    // Held before this answer: a duplicate, already handled or replayed.
    const held = await Promise.all(updates.map((update) => inbox.has(update.update_id)));
    const fresh = updates.filter((update, i) => !held[i] && !dropped(update));
    const toStore = fresh.filter(mayMoveMoney);
    const last = updates.at(-1);
    // Started in the same turn as the new entries' write, so the data directory's inbox makes one write of both.
    if (offset > 0) void inbox.pruneDone(inboxRetention.polling).catch(() => undefined);
    try {
      await inbox.addUpdates(toStore);
    } catch (error) {
      if (!unstored?.handles(error) || !last) throw error;
      // Acknowledged before anyone is told, so that no later start is given them again. (Telegram
      // confirms every update below the offset; the one this call may return comes again.)
      const acknowledged = await prev('getUpdates', { offset: last.update_id + 1, limit: 1, timeout: 0 }, signal).catch(() => undefined);
      if (!acknowledged?.ok) throw error;
      unstored.drop(toStore, error);
      await unstored.tell(toStore);
    }
    if (last) nextOffset = Math.max(nextOffset, last.update_id + 1);
    const result = fresh.filter((update) => !dropped(update));
    return { ...answer, result: result as unknown as typeof answer.result };
  };
}

/** Default waits before handling again an update that failed on a temporary problem (one retry per entry). */
export const handlingRetryDelaysMs: readonly number[] = [2000, 10_000];

interface MarkDoneOptions {
  /** The claim token a stored update is held under here (its done mark is fenced by it). */
  claimOf?: (updateId: number) => string | undefined;
  logger?: Logger;
  /** Waits before each new try of an update that failed on a temporary problem; its length bounds the retries. */
  retryDelaysMs?: readonly number[];
  /** Handles an update again from the top of the pipeline, reporting a failure as the runner would. */
  again: (update: Update) => Promise<void>;
}

/**
 * The pipeline stage that marks an inbox update done once the bot finished with it. A temporary
 * failure (`isTemporaryFailure`: disk, database, Telegram unreachable) is handled again after each
 * of `retryDelaysMs`, then marked done; a retried tap cannot buy twice (a purchase is recorded under
 * its confirmation id first). The bot's own failure (a bug) is marked done at once. A mark that
 * cannot be written is written again until it lands, or a later start would replay a handled update.
 */
export function markDoneAfterHandling(inbox: DoneMarks, options: MarkDoneOptions): PipelineStage {
  const delays = options.retryDelaysMs ?? handlingRetryDelaysMs;
  const log = options.logger;
  /** Failed tries so far, by update id, of updates waiting to be handled again. */
  const failedTries = new Map<number, number>();
  const markDone = (updateId: number) => {
    failedTries.delete(updateId);
    void markDoneDurably(inbox, updateId, options.claimOf?.(updateId), log);
  };
  return (handle) => async (update) => {
    try {
      await handle(update);
      markDone(update.update_id);
    } catch (error) {
      const tries = (failedTries.get(update.update_id) ?? 0) + 1;
      const delayMs = isTemporaryFailure(error) ? delays[tries - 1] : undefined;
      if (delayMs === undefined) {
        markDone(update.update_id);
        throw error;
      }
      failedTries.set(update.update_id, tries);
      // Read by the error handler: the user is told it is being tried again.
      if (error instanceof BotError) (error.ctx as Partial<BotContext>).handlingRetried = true;
      log?.warn('handling an update failed on a temporary problem; it is not marked done and is tried again', {
        updateId: update.update_id,
        retryInMs: delayMs,
        retry: tries,
      });
      setTimeout(() => void options.again(update), delayMs).unref();
      throw error;
    }
  };
}

/** Where done marks go: the store's inbox (fenced by the claim token when one is given). */
export interface DoneMarks {
  markDone(updateId: number, owner?: string): Promise<unknown>;
}

/** Longest wait between two tries of a done mark that could not be written. */
const markRetryMaxMs = 30_000;

/** Writes a done mark until it lands while the failure is temporary, or until the store closes (the next start replays the update). */
async function markDoneDurably(inbox: DoneMarks, updateId: number, owner: string | undefined, log: Logger | undefined): Promise<void> {
  for (let tries = 1; ; tries += 1) {
    try {
      if ((await inbox.markDone(updateId, owner)) === false)
        log?.warn('the claim on an update moved to another instance before its done mark: not marked here', { updateId });
      if (tries > 1) log?.info('the done mark of an update is written now', { updateId });
      return;
    } catch (error) {
      if (error instanceof StoreError && error.code === 'closed') return;
      // Only a problem that passes (a full disk, a dropped connection) is worth waiting out.
      const temporary = isTemporaryFailure(error);
      if (tries === 1 || !temporary) {
        const failure = writeFailureOf(error);
        const next = temporary
          ? 'writing it again until it lands (a restart meanwhile handles it again)'
          : 'the next start handles it again';
        log?.error(`marking an update done failed; ${next}`, {
          updateId,
          ...(failure ? writeFailureFields(failure) : { error }),
        });
      }
      if (!temporary) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** (tries - 1), markRetryMaxMs)).unref());
    }
  }
}

/** The stored updates this process handles and the claim token each is held under (recorded by the webhook and the replay, taken by the done mark). */
export interface UpdateClaims {
  holder: ClaimHolder;
  /** Records that `updateId` is held under `owner`. */
  record(updateId: number, owner: string): void;
  /** The token `updateId` is held under here, if it is. */
  ownerOf(updateId: number): string | undefined;
  /** Forgets the update's claim (once it is marked done) and returns its token. */
  take(updateId: number): string | undefined;
}

/** The registry of a fleet instance; with `track: false` (the data directory's single process) nothing is recorded. */
export function createUpdateClaims(holder: ClaimHolder, { track }: { track: boolean }): UpdateClaims {
  const owners = new Map<number, string>();
  return {
    holder,
    record: (updateId, owner) => void (track && owners.set(updateId, owner)),
    ownerOf: (updateId) => owners.get(updateId),
    take(updateId) {
      const owner = owners.get(updateId);
      owners.delete(updateId);
      return owner;
    },
  };
}

/** The claim the update being handled runs under (read by the Bot API guard). */
const claimScope = new AsyncLocalStorage<{ owner: string }>();

/** A call to Telegram refused because the update's claim is no longer this process's. */
class ClaimLostError extends Error {
  constructor() {
    super('the claim on this update moved to another instance (this one was paused past its lease): nothing is sent');
    this.name = 'ClaimLostError';
  }
}

interface ChatTurnOptions {
  /** How often a later update of a chat asks again whether the earlier open one is done (default 50 ms). */
  orderPollMs?: number;
  logger?: Logger;
}

/** What a turn in the chat's lock answers when the update must wait for an earlier one of its chat. */
const earlierFirst = Symbol('earlier update of the chat first');

/**
 * Every update, however it arrives, runs in its chat's lock (a replay and a live delivery of one
 * chat never run at once, on any instance); a stored one only while this process still holds it
 * (checked inside the lock), after every earlier stored update of its chat is done (the later one
 * lets the lock go and asks again; after two leases it runs, with a warning), and with its claim
 * in scope, so no Bot API call is made once the claim is lost (`claimGuard`).
 */
export function runUpdatesInChatTurns(
  db: { chatLocks: ChatLockStore; inbox: Pick<InboxStore, 'holds' | 'earlierOpen'> },
  claims: UpdateClaims,
  options: ChatTurnOptions = {},
): PipelineStage {
  const pollMs = options.orderPollMs ?? 50;
  const waitMs = 2 * claims.holder.lease().ms;
  return (handle) => async (update) => {
    const chatId = updateChatId(update);
    const owner = claims.ownerOf(update.update_id);
    const run = async (mayWait: boolean) => {
      if (owner === undefined) return handle(update);
      if (!claims.holder.holds(owner) || !(await db.inbox.holds(update.update_id, owner))) {
        claims.take(update.update_id);
        return;
      }
      if (mayWait && chatId !== undefined && (await db.inbox.earlierOpen(chatId, update.update_id))) return earlierFirst;
      return claimScope.run({ owner }, () => handle(update));
    };
    if (chatId === undefined) {
      await run(false);
      return;
    }
    const deadline = performance.now() + waitMs;
    for (;;) {
      const mayWait = performance.now() < deadline;
      if (!mayWait)
        options.logger?.warn('an earlier update of this chat is still open; this one runs now', { updateId: update.update_id, waitMs });
      if ((await db.chatLocks.run(chatId, () => run(mayWait))) !== earlierFirst) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
}

/** A Bot API transformer that refuses every call for an update whose claim this process lost (paused past its lease). */
export function claimGuard(holder: ClaimHolder): Transformer {
  return (prev, method, payload, signal) => {
    const scope = claimScope.getStore();
    if (scope && !holder.holds(scope.owner)) throw new ClaimLostError();
    return prev(method, payload, signal);
  };
}

/**
 * Replays the inbox entries not done whose handler is gone (a crash; on PostgreSQL also a dead
 * instance), claimed under this process's token, each through the update pipeline like a fresh
 * delivery: one chat's in update-id order, chats side by side. Resolves how many were replayed.
 */
export async function replayInbox(
  handle: (update: Update) => Promise<void>,
  inbox: Pick<InboxDb, 'claimUpdatesForReplay'>,
  logger: Logger,
  claims: UpdateClaims,
): Promise<number> {
  const lease = claims.holder.lease();
  const { updates, givenUp } = await inbox.claimUpdatesForReplay({ limit: 1000, lease, maxAttempts: maxReplayAttempts });
  if (givenUp.length > 0)
    logger.error('updates not replayed: each start crashed on them, or they cannot be opened', { updateIds: givenUp });
  if (updates.length === 0) return 0;
  logger.warn('replaying updates whose handler is gone', { count: updates.length, updateIds: updates.map((u) => u.update_id) });
  const chains = new Map<string, Update[]>();
  for (const update of updates) {
    claims.record(update.update_id, lease.owner);
    // One chain per chat (the chat lock's own key); an update of no chat is a chain of its own.
    const key = String(updateChatId(update) ?? `update ${update.update_id}`);
    chains.set(key, [...(chains.get(key) ?? []), update]);
  }
  await Promise.all(
    [...chains.values()].map(async (chain) => {
      for (const update of chain) {
        try {
          await handle(update);
        } catch (error) {
          logger.error('replayed update failed', { updateId: update.update_id, error });
        }
      }
    }),
  );
  return updates.length;
}
