import { createHash } from 'node:crypto';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';
import type { BuyArgs, BuyRequest } from './ids.ts';
import { escapeHtml, formatRupiah, formatWib } from '../../text/format.ts';
import { describeProviderError } from '../provider-errors.ts';
import { createBuyAgainKeyboard, createBuySummaryKeyboard } from '../keyboards/buy.ts';
import { readBuyData, type BuyAction } from '../callback-data/buy.ts';
import { isProviderError, ProviderError, type ProviderErrorKind } from '../../providers/provider-error.ts';
import type { ServiceName as ProviderService } from '../../domain.ts';
import { isProductAvailable } from '../../providers/reseller/schemas.ts';
import { isValidPin } from '../../services/pin.ts';
import {
  maxQuickBuyLines,
  maxTargetLength,
  normaliseCode,
  normaliseTarget,
  parseBuyCommand,
  parseQuickBuy,
  targetKindOf,
  type TargetProblem,
} from '../../services/targets.ts';

/** A purchase of the same code and target within this window needs a second confirmation. */
export const repeatWindowMs = 60_000;
/** The settlement watcher leaves a just-confirmed purchase this long to the conversation that sends it. */
const submitHoldMs = 2 * 60_000;
/** Provider calls in flight at once while a bulk purchase is sent. */
const submitConcurrency = 4;
/** The balance shown in the summary is skipped when the provider takes longer than this. */
const balanceDeadlineMs = 4_000;

/**
 * Arguments of the buy conversation: the `BuyArgs` other features pass (`{ lines: [{ code }] }`),
 * plus, from quick-buy, each line's number in the message and the lines that were not
 * CODE.TARGET (listed as skipped in the summary). Plain JSON.
 */
export interface BuyConversationArgs extends BuyArgs {
  lines: Array<BuyRequest & { line?: number }>;
  skipped?: Array<{ line: number; text: string }>;
}

/** Why a requested line cannot be bought; rendered by `describeBuyProblem`. */
export type BuyProblem =
  | { type: 'format'; line: number; text: string }
  | { type: 'unknown'; line: number; code: string }
  | { type: 'unavailable'; line: number; code: string; product: string; status: string }
  | { type: 'target'; line: number; problem: TargetProblem; target: string };

/** One line ready to buy: the product as listed when the summary was made and the normalised target. */
interface BuyItem {
  code: string;
  productName: string;
  price: number;
  target: string;
}

interface Selection {
  items: BuyItem[];
  problems: BuyProblem[];
}

/** A provider error as plain JSON (conversation state holds JSON only). */
interface ProviderErrorJson {
  service: ProviderService;
  kind: ProviderErrorKind;
  endpoint: string;
  providerMessage?: string;
  httpStatus?: number;
}

interface ProductJson {
  code: string;
  product_name: string;
  price: number;
  status: string;
}

/** What the user sees of one sent transaction. */
interface ResultJson {
  refId: string;
  code: string;
  productName: string;
  target: string;
  price: number;
  status: string;
  sn?: string;
  message?: string;
  providerStatus?: string;
}

type Received = { kind: 'text'; ctx: ConversationContext; text: string } | { kind: 'button'; ctx: ConversationContext; action: BuyAction };

const html = { parse_mode: 'HTML' } as const;
const knownErrorKinds: ReadonlySet<string> = new Set<ProviderErrorKind>([
  'credentials',
  'insufficient_balance',
  'ip_blocked',
  'not_found',
  'validation',
  'rejected',
  'unknown_outcome',
  'malformed',
]);

/** Swallows a failed Telegram call whose failure changes nothing for the user (an answer to an old query, an edit). */
async function quietly(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch {
    // Nothing to do: the message is already as it should be, or the query expired.
  }
}

function toErrorJson(error: ProviderError): ProviderErrorJson {
  const json: ProviderErrorJson = { service: error.service, kind: error.kind, endpoint: error.endpoint };
  if (error.providerMessage !== undefined) json.providerMessage = error.providerMessage;
  if (error.httpStatus !== undefined) json.httpStatus = error.httpStatus;
  return json;
}

/** The user-facing explanation of a provider error, HTML-escaped. */
function explainError(t: TranslateFunction, error: ProviderErrorJson, publicIp: string | undefined): string {
  const text = describeProviderError(t, new ProviderError(error.service, error), publicIp) ?? t('error-generic');
  return escapeHtml(text);
}

/** Why the provider refused a transaction (Rejected), in the provider-error wording, HTML-escaped. */
function rejectionReason(t: TranslateFunction, result: ResultJson, publicIp: string | undefined): string {
  const kind = result.message;
  if (kind !== undefined && knownErrorKinds.has(kind)) {
    const error: ProviderErrorJson = { service: 'reseller', kind: kind as ProviderErrorKind, endpoint: '/transaction' };
    if (result.providerStatus !== undefined) error.providerMessage = result.providerStatus;
    return explainError(t, error, publicIp);
  }
  return escapeHtml(t('provider-error-rejected', { service: t('service-reseller'), message: result.providerStatus ?? result.message ?? '-' }));
}

/** One problem line (HTML): `Line 3: code XYZ is not in the price list`, or without the line number. */
export function describeBuyProblem(t: TranslateFunction, problem: BuyProblem, withLine: boolean): string {
  let text: string;
  switch (problem.type) {
    case 'format':
      text = t('buy-problem-format', { text: escapeHtml(problem.text) });
      break;
    case 'unknown':
      text = t('buy-problem-unknown', { code: escapeHtml(problem.code) });
      break;
    case 'unavailable':
      text = t('buy-problem-unavailable', { product: escapeHtml(problem.product), code: escapeHtml(problem.code), status: escapeHtml(problem.status) });
      break;
    case 'target':
      text = targetProblemText(t, problem.problem, problem.target);
      break;
  }
  return withLine ? t('buy-problem-line', { line: problem.line, problem: text }) : capitalise(text);
}

function targetProblemText(t: TranslateFunction, problem: TargetProblem, target: string): string {
  return t(`buy-problem-target-${problem}`, { target: escapeHtml(target.slice(0, maxTargetLength)), max: maxTargetLength });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The reply for a request in which nothing can be bought (HTML). */
export function nothingToBuyText(t: TranslateFunction, problems: BuyProblem[]): string {
  const single = problems.length === 1;
  return [t('buy-nothing-to-buy'), ...problems.map((p) => `• ${describeBuyProblem(t, p, !single)}`), '', t('buy-nothing-to-buy-hint')].join('\n');
}

/** Runs `task` over `items` with at most `limit` at once, keeping the order of the results. */
async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Resolves with `promise`'s value, or undefined after `ms` or on failure. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const settled = promise.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref?.();
  });
  return Promise.race([settled, deadline]).finally(() => clearTimeout(timer));
}

/** Telegram's limit is 4096 characters; a little room is kept for the closing line added on edit. */
const maxMessageLength = 3900;

/** The full text, or (for a long bulk message) the compact one that names products by code only. */
function fit(build: (compact: boolean) => string): string {
  const full = build(false);
  return full.length <= maxMessageLength ? full : build(true);
}

function summaryText(t: TranslateFunction, selection: Selection, balance: number | undefined, compact = false): string {
  const { items, problems } = selection;
  const total = items.reduce((sum, item) => sum + item.price, 0);
  const parts: string[] = [];
  const [only] = items;
  if (items.length === 1 && only) {
    parts.push(
      t('buy-summary-title'),
      '',
      t('buy-summary-product', { product: escapeHtml(only.productName), code: escapeHtml(only.code) }),
      t('buy-summary-target', { target: escapeHtml(only.target) }),
      t('buy-summary-price', { price: formatRupiah(only.price) }),
    );
  } else {
    parts.push(t('buy-summary-title-bulk', { count: items.length }), '');
    items.forEach((item, index) => {
      parts.push(
        t('buy-summary-line', {
          n: index + 1,
          product: escapeHtml(compact ? item.code : item.productName),
          code: escapeHtml(item.code),
          target: escapeHtml(item.target),
          price: formatRupiah(item.price),
        }),
      );
    });
    parts.push('', t('buy-summary-total', { total: formatRupiah(total) }));
  }
  parts.push(balance === undefined ? t('buy-summary-balance-unknown') : t('buy-summary-balance', { balance: formatRupiah(balance) }));
  if (balance !== undefined && balance < total) parts.push(t('buy-summary-balance-short'));
  if (problems.length > 0) {
    parts.push('', t('buy-summary-skipped'), ...problems.map((p) => `• ${describeBuyProblem(t, p, true)}`));
  }
  parts.push('', t('buy-summary-question'));
  return parts.join('\n');
}

type ResultKind = 'success' | 'failed' | 'rejected' | 'pending';

function resultKind(status: string): ResultKind {
  if (status === 'Sukses') return 'success';
  if (status === 'Gagal') return 'failed';
  if (status === 'Rejected') return 'rejected';
  // Created, Pending, an unknown outcome, or a status the provider made up: still in process.
  return 'pending';
}

const resultIcons: Record<ResultKind, string> = { success: '✅', failed: '❌', rejected: '⛔', pending: '⏳' };

function resultText(t: TranslateFunction, results: ResultJson[], publicIp: string | undefined, compact = false): string {
  const [only] = results;
  if (results.length === 1 && only) {
    const kind = resultKind(only.status);
    // No clear answer to the create (timeout, 5xx): it may or may not exist; say so, and not to buy again.
    const unclear = kind === 'pending' && only.message === 'unknown_outcome';
    const parts = [
      t(unclear ? 'buy-result-unclear' : `buy-result-${kind}`),
      '',
      t('buy-result-product', { product: escapeHtml(only.productName), code: escapeHtml(only.code) }),
      t('buy-result-target', { target: escapeHtml(only.target) }),
      t('buy-result-price', { price: formatRupiah(only.price) }),
    ];
    if (kind === 'success' && only.sn) parts.push(t('buy-result-sn', { sn: escapeHtml(only.sn) }));
    parts.push(t('buy-result-ref', { ref: escapeHtml(only.refId) }));
    if (kind === 'rejected') parts.push('', rejectionReason(t, only, publicIp));
    return parts.join('\n');
  }
  const parts = [t('buy-result-bulk-title', { count: results.length }), ''];
  results.forEach((result, index) => {
    const kind = resultKind(result.status);
    parts.push(
      t('buy-result-bulk-line', {
        n: index + 1,
        icon: resultIcons[kind],
        product: escapeHtml(compact ? result.code : result.productName),
        target: escapeHtml(result.target),
        status: t(`buy-status-${kind}`),
      }),
    );
    if (kind === 'success' && result.sn) parts.push(t('buy-result-bulk-sn', { sn: escapeHtml(result.sn) }));
    if (kind === 'rejected' && !compact) parts.push(t('buy-result-bulk-reason', { reason: rejectionReason(t, result, publicIp) }));
  });
  if (compact) {
    // Each distinct reason once, at the end.
    const reasons = new Set(results.filter((r) => resultKind(r.status) === 'rejected').map((r) => rejectionReason(t, r, publicIp)));
    if (reasons.size > 0) parts.push('', ...[...reasons].map((reason) => `⛔ ${reason}`));
  }
  if (results.some((result) => resultKind(result.status) === 'pending')) parts.push('', t('buy-result-bulk-pending'));
  if (results.some((result) => result.message === 'unknown_outcome' && resultKind(result.status) === 'pending')) parts.push(t('buy-result-bulk-unclear'));
  return parts.join('\n');
}

function toResult(tx: ResultJson): ResultJson {
  const result: ResultJson = {
    refId: tx.refId,
    code: tx.code,
    productName: tx.productName,
    target: tx.target,
    price: tx.price,
    status: tx.status,
  };
  if (tx.sn !== undefined) result.sn = tx.sn;
  if (tx.message !== undefined) result.message = tx.message;
  if (tx.providerStatus !== undefined) result.providerStatus = tx.providerStatus;
  return result;
}

/** The lines of the arguments, checked (they come from storage as JSON). */
function requestedLines(args: BuyConversationArgs | undefined): Array<{ line: number; code: string; target?: string }> {
  const lines = Array.isArray(args?.lines) ? args.lines : [];
  return lines
    .filter((request) => typeof request?.code === 'string' && request.code.trim() !== '')
    .map((request, index) => {
      const line: { line: number; code: string; target?: string } = {
        line: typeof request.line === 'number' ? request.line : index + 1,
        code: normaliseCode(request.code),
      };
      if (typeof request.target === 'string') line.target = request.target;
      return line;
    });
}

/**
 * The confirmation id of a conversation's summary, derived from the update that started the
 * conversation (a conversation shows one summary). If a crash interrupts that update after the
 * summary was sent, the start replays it (update inbox) and shows a summary with the SAME id, so
 * the user's tap on the first one still counts, and a purchase recorded under it is found again
 * instead of bought twice. Never shared by two purchases: a message id is unique within its chat
 * and a callback query id is unique.
 */
function confirmationIdOf(ctx: ConversationContext): string {
  const origin = ctx.callbackQuery ? `callback:${ctx.callbackQuery.id}` : `message:${ctx.chat?.id}:${ctx.msg?.message_id ?? `update-${ctx.update.update_id}`}`;
  return createHash('sha256').update(`kiosbot-confirmation:${origin}`).digest('base64url').slice(0, 16);
}

/**
 * Creates the buy conversation (`conversationIds.buy`), the one way anything is bought.
 *
 * Entered with `BuyConversationArgs`: no lines (`/beli`: it asks for a product code, then the
 * target), one code (asks for the target), or one or more CODE.TARGET lines (quick-buy: straight
 * to the summary; lines with an unknown or unavailable code or a bad target are listed as skipped
 * and the others can still be bought — the batch is not refused as a whole).
 *
 * It waits for, in turn: the product code and the target when missing; a tap on ✅ Confirm /
 * ❌ Cancel under the summary (product, code, target, price, total and current balance); a
 * "Yes, buy again" tap when the same code and target were bought less than a minute ago (or twice
 * in one message); the PIN, when the user set one (its message is deleted right away). Any
 * command, another feature's button or a new CODE.TARGET message ends it (the command then runs).
 *
 * What it persists, through the conversation state (encrypted): the replies above and the results
 * of its `external` steps — the price-list lookup, and the confirmation id (derived from the
 * update that started the conversation, see `confirmationIdOf`), fixed together with the balance
 * BEFORE the summary is shown so that every replay and restart sees the same id. After the tap the
 * summary only says it is being checked; `purchases.confirm` (idempotent per confirmation id: ref
 * ids minted and stored as `Created` before any provider call) runs in one `external`, and only
 * once it resolved (on disk) does the summary say "confirmed"; then `purchases.submit` sends the
 * lines in another. A double tap, a re-sent callback, a replayed update or a restart never buys
 * twice; a replay that finds the confirmation already recorded says so above the result.
 *
 * It returns nothing; it ends after showing the result (Sukses with the SN, Gagal, Rejected with
 * the provider's reason, or Pending: "I will message you"), or after a cancel, a refusal or a lock.
 */
export function createBuyConversation(deps: BotDeps) {
  const publicIp = deps.settings.publicIp;

  return async function buyConversation(conversation: BotConversation, ctx: ConversationContext, args?: BuyConversationArgs): Promise<void> {
    const t = ctx.t;
    if (ctx.chat?.type !== 'private' || ctx.from === undefined) {
      await ctx.reply(t('error-private-only'));
      return;
    }
    const userId = ctx.from.id;
    const chatId = ctx.chat.id;

    /** Answers a buy button that belongs to another (older) summary. */
    const answerStaleButton = async (button: ConversationContext, id: string | undefined) => {
      const done = id === undefined ? false : await conversation.external(() => deps.store.transactions.confirmation(id) !== undefined);
      await quietly(button.answerCallbackQuery({ text: t(done ? 'buy-already-done' : 'buy-expired') }));
      await quietly(button.editMessageReplyMarkup());
    };

    /**
     * Waits for text or a tap on one of this summary's buttons. A command, another feature's
     * button or (when `quickBuyLeaves`) a new CODE.TARGET message ends the conversation after
     * `leave` and is passed on; other content gets `hint` and the wait goes on.
     */
    const receive = async (options: {
      confirmationId?: string;
      text: boolean;
      hint: string;
      quickBuyLeaves?: boolean;
      leave?: () => Promise<void>;
    }): Promise<Received> => {
      for (;;) {
        const next = await conversation.wait();
        const text = next.message?.text;
        if (next.callbackQuery) {
          const data = readBuyData(next.callbackQuery.data);
          if (!data) {
            await options.leave?.();
            return conversation.halt({ next: true });
          }
          if (data.id !== options.confirmationId) {
            await answerStaleButton(next, data.id);
            continue;
          }
          return { kind: 'button', ctx: next, action: data.action };
        }
        if (!next.message) return conversation.skip({ next: true });
        if (text !== undefined && text.trim().startsWith('/')) {
          await options.leave?.();
          return conversation.halt({ next: true });
        }
        if (text !== undefined && options.quickBuyLeaves && parseQuickBuy(text)) {
          await options.leave?.();
          return conversation.halt({ next: true });
        }
        if (text !== undefined && options.text) return { kind: 'text', ctx: next, text };
        await next.reply(options.hint, html);
      }
    };

    const receiveText = async (): Promise<string> => {
      const got = await receive({ text: true, hint: t('buy-send-text') });
      // Without a confirmation id, no button reaches here; keep the compiler sure of it.
      return got.kind === 'text' ? got.text : '';
    };

    /** Looks codes up in the user's (cached) price list. */
    const lookup = (codes: string[]) =>
      conversation.external(async (): Promise<{ ok: true; products: Array<ProductJson | null> } | { ok: false; error?: ProviderErrorJson }> => {
        // Disconnected in the middle of the flow.
        if (!deps.services.credentials.has(userId, 'reseller')) return { ok: false };
        try {
          const list = await deps.services.catalogue.priceList(userId);
          const products = codes.map((code) => {
            const found = list.find((p) => p.code.toUpperCase() === code.toUpperCase());
            return found ? { code: found.code, product_name: found.product_name, price: found.price, status: found.status } : null;
          });
          return { ok: true, products };
        } catch (error) {
          if (!isProviderError(error)) throw error;
          deps.logger.warn('price list unavailable for a purchase', { userId, error });
          return { ok: false, error: toErrorJson(error) };
        }
      });

    const replyLookupFailure = async (error: ProviderErrorJson | undefined) => {
      if (error) await ctx.reply(explainError(t, error, publicIp), html);
      else await ctx.reply(t('error-not-connected', { service: t('service-reseller') }));
    };

    /** Resolves quick-buy lines against the price list: what can be bought, and what not. */
    const resolveLines = async (
      lines: Array<{ line: number; code: string; target?: string }>,
      skipped: Array<{ line: number; text: string }>,
    ): Promise<Selection | undefined> => {
      const found = await lookup([...new Set(lines.map((l) => l.code))]);
      if (!found.ok) {
        await replyLookupFailure(found.error);
        return undefined;
      }
      const codes = [...new Set(lines.map((l) => l.code))];
      const byCode = new Map(codes.map((code, index) => [code, found.products[index] ?? null]));
      const items: Array<BuyItem & { line: number }> = [];
      const problems: BuyProblem[] = skipped.map((s) => ({ type: 'format', line: s.line, text: s.text }));
      for (const request of lines) {
        const product = byCode.get(request.code);
        if (!product) {
          problems.push({ type: 'unknown', line: request.line, code: request.code });
          continue;
        }
        if (!isProductAvailable(product)) {
          problems.push({ type: 'unavailable', line: request.line, code: product.code, product: product.product_name, status: product.status });
          continue;
        }
        const raw = request.target ?? '';
        const check = normaliseTarget(raw, targetKindOf(product));
        if (!check.ok) {
          problems.push({ type: 'target', line: request.line, problem: check.problem, target: raw.trim() });
          continue;
        }
        items.push({ line: request.line, code: product.code, productName: product.product_name, price: product.price, target: check.target });
      }
      problems.sort((a, b) => a.line - b.line);
      return { items: items.map(({ line: _line, ...item }) => item), problems };
    };

    /** The guided path: asks for the code (unless given) until it is a buyable product, then for the target. */
    const askOne = async (initialCode: string | undefined): Promise<Selection | undefined> => {
      let code = initialCode;
      let prompt = t('buy-ask-code');
      for (;;) {
        if (code === undefined) {
          await ctx.reply(prompt, html);
          const answer = await receiveText();
          const parsed = parseBuyCommand(answer);
          if (parsed.count > maxQuickBuyLines) {
            prompt = t('buy-too-many-lines', { max: maxQuickBuyLines, count: parsed.count });
            continue;
          }
          const [first] = parsed.lines;
          if (!first) {
            prompt = t('buy-code-format');
            continue;
          }
          // The user answered with CODE.TARGET line(s): quick-buy from here.
          if (parsed.lines.length > 1 || first.target !== undefined) return resolveLines(parsed.lines, parsed.problems);
          code = first.code;
        }
        const found = await lookup([code]);
        if (!found.ok) {
          await replyLookupFailure(found.error);
          return undefined;
        }
        const product = found.products[0];
        if (!product) {
          prompt = t('buy-unknown-code', { code: escapeHtml(code) });
          code = undefined;
          continue;
        }
        if (!isProductAvailable(product)) {
          prompt = t('buy-unavailable-code', { product: escapeHtml(product.product_name), code: escapeHtml(product.code), status: escapeHtml(product.status) });
          code = undefined;
          continue;
        }
        const kind = targetKindOf(product);
        let targetPrompt = t(`buy-ask-target-${kind}`, {
          product: escapeHtml(product.product_name),
          code: escapeHtml(product.code),
          price: formatRupiah(product.price),
        });
        for (;;) {
          await ctx.reply(targetPrompt, html);
          const answer = await receiveText();
          const check = normaliseTarget(answer, kind);
          if (check.ok) {
            return { items: [{ code: product.code, productName: product.product_name, price: product.price, target: check.target }], problems: [] };
          }
          targetPrompt = t('buy-target-retry', { problem: capitalise(targetProblemText(t, check.problem, answer.trim())) });
        }
      }
    };

    // --- 0. May this user buy at all? -----------------------------------------------------
    const gate = await conversation.external(() => ({
      connected: deps.services.credentials.has(userId, 'reseller'),
      lockedUntil: deps.services.pin.lockedUntil(userId)?.toISOString(),
    }));
    if (!gate.connected) {
      await ctx.reply(t('error-not-connected', { service: t('service-reseller') }));
      return;
    }
    if (gate.lockedUntil !== undefined) {
      await ctx.reply(t('buy-pin-locked', { until: formatWib(gate.lockedUntil) }));
      return;
    }

    // --- 1. What to buy ---------------------------------------------------------------------
    const lines = requestedLines(args);
    const skipped = Array.isArray(args?.skipped) ? args.skipped : [];
    if (lines.length + skipped.length > maxQuickBuyLines) {
      await ctx.reply(t('buy-too-many-lines', { max: maxQuickBuyLines, count: lines.length + skipped.length }));
      return;
    }
    const [firstLine] = lines;
    const guided = lines.length === 0 || (lines.length === 1 && firstLine?.target === undefined && skipped.length === 0);
    const selection = guided ? await askOne(firstLine?.code) : await resolveLines(lines, skipped);
    if (!selection) return;
    if (selection.items.length === 0) {
      await ctx.reply(nothingToBuyText(t, selection.problems), html);
      return;
    }
    const { items } = selection;

    // --- 2. Summary: the confirmation id is minted (and stored) before it is shown -------------
    const prepared = await conversation.external(async () => {
      const confirmationId = confirmationIdOf(ctx);
      const client = deps.services.credentials.client(userId, 'reseller');
      const balance = client ? await within(client.balance(), balanceDeadlineMs) : undefined;
      return balance === undefined ? { confirmationId } : { confirmationId, balance };
    });
    const { confirmationId } = prepared;
    const summary = fit((compact) => summaryText(t, selection, prepared.balance, compact));
    const summaryMessage = await ctx.reply(summary, { ...html, reply_markup: createBuySummaryKeyboard(t, confirmationId) });
    /** Replaces the summary's buttons by a closing line (editing the text drops the keyboard). */
    const closeSummary = (line: string) => quietly(ctx.api.editMessageText(chatId, summaryMessage.message_id, `${summary}\n\n${line}`, html));

    for (;;) {
      const got = await receive({
        confirmationId,
        text: false,
        hint: t('buy-use-buttons'),
        quickBuyLeaves: true,
        leave: () => closeSummary(t('buy-summary-abandoned')),
      });
      if (got.kind !== 'button') continue;
      if (got.action === 'no') {
        await quietly(got.ctx.answerCallbackQuery());
        await closeSummary(t('buy-summary-cancelled'));
        await ctx.reply(t('buy-cancelled'));
        return;
      }
      if (got.action === 'ok') {
        // Not "confirmed" yet: that is said once the confirmation is on disk (step 5).
        await quietly(got.ctx.answerCallbackQuery({ text: t('buy-in-progress') }));
        await closeSummary(t('buy-summary-checking'));
        break;
      }
      await quietly(got.ctx.answerCallbackQuery());
    }

    /** Closes the summary and the repeat question (if any) with the same line. */
    const closeBoth = async (line: string) => {
      await closeSummary(line);
      await closeQuestion?.(line);
    };
    /** Closes the repeat question, when one was asked. */
    let closeQuestion: ((line: string) => Promise<void>) | undefined;

    // --- 3. The same purchase less than a minute ago? ------------------------------------------
    const repeats = await conversation.external(async () => {
      const now = deps.now().getTime();
      const recent = (await deps.store.transactions.listByUser(userId, { limit: 50 })).filter(
        (tx) =>
          now - Date.parse(tx.createdAt) < repeatWindowMs &&
          tx.batchId !== confirmationId &&
          tx.status !== 'Rejected' &&
          tx.status !== 'Gagal',
      );
      const same = (a: { code: string; target: string }, b: { code: string; target: string }) =>
        a.code.toUpperCase() === b.code.toUpperCase() && a.target === b.target;
      const found: Array<{ index: number; seconds?: number }> = [];
      items.forEach((item, index) => {
        const earlier = recent.find((tx) => same(tx, item));
        if (earlier) found.push({ index, seconds: Math.max(1, Math.round((now - Date.parse(earlier.createdAt)) / 1000)) });
        else if (items.slice(0, index).some((other) => same(other, item))) found.push({ index });
      });
      return found;
    });
    if (repeats.length > 0) {
      const repeatLines = repeats.map(({ index, seconds }) => {
        const item = items[index];
        const vars = { product: escapeHtml(item?.productName ?? ''), target: escapeHtml(item?.target ?? '') };
        return seconds === undefined ? t('buy-repeat-batch', vars) : t('buy-repeat-recent', { ...vars, seconds });
      });
      const question = [t('buy-repeat-title'), '', ...repeatLines, '', t('buy-repeat-question')].join('\n');
      const asked = await ctx.reply(question, { ...html, reply_markup: createBuyAgainKeyboard(t, confirmationId) });
      const closeThisQuestion = (line: string) => quietly(ctx.api.editMessageText(chatId, asked.message_id, `${question}\n\n${line}`, html));
      closeQuestion = closeThisQuestion;
      for (;;) {
        const got = await receive({
          confirmationId,
          text: false,
          hint: t('buy-answer-question'),
          leave: () => closeThisQuestion(t('buy-summary-abandoned')),
        });
        if (got.kind !== 'button') continue;
        if (got.action === 'no') {
          await quietly(got.ctx.answerCallbackQuery());
          await closeThisQuestion(t('buy-summary-cancelled'));
          await closeSummary(t('buy-summary-cancelled'));
          await ctx.reply(t('buy-cancelled'));
          return;
        }
        if (got.action === 'again') {
          await quietly(got.ctx.answerCallbackQuery({ text: t('buy-in-progress') }));
          await closeThisQuestion(t('buy-summary-checking'));
          break;
        }
        // A second tap on the summary's Confirm: the question above decides.
        await quietly(got.ctx.answerCallbackQuery({ text: t('buy-answer-question') }));
      }
    }

    // --- 4. PIN ----------------------------------------------------------------------------
    const pin = await conversation.external(() => ({
      required: deps.services.pin.hasPin(userId),
      lockedUntil: deps.services.pin.lockedUntil(userId)?.toISOString(),
    }));
    if (pin.lockedUntil !== undefined) {
      await closeBoth(t('buy-summary-not-bought'));
      await ctx.reply(t('buy-pin-locked', { until: formatWib(pin.lockedUntil) }));
      return;
    }
    if (pin.required) {
      await ctx.reply(t('buy-pin-ask'));
      for (;;) {
        const got = await receive({ confirmationId, text: true, hint: t('buy-pin-ask'), leave: () => closeBoth(t('buy-summary-abandoned')) });
        if (got.kind === 'button') {
          await quietly(got.ctx.answerCallbackQuery({ text: t('buy-pin-first') }));
          continue;
        }
        // The PIN must not stay in the chat, whatever was typed.
        await quietly(got.ctx.deleteMessage());
        const entered = got.text.trim();
        if (!isValidPin(entered)) {
          await ctx.reply(t('buy-pin-format'));
          continue;
        }
        const check = await conversation.external(async (): Promise<{ ok: true } | { ok: false; left?: number; until?: string }> => {
          const result = await deps.services.pin.verify(userId, entered);
          if (result.ok) return { ok: true };
          return result.locked ? { ok: false, until: result.until.toISOString() } : { ok: false, left: result.attemptsLeft };
        });
        if (check.ok) break;
        if (check.until !== undefined) {
          await closeBoth(t('buy-summary-not-bought'));
          await ctx.reply(t('buy-pin-locked', { until: formatWib(check.until) }));
          return;
        }
        await ctx.reply(t('buy-pin-wrong', { left: check.left ?? 0 }));
      }
    }

    // --- 5. Buy: ref ids stored first ("confirmed" only once that is on disk), then sent --------
    const recorded = await conversation.external(async (): Promise<{ ok: false } | { ok: true; again: boolean; refIds: string[] }> => {
      // Already recorded before this run: a crash interrupted this update after the write, and it is replayed.
      const again = deps.store.transactions.confirmation(confirmationId) !== undefined;
      try {
        const transactions = await deps.services.purchases.confirm({
          confirmationId,
          userId,
          chatId,
          lines: items.map((item) => ({ code: item.code, productName: item.productName, target: item.target, price: item.price })),
          holdMs: submitHoldMs,
        });
        return { ok: true, again, refIds: transactions.map((tx) => tx.refId) };
      } catch (error) {
        deps.logger.error('purchase could not be recorded; nothing was sent', { userId, error });
        return { ok: false };
      }
    });
    if (!recorded.ok) {
      await closeBoth(t('buy-summary-not-bought'));
      await ctx.reply(t('buy-not-recorded'));
      return;
    }
    await closeBoth(t('buy-summary-confirmed'));
    const processing = await ctx.reply(t(recorded.again ? 'buy-processing-again' : 'buy-processing'));
    const outcome = await conversation.external(async (): Promise<{ results: ResultJson[] }> => {
      const results = await mapLimit(recorded.refIds, submitConcurrency, async (refId) => {
        try {
          // Sending again is safe: the provider answers a repeated ref id with its status; a settled one is not sent.
          return toResult(await deps.services.purchases.submit(refId));
        } catch (error) {
          // Stored before sending: the watcher sends it (same ref id) once the hold is over.
          deps.logger.error('purchase not sent for now; it stays open', { refId, error });
          const tx = deps.store.transactions.get(refId) ?? (await deps.store.transactions.find(refId));
          if (!tx) throw error;
          return toResult({ ...tx, status: 'Pending' });
        }
      });
      return { results };
    });
    const text = fit((compact) => resultText(t, outcome.results, publicIp, compact));
    let resultMessageId = processing.message_id;
    try {
      await ctx.api.editMessageText(chatId, processing.message_id, text, html);
    } catch {
      resultMessageId = (await ctx.reply(text, html)).message_id;
    }

    // A single Pending purchase: its message is edited to the final state when it settles.
    const [single] = outcome.results;
    if (outcome.results.length === 1 && single && resultKind(single.status) === 'pending') {
      await conversation.external(async () => {
        await deps.store.transactions.update(single.refId, { pendingMessage: { chatId, messageId: resultMessageId } });
      });
    }
  };
}
