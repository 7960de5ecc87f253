/**
 * What the buy conversation's steps (`buy-steps.ts`) share: who is buying, and the few ways the
 * flow waits, reads prices and closes a summary. Built once per replay of `buy.ts`.
 */
import type { BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import { readBuyData, type BuyAction } from '../callback-data/buy.ts';
import { providerFailureOf, type Product, type ProviderErrorJson } from '../../services/providers.ts';
import { waitForAnswer } from './ask.ts';
import { quietly } from '../edits.ts';
import type { PriceLookup } from './buy-questions.ts';
import { summaryPriceMaxAgeMs, type PriceListOptions } from '../../services/catalogue.ts';
import { describeProviderError } from '../provider-errors.ts';
import { parseQuickBuy } from '../../services/targets.ts';

export type Received =
  { kind: 'text'; ctx: ConversationContext; text: string } | { kind: 'button'; ctx: ConversationContext; action: BuyAction };

/** What one wait of the buy flow listens for; see `BuyFlow.receive`. */
export interface ReceiveOptions {
  confirmationId?: string;
  repeat: PendingQuestion | undefined;
  text: boolean;
  hint: string;
  quickBuyLeaves?: boolean;
  leave?: () => Promise<void>;
  leftWhat?: string;
}

/** The buy conversation's context for its steps. */
export interface BuyFlow {
  conversation: BotConversation;
  /** The context of the update that started the conversation. */
  ctx: ConversationContext;
  deps: BotDeps;
  t: ConversationContext['t'];
  userId: number;
  chatId: number;
  /** The bot's public address, for the provider's IP-whitelist hint. */
  publicIp: BotDeps['settings']['publicIp'];
  /**
   * Waits for text (when `text`) or a tap on one of this summary's buttons (`confirmationId`). A
   * command, another feature's button or (when `quickBuyLeaves`) a new CODE.TARGET message ends
   * the conversation after `leave` and is passed on; an older summary's button is answered as
   * such, other content gets `hint`, and the wait goes on.
   */
  receive: (options: ReceiveOptions) => Promise<Received>;
  /**
   * Looks codes up in the user's price list: one no older than `summaryPriceMaxAgeMs` for a
   * summary, or one fetched at or after `since` (the instant a summary was shown) for its check.
   */
  lookup: (codes: string[], since?: number) => Promise<PriceLookup>;
  /** Tells the user the price list could not be read (or the account is no longer connected). */
  lookupFailed: (error: ProviderErrorJson | undefined) => Promise<void>;
  /** Edits a summary: its text, then a closing line (editing the text drops the keyboard). */
  closeSummaryOf: (messageId: number, text: string, line: string) => Promise<void>;
}

/** Builds the shared part of the buy flow for `userId` in the private chat `chatId`. */
export function createBuyFlow(env: Pick<BuyFlow, 'deps' | 'publicIp' | 'conversation' | 'ctx' | 'userId' | 'chatId'>): BuyFlow {
  const { publicIp, ctx, chatId } = env;
  const t = ctx.t;
  const flow: BuyFlow = {
    ...env,
    t,
    receive: (options) => receiveIn(flow, options),
    lookup: (codes, since) => lookupIn(flow, codes, since),
    lookupFailed: async (error) => {
      if (error) await ctx.reply(describeProviderError(t, error, publicIp));
      else await ctx.reply(t('error-not-connected', { service: t('service-reseller') }));
    },
    closeSummaryOf: (messageId, text, line) => quietly(ctx.api.editMessageText(chatId, messageId, `${text}\n\n${line}`)),
  };
  return flow;
}

/** Answers a buy button that belongs to another (older) summary. */
async function answerStaleButton(flow: BuyFlow, button: ConversationContext, id: string | undefined): Promise<void> {
  const done =
    id === undefined
      ? false
      : await flow.conversation.external(async () => (await flow.deps.db.transactions.confirmation(id)) !== undefined);
  await quietly(button.answerCallbackQuery({ text: flow.t(done ? 'buy-already-done' : 'buy-expired') }));
  await quietly(button.editMessageReplyMarkup());
}

function receiveIn(flow: BuyFlow, options: ReceiveOptions): Promise<Received> {
  return waitForAnswer(flow.conversation, {
    ownsButton: (data) => readBuyData(data) !== undefined,
    repeat: options.repeat,
    alsoLeaves: options.quickBuyLeaves
      ? (next) => next.message?.text !== undefined && parseQuickBuy(next.message.text) !== undefined
      : undefined,
    accept: (next): Received | undefined => {
      const data = readBuyData(next.callbackQuery?.data);
      if (data) return data.id === options.confirmationId ? { kind: 'button', ctx: next, action: data.action } : undefined;
      const text = next.message?.text;
      return text !== undefined && options.text ? { kind: 'text', ctx: next, text } : undefined;
    },
    otherwise: (next) =>
      next.callbackQuery ? answerStaleButton(flow, next, readBuyData(next.callbackQuery.data)?.id) : next.reply(options.hint),
    leave: options.leave,
    ...(options.leftWhat === undefined ? {} : { leftWhat: options.leftWhat }),
  });
}

function lookupIn(flow: BuyFlow, codes: string[], since?: number): Promise<PriceLookup> {
  const { deps, userId } = flow;
  const options = since === undefined ? { maxAgeMs: summaryPriceMaxAgeMs } : { since };
  return flow.conversation.external(() =>
    withPriceList(deps, userId, options, 'a purchase', (list): PriceLookup => {
      const products = codes.map((code) => {
        const found = list.find((p) => p.code.toUpperCase() === code.toUpperCase());
        return found ? { code: found.code, product_name: found.product_name, price: found.price, status: found.status } : null;
      });
      return { ok: true, products };
    }),
  );
}

/**
 * What `task` makes of the user's price list (for an `external` step): `{ ok: false }` when the
 * reseller account was disconnected meanwhile, with the provider's failure when the list cannot be
 * read (logged, naming `purpose`). Other errors are thrown.
 */
export async function withPriceList<T>(
  deps: BotDeps,
  userId: number,
  options: PriceListOptions | undefined,
  purpose: string,
  task: (list: Product[]) => T | Promise<T>,
): Promise<T | { ok: false; error?: ProviderErrorJson }> {
  if (!(await deps.services.credentials.has(userId, 'reseller'))) return { ok: false };
  try {
    return await task(await deps.services.catalogue.priceList(userId, options));
  } catch (error) {
    const failure = providerFailureOf(error);
    if (!failure) throw error;
    deps.logger.warn(`price list unavailable for ${purpose}`, { userId, error });
    return { ok: false, error: failure };
  }
}
