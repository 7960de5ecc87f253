import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { isProductAvailable, type Product } from '../../services/providers.ts';
import type { BrandGroup } from '../../services/brands.ts';
import { priceProductData, priceSearchData, priceViewData } from '../callback-data/prices.ts';
import { formatRupiah } from '../../text/format.ts';
import { addPageButtons, withoutEmptyRows } from './rows.ts';
import { raw } from '../../text/html.ts';
import { productStatusWord } from '../../text/product-status.ts';

/** What a price-list message shows; packed into every button of it. */
export interface PriceView {
  kind: 'b' | 'p' | 's';
  /** Index of the brand in `groupByBrand(list)` (kind `p`). */
  brand: number;
  /** 0-based page. */
  page: number;
  /** Normalised search words (kind `s`). */
  query: string;
}

export const productsPerPage = 10;
export const brandsPerPage = 24;
const brandsPerRow = 3;

/** Callback data of a view button. */
export function packPriceView(view: PriceView, fresh = false): string {
  return priceViewData.pack({ kind: view.kind, brand: view.brand, page: view.page, query: view.query, fresh });
}

/** Callback data of a product button: its code, or `#<index in the list>` when the code cannot be packed. */
export function packProduct(product: Product, index: number): string {
  const code = product.code;
  const packable = !code.includes(':') && !code.startsWith('#') && Buffer.byteLength(`pbuy:${code}`, 'utf8') <= 64;
  return priceProductData.pack({ code: packable ? code : `#${index}` });
}

/** The navigation row (previous/next) of a paged view, none on a single page. */
function addNavigation(keyboard: InlineKeyboard, t: TranslateFunction, view: PriceView, pages: number): void {
  if (pages > 1) addPageButtons(keyboard, t, view.page, view.page < pages - 1, (page) => packPriceView({ ...view, page })).row();
}

/** Brand buttons (with product counts), paging, refresh. */
export function createBrandsKeyboard(t: TranslateFunction, groups: readonly BrandGroup[], view: PriceView, pages: number): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  const start = view.page * brandsPerPage;
  groups.slice(start, start + brandsPerPage).forEach((group, offset) => {
    const label = t('prices-button-brand', { brand: raw(group.brand), count: group.products.length });
    keyboard.text(label, packPriceView({ kind: 'p', brand: start + offset, page: 0, query: '' }));
    if ((offset + 1) % brandsPerRow === 0) keyboard.row();
  });
  keyboard.row();
  addNavigation(keyboard, t, view, pages);
  keyboard.text(t('prices-button-search'), priceSearchData.pack({}));
  keyboard.text(t('button-refresh'), packPriceView(view, true));
  return withoutEmptyRows(keyboard);
}

/**
 * One button per product on the page (available: code and price; unavailable: ⛔, code and its
 * status verbatim), paging, back to the brands, refresh. `indexOf` gives a product's index in the
 * whole price list.
 */
export function createProductsKeyboard(
  t: TranslateFunction,
  page: readonly Product[],
  indexOf: (product: Product) => number,
  view: PriceView,
  pages: number,
): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const product of page) {
    const label = isProductAvailable(product)
      ? t('prices-button-product', { code: raw(product.code), price: formatRupiah(product.price) })
      : t('prices-button-unavailable', { code: raw(product.code), status: raw(productStatusWord(t, product.status)) });
    keyboard.text(label, packProduct(product, indexOf(product))).row();
  }
  addNavigation(keyboard, t, view, pages);
  keyboard.text(t('prices-button-brands'), packPriceView({ kind: 'b', brand: 0, page: 0, query: '' }));
  keyboard.text(t('prices-button-search'), priceSearchData.pack({}));
  keyboard.text(t('button-refresh'), packPriceView(view, true));
  return withoutEmptyRows(keyboard);
}

/** Back to the brands, or search again (after a search found nothing). */
export function createBackToBrandsKeyboard(t: TranslateFunction): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('prices-button-brands'), packPriceView({ kind: 'b', brand: 0, page: 0, query: '' }))
    .text(t('prices-button-search'), priceSearchData.pack({}));
}
