import type { Update } from 'grammy/types';

/** How one update is handled: the bot's own handling, or a stage of the pipeline around it. */
export type HandleUpdate = (update: Update) => Promise<void>;

/** A step of the update pipeline (update-pipeline.ts): what it does around the next step. */
export type PipelineStage = (next: HandleUpdate) => HandleUpdate;
