/**
 * Pure renderers of /prices (HTML): a price-list view (the brands, a brand's products, search
 * results) with its keyboard, and the answer to a search that found nothing.
 */
import type { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { BrandGroup } from '../../services/brands.ts';
import { parseSearchQuery, searchExamples, searchProducts, type ParsedQuery, type SearchTerm } from '../../services/product-search.ts';
import { isProductAvailable, type Product } from '../../services/providers.ts';
import { hasSellRules, sellPriceOf, type SellRules } from '../../services/pricing.ts';
import { escapeHtml, formatRupiah } from '../../text/format.ts';
import { raw } from '../../text/html.ts';
import { productStatusWord } from '../../text/product-status.ts';
import {
  brandsPerPage,
  createBackToBrandsKeyboard,
  createBrandsKeyboard,
  createProductsKeyboard,
  productsPerPage,
  type PriceView,
} from '../keyboards/prices.ts';
import { sellFigures } from './sell.ts';

/**
 * The text and keyboard of a price-list view (`groups`: `catalogue.brands(products)`). Pages past
 * the end show the last; a brand index the changed list lacks shows the brands. With sell-price
 * `rules`, available products show cost → sell price (margin).
 */
export function renderPriceView(
  t: TranslateFunction,
  products: readonly Product[],
  groups: readonly BrandGroup[],
  view: PriceView,
  rules?: SellRules,
): { text: string; keyboard: InlineKeyboard } {
  if (view.kind === 'p' && groups[view.brand]) {
    const group = groups[view.brand]!;
    return renderProducts(t, products, group.products, view, rules, (page, pages) =>
      t('prices-brand-title', { brand: group.brand, count: group.products.length, page, pages }),
    );
  }
  if (view.kind === 's' && view.query) {
    const parsed = parseSearchQuery(view.query);
    const matches = searchProducts(products, parsed);
    const query = view.query;
    if (matches.length === 0) return { text: renderNoMatch(t, products, parsed), keyboard: createBackToBrandsKeyboard(t) };
    return renderProducts(t, products, matches, view, rules, (page, pages) =>
      t('prices-search-title', { query, count: matches.length, page, pages }),
    );
  }
  const pages = Math.max(1, Math.ceil(groups.length / brandsPerPage));
  const brandsView: PriceView = { kind: 'b', brand: 0, page: Math.min(view.kind === 'b' ? view.page : 0, pages - 1), query: '' };
  if (products.length === 0) return { text: t('prices-empty'), keyboard: createBrandsKeyboard(t, [], brandsView, 1) };
  const unavailable = products.filter((p) => !isProductAvailable(p)).length;
  const lines = [t('prices-brands', { products: products.length, brands: groups.length, unavailable })];
  if (pages > 1) lines.push(t('prices-page', { page: brandsView.page + 1, pages }));
  return { text: lines.join('\n'), keyboard: createBrandsKeyboard(t, groups, brandsView, pages) };
}

/** A search that found nothing: what was searched, as understood, searches that do work, and the forms to use. */
function renderNoMatch(t: TranslateFunction, products: readonly Product[], parsed: ParsedQuery): string {
  const understood = parsed.terms.map((term) => describeTerm(t, term)).join(' · ');
  const examples = searchExamples(products, parsed).map((example) => `<code>${escapeHtml(example)}</code>`);
  const lines = [t('prices-search-empty', { query: parsed.text, understood: raw(understood) })];
  if (examples.length > 0) lines.push(t('prices-search-examples', { examples: raw(examples.join(' · ')) }));
  lines.push('', t('prices-search-forms'));
  return lines.join('\n');
}

/** One understood search term (HTML): `pulsa`, `XL`, `Rp 10.000`, `10 (Rp 10.000)`, `5 GB`, `"xyz"`. */
function describeTerm(t: TranslateFunction, term: SearchTerm): string {
  switch (term.kind) {
    case 'category':
      return t('prices-search-term-category', { category: term.category });
    case 'brand':
      return escapeHtml(term.label);
    case 'nominal':
      return formatRupiah(term.value);
    case 'number':
      return term.value < 1000
        ? t('prices-search-term-number', { number: term.value, nominal: formatRupiah(term.value * 1000) })
        : String(term.value);
    case 'size':
      return `${term.value} ${term.unit.toUpperCase()}`;
    case 'word':
      return t('prices-search-term-word', { word: term.word });
  }
}

function renderProducts(
  t: TranslateFunction,
  all: readonly Product[],
  list: readonly Product[],
  view: PriceView,
  rules: SellRules | undefined,
  title: (page: number, pages: number) => string,
): { text: string; keyboard: InlineKeyboard } {
  const pages = Math.max(1, Math.ceil(list.length / productsPerPage));
  const page = Math.min(view.page, pages - 1);
  const shown = list.slice(page * productsPerPage, (page + 1) * productsPerPage);
  const selling = hasSellRules(rules);
  const lines = shown.map((product) => {
    const values = { code: product.code, name: product.product_name };
    if (!isProductAvailable(product)) return t('prices-line-unavailable', { ...values, status: productStatusWord(t, product.status) });
    if (selling) return t('prices-line-sell', { ...values, figures: raw(sellFigures(t, sellPriceOf(rules, product))) });
    return t('prices-line-available', { ...values, price: formatRupiah(product.price) });
  });
  const text = [title(page + 1, pages), '', ...lines, '', t('prices-footer')].join('\n');
  const index = new Map(all.map((product, i) => [product, i]));
  const keyboard = createProductsKeyboard(t, shown, (product) => index.get(product) ?? 0, { ...view, page }, pages);
  return { text, keyboard };
}
