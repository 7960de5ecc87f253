import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the balance feature. */
export const balanceFeature = new Composer<BotContext>();
