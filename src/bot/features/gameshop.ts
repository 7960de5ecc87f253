import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the gameshop feature. */
export const gameshopFeature = new Composer<BotContext>();
