import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the prices feature. */
export const pricesFeature = new Composer<BotContext>();
