import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the status feature. */
export const statusFeature = new Composer<BotContext>();
