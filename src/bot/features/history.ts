import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the history feature. */
export const historyFeature = new Composer<BotContext>();
