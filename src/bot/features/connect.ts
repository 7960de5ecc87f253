import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the connect feature. */
export const connectFeature = new Composer<BotContext>();
