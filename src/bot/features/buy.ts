import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the buy feature. */
export const buyFeature = new Composer<BotContext>();
