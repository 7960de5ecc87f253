/** Pure renderers of the buy flow (HTML), from the plain JSON the conversation stores. */
import type { TranslateFunction } from '@grammyjs/i18n';
import { formatMargin, formatRupiah } from '../../text/format.ts';
import { describeProviderError } from '../provider-errors.ts';
import type { ProviderErrorJson, ProviderErrorKind } from '../../services/providers.ts';
import { maxTargetLength, type TargetProblem } from '../../services/targets.ts';
import { operatorMismatch } from '../../domain/operators.ts';
import { raw } from '../../text/html.ts';
import { displaySn } from '../../text/token.ts';
import { formatPriceLine } from '../../text/receipt.ts';
import { isUplineRefusal } from '../../store/records/transactions.ts';
import { hasSellRules, sellPriceOf, type SellRules } from '../../services/pricing.ts';
import { sellFigures } from './sell.ts';
import { productStatusWord } from '../../text/product-status.ts';

/** Why a requested line cannot be bought; rendered by `describeBuyProblem`. */
export type BuyProblem =
  | { type: 'format'; line: number; text: string }
  | { type: 'unknown'; line: number; code: string }
  | { type: 'unavailable'; line: number; code: string; product: string; status: string }
  | { type: 'target'; line: number; problem: TargetProblem; target: string };

/** One line ready to buy: the product as listed when the summary was made and the normalised target. */
export interface BuyItem {
  code: string;
  productName: string;
  price: number;
  target: string;
}

/** What a request resolved to: the lines that can be bought, and why the others cannot. */
export interface Selection {
  items: BuyItem[];
  problems: BuyProblem[];
}

/** What the user sees of one sent transaction (plain JSON). */
export interface PurchaseResult {
  refId: string;
  code: string;
  productName: string;
  target: string;
  price: number;
  status: string;
  sn?: string;
  message?: string;
  providerStatus?: string;
  /** The sell price and margin stored at the confirmation (see TransactionRecord). */
  sellPrice?: number;
  margin?: number;
  /** A downline's purchase, sent through their upline's account (nothing of that account is shown). */
  viaUpline?: boolean;
}

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

/** Why the provider refused a transaction (Rejected), in the provider-error wording (HTML). */
function rejectionReason(t: TranslateFunction, result: PurchaseResult, publicIp: string | undefined): string {
  const kind = result.message;
  if (result.viaUpline && isUplineRefusal(kind)) return t('buy-downline-product-unavailable');
  if (kind !== undefined && knownErrorKinds.has(kind)) {
    const error: ProviderErrorJson = { service: 'reseller', kind: kind as ProviderErrorKind, endpoint: '/transaction' };
    if (result.providerStatus !== undefined) error.providerMessage = result.providerStatus;
    return describeProviderError(t, error, publicIp);
  }
  return t('provider-error-rejected', { service: t('service-reseller'), message: result.providerStatus ?? result.message ?? '-' });
}

/** One problem line (HTML): `Line 3: code XYZ is not in the price list`, or without the line number. */
export function describeBuyProblem(t: TranslateFunction, problem: BuyProblem, withLine: boolean): string {
  let text: string;
  switch (problem.type) {
    case 'format':
      text = t('buy-problem-format', { text: problem.text });
      break;
    case 'unknown':
      text = t('buy-problem-unknown', { code: problem.code });
      break;
    case 'unavailable':
      text = t('buy-problem-unavailable', { product: problem.product, code: problem.code, status: productStatusWord(t, problem.status) });
      break;
    case 'target':
      text = targetProblemText(t, problem.problem, problem.target);
      break;
  }
  return withLine ? t('buy-problem-line', { line: problem.line, problem: raw(text) }) : capitalise(text);
}

/** Why a typed target is not usable (HTML), e.g. "nomor 0812 terlalu pendek". */
export function targetProblemText(t: TranslateFunction, problem: TargetProblem, target: string): string {
  return t(`buy-problem-target-${problem}`, { target: target.slice(0, maxTargetLength), max: maxTargetLength });
}

/** `text` with its first letter in upper case. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** How the user wrote a purchase: `CODE TARGET` after /beli (spaced) or `CODE.TARGET` (dotted). */
export type PurchaseForm = 'spaced' | 'dotted';

/** The reply for a request in which nothing can be bought (HTML); the hint shows the form the user typed. */
export function nothingToBuyText(t: TranslateFunction, problems: BuyProblem[], form: PurchaseForm = 'dotted'): string {
  const single = problems.length === 1;
  const hint = t(form === 'spaced' ? 'buy-nothing-to-buy-hint-spaced' : 'buy-nothing-to-buy-hint');
  return [t('buy-nothing-to-buy'), ...problems.map((p) => `• ${describeBuyProblem(t, p, !single)}`), '', hint].join('\n');
}

/** Telegram's limit is 4096 characters; a little room is kept for the closing line added on edit. */
const maxMessageLength = 3900;

/** The full text, or (for a long bulk message) the compact one that names products by code only. */
export function fit(build: (compact: boolean) => string): string {
  const full = build(false);
  return full.length <= maxMessageLength ? full : build(true);
}

/** The warning under a line whose target is another operator's number ("⚠️ 0877 adalah nomor XL…"); it can still be confirmed. */
function operatorWarning(t: TranslateFunction, item: BuyItem): string[] {
  const mismatch = operatorMismatch({ code: item.code, product_name: item.productName }, item.target);
  return mismatch ? [t('buy-summary-operator-warning', { ...mismatch })] : [];
}

/**
 * The summary shown before confirming: the line(s) with their operator warnings, the total, the
 * balance and what was skipped. With sell-price `rules`, prices read `cost → sell (margin)`.
 * With `wallet`, the balance is a downline's wallet (the total must fit in it).
 */
export function renderPurchaseSummary(
  t: TranslateFunction,
  selection: Selection,
  balance: number | undefined,
  compact = false,
  rules?: SellRules,
  wallet = false,
): string {
  const { items, problems } = selection;
  const total = items.reduce((sum, item) => sum + item.price, 0);
  const selling = hasSellRules(rules);
  const sellOf = (item: BuyItem) => sellPriceOf(rules, { code: item.code, product_name: item.productName, price: item.price });
  const priceOf = (item: BuyItem) => (selling ? raw(sellFigures(t, sellOf(item))) : formatRupiah(item.price));
  const parts: string[] = [];
  const [only] = items;
  if (items.length === 1 && only) {
    parts.push(
      t('buy-summary-title'),
      '',
      t('buy-summary-product', { product: only.productName, code: only.code }),
      t('buy-summary-target', { target: only.target }),
      ...operatorWarning(t, only),
      selling ? t('buy-summary-price-sell', { figures: priceOf(only) }) : t('buy-summary-price', { price: formatRupiah(only.price) }),
    );
  } else {
    parts.push(t('buy-summary-title-bulk', { count: items.length }), '');
    items.forEach((item, index) => {
      parts.push(
        t('buy-summary-line', {
          n: index + 1,
          product: compact ? item.code : item.productName,
          code: item.code,
          target: item.target,
          price: priceOf(item),
        }),
        ...operatorWarning(t, item).map((warning) => `    ${warning}`),
      );
    });
    parts.push('', t('buy-summary-total', { total: formatRupiah(total) }));
    if (selling) {
      const sell = items.reduce((sum, item) => sum + sellOf(item).sell, 0);
      parts.push(t('buy-summary-sell-total', { sell: formatRupiah(sell), margin: formatMargin(sell - total) }));
    }
  }
  if (wallet) {
    // A downline's wallet: the purchase is refused whole unless it covers the total.
    parts.push(t('buy-summary-wallet', { balance: formatRupiah(balance ?? 0) }));
    if ((balance ?? 0) < total) parts.push(t('buy-summary-wallet-short', { short: formatRupiah(total - (balance ?? 0)) }));
  } else {
    parts.push(balance === undefined ? t('buy-summary-balance-unknown') : t('buy-summary-balance', { balance: formatRupiah(balance) }));
    if (balance !== undefined && balance < total) parts.push(t('buy-summary-balance-short'));
  }
  if (problems.length > 0) {
    parts.push('', t('buy-summary-skipped'), ...problems.map((p) => `• ${describeBuyProblem(t, p, true)}`));
  }
  parts.push('', t('buy-summary-question'));
  return parts.join('\n');
}

/** The lines whose price changed between a summary and its Confirm tap, above the new summary. */
export function renderPriceChanges(
  t: TranslateFunction,
  changes: ReadonlyArray<{ code: string; productName: string; oldPrice: number; newPrice: number }>,
): string {
  const lines = changes.map((change) =>
    t('buy-price-changed-line', {
      product: change.productName,
      code: change.code,
      old: formatRupiah(change.oldPrice),
      new: formatRupiah(change.newPrice),
    }),
  );
  return [t('buy-price-changed-title'), ...lines].join('\n');
}

/** The question when lines repeat a purchase `seconds` ago (under a minute) or, without `seconds`, an earlier line. */
export function renderRepeatQuestion(
  t: TranslateFunction,
  items: readonly BuyItem[],
  repeats: ReadonlyArray<{ index: number; seconds?: number }>,
): string {
  const lines = repeats.map(({ index, seconds }) => {
    const item = items[index];
    const vars = { product: item?.productName ?? '', target: item?.target ?? '' };
    return seconds === undefined ? t('buy-repeat-batch', vars) : t('buy-repeat-recent', { ...vars, seconds });
  });
  return [t('buy-repeat-title'), '', ...lines, '', t('buy-repeat-question')].join('\n');
}

/** How a transaction's status reads to the user. */
export type ResultKind = 'success' | 'failed' | 'rejected' | 'pending';

export function resultKind(status: string): ResultKind {
  if (status === 'Sukses') return 'success';
  if (status === 'Gagal') return 'failed';
  if (status === 'Rejected') return 'rejected';
  // Created, Pending, an unknown outcome, or a status the provider made up: still in process.
  return 'pending';
}

const resultIcons: Record<ResultKind, string> = { success: '✅', failed: '❌', rejected: '⛔', pending: '⏳' };

/** The result of the sent transactions: one in full (SN, ref id, reason), several as one line each. */
export function renderPurchaseResults(
  t: TranslateFunction,
  results: PurchaseResult[],
  publicIp: string | undefined,
  compact = false,
): string {
  const [only] = results;
  if (results.length === 1 && only) {
    const kind = resultKind(only.status);
    // No clear answer to the create (timeout, 5xx): it may or may not exist; say so, and not to buy again.
    const unclear = kind === 'pending' && only.message === 'unknown_outcome';
    const parts = [
      t(unclear ? 'buy-result-unclear' : `buy-result-${kind}`),
      '',
      t('buy-result-product', { product: only.productName, code: only.code }),
      t('buy-result-target', { target: only.target }),
      formatPriceLine(t, only, { label: 'buy-result-price' }),
    ];
    if (kind === 'success' && only.sn) parts.push(t('buy-result-sn', { sn: displaySn(only) }));
    parts.push(t('buy-result-ref', { ref: only.refId }));
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
        product: compact ? result.code : result.productName,
        target: result.target,
        status: t(`buy-status-${kind}`),
      }),
    );
    if (kind === 'success' && result.sn) parts.push(t('buy-result-bulk-sn', { sn: displaySn(result) }));
    if (kind === 'rejected' && !compact) parts.push(t('buy-result-bulk-reason', { reason: raw(rejectionReason(t, result, publicIp)) }));
  });
  if (compact) {
    // Each distinct reason once, at the end.
    const reasons = new Set(results.filter((r) => resultKind(r.status) === 'rejected').map((r) => rejectionReason(t, r, publicIp)));
    if (reasons.size > 0) parts.push('', ...[...reasons].map((reason) => `⛔ ${reason}`));
  }
  if (results.some((result) => resultKind(result.status) === 'pending')) parts.push('', t('buy-result-bulk-pending'));
  if (results.some((result) => result.message === 'unknown_outcome' && resultKind(result.status) === 'pending'))
    parts.push(t('buy-result-bulk-unclear'));
  return parts.join('\n');
}

/** The user-visible part of a transaction, as plain JSON (what the conversation stores). */
export function toPurchaseResult(tx: PurchaseResult & { upline?: unknown }): PurchaseResult {
  const result: PurchaseResult = {
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
  if (tx.sellPrice !== undefined) result.sellPrice = tx.sellPrice;
  if (tx.margin !== undefined) result.margin = tx.margin;
  if (tx.viaUpline === true || tx.upline !== undefined) result.viaUpline = true;
  return result;
}
