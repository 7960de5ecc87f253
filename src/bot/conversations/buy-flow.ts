/**
 * What the buy conversation's steps (`buy-steps.ts`, `buy-picker.ts`) share: who is buying, how
 * the flow waits, reads prices (an `external` step) and resolves quick-buy lines against them.
 */
import type { BotConversation, BotDeps, ConversationContext, PendingQuestion } from '../context.ts';
import type { BuyConversationArgs } from './ids.ts';
import type { BuyItem, BuyProblem, Selection } from '../renderers/purchase.ts';
import { readBuyData, type BuyAction } from '../callback-data/buy.ts';
import { isProductAvailable, providerFailureOf, type Product, type ProviderErrorJson } from '../../services/providers.ts';
import { waitForAnswer } from './ask.ts';
import { quietly } from '../edits.ts';
import { summaryPriceMaxAgeMs, type PriceListOptions } from '../../services/catalogue.ts';
import { describeProviderError } from '../provider-errors.ts';
import { normaliseCode, normaliseTarget, parseQuickBuy, targetKindOf } from '../../services/targets.ts';

/** Who is buying, in which conversation. */
export interface BuyFlow {
  conversation: BotConversation;
  /** The context of the update that started the conversation. */
  ctx: ConversationContext;
  deps: BotDeps;
  t: ConversationContext['t'];
  userId: number;
  chatId: number;
  /** A downline's flow (set by the first step): prices are their level's, paid from their wallet, bought through their upline. */
  downline?: boolean;
}

/** A price-list entry as plain JSON. */
export interface ProductJson {
  code: string;
  product_name: string;
  price: number;
  status: string;
}

/** `p` as plain JSON, to cross an `external` step. */
export const productJson = (p: Product): ProductJson => ({ code: p.code, product_name: p.product_name, price: p.price, status: p.status });

/** The products of some codes (null: not listed), or why the price list could not be read (no error: not connected). */
export type PriceLookup = { ok: true; products: Array<ProductJson | null> } | { ok: false; error?: ProviderErrorJson };

/** A product whose price changed between a summary and its Confirm tap. */
export interface PriceChangeLine {
  code: string;
  productName: string;
  oldPrice: number;
  newPrice: number;
}

/** A requested line: its number in the message, the code, and the target when given. */
export interface RequestedLine {
  line: number;
  code: string;
  target?: string;
}

export type Received =
  { kind: 'text'; ctx: ConversationContext; text: string } | { kind: 'button'; ctx: ConversationContext; action: BuyAction };

/**
 * What one wait listens for: text (when `text`) or a tap on the buttons of summary `confirmationId`.
 * Besides the shared rule, a new CODE.TARGET message leaves when `quickBuyLeaves`.
 */
export interface ReceiveOptions {
  confirmationId?: string;
  repeat: PendingQuestion | undefined;
  text: boolean;
  hint: string;
  quickBuyLeaves?: boolean;
  leave?: () => Promise<void>;
  leftWhat?: string;
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

/** Waits for an answer (see `ReceiveOptions`); an older summary's button is answered as such, other content gets `hint`. */
export function receive(flow: BuyFlow, options: ReceiveOptions): Promise<Received> {
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

/** Edits a summary: its text, then a closing line (editing the text drops the keyboard). */
export function closeSummaryOf(flow: BuyFlow, messageId: number, text: string, line: string): Promise<void> {
  return quietly(flow.ctx.api.editMessageText(flow.chatId, messageId, `${text}\n\n${line}`));
}

/** Tells the user the price list could not be read (or the account is no longer connected). */
export async function lookupFailed(flow: BuyFlow, error: ProviderErrorJson | undefined): Promise<void> {
  const { ctx, t } = flow;
  // The upline's account's troubles (credentials, IP, balance) are not the downline's to fix or to see.
  if (flow.downline) await ctx.reply(t('buy-downline-unavailable'));
  else if (error) await ctx.reply(describeProviderError(t, error, flow.deps.settings.publicIp));
  else await ctx.reply(t('error-not-connected', { service: t('service-reseller') }));
}

/**
 * Looks codes up in the user's price list: one no older than `summaryPriceMaxAgeMs` for a summary,
 * or one fetched at or after `since` (the instant a summary was shown) for its check.
 */
export function lookup(flow: BuyFlow, codes: string[], since?: number): Promise<PriceLookup> {
  const { deps, userId } = flow;
  const options = since === undefined ? { maxAgeMs: summaryPriceMaxAgeMs } : { since };
  return flow.conversation.external(() =>
    withPriceList(deps, userId, options, 'a purchase', (list): PriceLookup => {
      const products = codes.map((code) => {
        const found = list.find((p) => p.code.toUpperCase() === code.toUpperCase());
        return found ? productJson(found) : null;
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
  if (!(await deps.services.trading.canTrade(userId))) return { ok: false };
  try {
    return await task(await deps.services.catalogue.priceList(userId, options));
  } catch (error) {
    const failure = providerFailureOf(error);
    if (!failure) throw error;
    deps.logger.warn(`price list unavailable for ${purpose}`, { userId, error });
    return { ok: false, error: failure };
  }
}

/** The lines of the arguments, checked (they come from storage as JSON). */
export function requestedLines(args: BuyConversationArgs | undefined): RequestedLine[] {
  const lines = Array.isArray(args?.lines) ? args.lines : [];
  return lines
    .filter((request) => typeof request?.code === 'string' && request.code.trim() !== '')
    .map((request, index) => {
      const line: RequestedLine = {
        line: typeof request.line === 'number' ? request.line : index + 1,
        code: normaliseCode(request.code),
      };
      if (typeof request.target === 'string') line.target = request.target;
      return line;
    });
}

/** Why line `line` (of `code`) cannot be bought: its product is not listed, or not available. */
function unbuyable(line: number, code: string, product: ProductJson | null | undefined): BuyProblem {
  if (!product) return { type: 'unknown', line, code };
  return { type: 'unavailable', line, code: product.code, product: product.product_name, status: product.status };
}

/** Resolves quick-buy lines against the price list: what can be bought, and what not. Undefined: the lookup failed (the user was told). */
export async function resolveLines(
  flow: BuyFlow,
  lines: RequestedLine[],
  skipped: Array<{ line: number; text: string }>,
): Promise<Selection | undefined> {
  const codes = [...new Set(lines.map((l) => l.code))];
  const found = await lookup(flow, codes);
  if (!found.ok) {
    await lookupFailed(flow, found.error);
    return undefined;
  }
  const byCode = new Map(codes.map((code, index) => [code, found.products[index] ?? null]));
  const items: BuyItem[] = [];
  const problems: BuyProblem[] = skipped.map((s) => ({ type: 'format', line: s.line, text: s.text }));
  for (const request of lines) {
    const product = byCode.get(request.code);
    if (!product || !isProductAvailable(product)) {
      problems.push(unbuyable(request.line, request.code, product));
      continue;
    }
    const raw = request.target ?? '';
    const check = normaliseTarget(raw, targetKindOf(product));
    if (!check.ok) {
      problems.push({ type: 'target', line: request.line, problem: check.problem, target: raw.trim() });
      continue;
    }
    items.push({ code: product.code, productName: product.product_name, price: product.price, target: check.target });
  }
  problems.sort((a, b) => a.line - b.line);
  return { items, problems };
}

/**
 * The summary's lines against a newer price list (`products`, in the order of the lines' codes):
 * the lines at their current price, the prices that changed, and the lines no longer listed or
 * available (as problems, like a quick-buy's skipped lines).
 */
export function repriceSelection(
  selection: Selection,
  products: ReadonlyArray<ProductJson | null>,
): { selection: Selection; changes: PriceChangeLine[]; gone: BuyProblem[] } {
  const byCode = new Map(products.filter((p): p is ProductJson => p !== null).map((p) => [p.code.toUpperCase(), p]));
  const items: Selection['items'] = [];
  const changes: PriceChangeLine[] = [];
  const gone: BuyProblem[] = [];
  selection.items.forEach((item, index) => {
    const product = byCode.get(item.code.toUpperCase());
    if (!product || !isProductAvailable(product)) {
      gone.push(unbuyable(index + 1, item.code, product));
      return;
    }
    if (product.price !== item.price && !changes.some((c) => c.code === product.code))
      changes.push({ code: product.code, productName: product.product_name, oldPrice: item.price, newPrice: product.price });
    items.push({ ...item, price: product.price });
  });
  return { selection: { items, problems: [...selection.problems, ...gone] }, changes, gone };
}
