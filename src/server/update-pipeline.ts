/**
 * The one path every update takes (long polling, webhook, replay, a retry), composed once:
 * 1. chat turns, on a fleet only: the chat's lock, the claim check, earlier updates of the chat
 *    first (`runUpdatesInChatTurns`);
 * 2. at most 32 active updates, one parked on a slow call not counted (active-updates.ts);
 * 3. update starts spread over event-loop turns (turns.ts);
 * 4. done marks, a temporary failure handled again from step 1 (`markDoneAfterHandling`);
 * 5. the bot.
 * Nothing patches `bot.handleUpdate`: the runner gets `runnerBot`, the webhook and replay `handle`.
 */
import type { Bot } from 'grammy';
import type { BotContext } from '../bot/context.ts';
import type { Logger } from '../logger.ts';
import type { ChatLockStore, InboxStore } from '../store/contract.ts';
import { limitActiveUpdates, type ActiveUpdateOptions } from './active-updates.ts';
import type { HandleUpdate, PipelineStage } from './pipeline-stage.ts';
import { spreadUpdateStarts } from './turns.ts';
import { markDoneAfterHandling, runUpdatesInChatTurns, type DoneMarks, type UpdateClaims } from './update-inbox.ts';

export interface UpdatePipelineOptions {
  bot: Bot<BotContext>;
  inbox: DoneMarks;
  claims: UpdateClaims;
  logger: Logger;
  /** With a fleet's store: each chat's updates one at a time and in order across instances (step 1). */
  chatTurns?: { chatLocks: ChatLockStore; inbox: Pick<InboxStore, 'holds' | 'earlierOpen'> };
  activeUpdates?: ActiveUpdateOptions;
  /** Waits before each new try of an update that failed on a temporary problem (default 2 s, 10 s). */
  handlingRetryDelaysMs?: readonly number[];
}

export interface UpdatePipeline {
  /** Handles one update along the whole path; rejects with the bot's error as `bot.handleUpdate` would. */
  handle: HandleUpdate;
  /** The bot as @grammyjs/runner's `run` takes it, handling every fetched update through `handle`. */
  runnerBot: Pick<Bot<BotContext>, 'init' | 'api' | 'errorHandler'> & { handleUpdate: HandleUpdate };
}

/** Composes the update pipeline around `options.bot`. */
export function createUpdatePipeline(options: UpdatePipelineOptions): UpdatePipeline {
  const { bot, logger } = options;
  /** A failure of a retry goes to the bot's error handler, as the runner's would. */
  const again = (update: Parameters<HandleUpdate>[0]) =>
    handle(update).catch(async (error: unknown) => {
      await Promise.resolve(bot.errorHandler(error as never)).catch(() => undefined);
    });
  const stages: PipelineStage[] = [
    ...(options.chatTurns ? [runUpdatesInChatTurns(options.chatTurns, options.claims, { logger })] : []),
    limitActiveUpdates(options.activeUpdates),
    spreadUpdateStarts(),
    markDoneAfterHandling(options.inbox, {
      logger,
      claimOf: (updateId) => options.claims.take(updateId),
      again,
      ...(options.handlingRetryDelaysMs ? { retryDelaysMs: options.handlingRetryDelaysMs } : {}),
    }),
  ];
  const core: HandleUpdate = (update) => bot.handleUpdate(update);
  const handle = stages.reduceRight<HandleUpdate>((next, stage) => stage(next), core);
  const runnerBot: UpdatePipeline['runnerBot'] = {
    init: (...args) => bot.init(...args),
    get api() {
      return bot.api;
    },
    errorHandler: (error) => bot.errorHandler(error),
    handleUpdate: handle,
  };
  return { handle, runnerBot };
}
