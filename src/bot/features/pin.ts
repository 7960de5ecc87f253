import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the pin feature. */
export const pinFeature = new Composer<BotContext>();
