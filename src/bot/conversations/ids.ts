/** Conversation ids and the arguments each accepts (stored as JSON by the plugin: keep them plain). */
import type { ServiceName } from '../../domain.ts';
import type { PurchaseForm } from '../renderers/purchase.ts';
import type { BotContext } from '../context.ts';

export const conversationIds = {
  connect: 'connect',
  buy: 'buy',
  pin: 'pin',
  order: 'order',
  shop: 'shop',
  sell: 'sell',
} as const;

/** Arguments of the sell conversation: which rule the /jual button sets. */
export interface SellArgs {
  mode: 'default' | 'brand' | 'product';
}

/** Arguments of the game order conversation: the game slug when chosen from /games. */
export interface OrderArgs {
  game?: string;
}

/** One wanted purchase: a product code and, when already known, the target. */
export interface BuyRequest {
  code: string;
  target?: string;
}

/** Arguments of the buy conversation: one or more lines (quick-buy bulk: up to 20). */
export interface BuyArgs {
  lines: BuyRequest[];
}

/** `BuyArgs` plus, from quick-buy, each line's number and the lines that were not CODE.TARGET (listed as skipped). */
export interface BuyConversationArgs extends BuyArgs {
  lines: Array<BuyRequest & { line?: number }>;
  skipped?: Array<{ line: number; text: string }>;
  /** The form the user typed (`CODE TARGET` or `CODE.TARGET`): hints show the same one. Default dotted. */
  form?: PurchaseForm;
}

/** Arguments of the connect conversation: the service, when the user already chose it. */
export interface ConnectArgs {
  service?: ServiceName;
}

/** A flow's id. */
export type ConversationId = (typeof conversationIds)[keyof typeof conversationIds];

/**
 * What each flow is entered with, by id: its arguments, or none where the flow asks for all it
 * needs. Every id must be here (`enterFlow` indexes it); each matches its conversation's `args`.
 */
interface FlowArgs {
  connect: [] | [ConnectArgs];
  buy: [BuyConversationArgs];
  pin: [];
  order: [] | [OrderArgs];
  shop: [];
  sell: [SellArgs];
}

/** Enters flow `id` in place of whatever flow was still open in this chat: the user moved on. */
export async function enterFlow<Id extends ConversationId>(ctx: BotContext, id: Id, ...args: FlowArgs[Id]): Promise<void> {
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(id, ...args);
}
