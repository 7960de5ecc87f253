import { Composer } from 'grammy';
import type { BotContext } from '../context.ts';

/** STUB: replaced by the marketplace feature. */
export const marketplaceFeature = new Composer<BotContext>();
