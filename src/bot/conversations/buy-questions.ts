/**
 * The quick-buy question of the buy conversation: the lines of a quick-buy message, resolved
 * against the price list in one go (what can be bought, and why the rest cannot). The guided
 * path (tap or type a product, then the target) is the picker, `buy-picker.ts`. Built anew on
 * every replay of the conversation; the price-list lookup is the conversation's `external` step,
 * passed in.
 */
import type { BuyConversationArgs } from './ids.ts';
import type { BuyItem, BuyProblem, Selection } from '../renderers/purchase.ts';
import { isProductAvailable, type ProviderErrorJson } from '../../services/providers.ts';
import { normaliseCode, normaliseTarget, targetKindOf } from '../../services/targets.ts';

/** A price-list entry as plain JSON. */
export interface ProductJson {
  code: string;
  product_name: string;
  price: number;
  status: string;
}

/** The products of some codes (null: not listed), or why the price list could not be read (no error: not connected). */
export type PriceLookup = { ok: true; products: Array<ProductJson | null> } | { ok: false; error?: ProviderErrorJson };

/** A product whose price changed between a summary and its Confirm tap. */
export interface PriceChangeLine {
  code: string;
  productName: string;
  oldPrice: number;
  newPrice: number;
}

/**
 * The summary's lines against a newer price list (`products`, in the order of the lines' codes
 * as `lookup` was asked): the lines at their current price, the prices that changed, and the
 * lines no longer listed or available (as problems, like a quick-buy's skipped lines).
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
    const line = 'line' in item && typeof item.line === 'number' ? item.line : index + 1;
    const product = byCode.get(item.code.toUpperCase());
    if (!product) {
      gone.push({ type: 'unknown', line, code: item.code });
      return;
    }
    if (!isProductAvailable(product)) {
      gone.push({ type: 'unavailable', line, code: product.code, product: product.product_name, status: product.status });
      return;
    }
    if (product.price !== item.price && !changes.some((c) => c.code === product.code))
      changes.push({ code: product.code, productName: product.product_name, oldPrice: item.price, newPrice: product.price });
    items.push({ ...item, price: product.price });
  });
  return { selection: { items, problems: [...selection.problems, ...gone] }, changes, gone };
}

/** A requested line: its number in the message, the code, and the target when given. */
export interface RequestedLine {
  line: number;
  code: string;
  target?: string;
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

export interface BuyQuestionsEnv {
  /** Looks codes up in the user's price list (an `external` step). */
  lookup: (codes: string[]) => Promise<PriceLookup>;
  /** Tells the user the price list could not be read; the flow then ends. */
  lookupFailed: (error: ProviderErrorJson | undefined) => Promise<void>;
}

/** The buy conversation's questions. Undefined from either: the lookup failed and the user was told. */
export function createBuyQuestions(env: BuyQuestionsEnv) {
  const { lookup, lookupFailed } = env;

  /** Resolves quick-buy lines against the price list: what can be bought, and what not. */
  const resolveLines = async (lines: RequestedLine[], skipped: Array<{ line: number; text: string }>): Promise<Selection | undefined> => {
    const codes = [...new Set(lines.map((l) => l.code))];
    const found = await lookup(codes);
    if (!found.ok) {
      await lookupFailed(found.error);
      return undefined;
    }
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
        problems.push({
          type: 'unavailable',
          line: request.line,
          code: product.code,
          product: product.product_name,
          status: product.status,
        });
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

  return { resolveLines };
}
