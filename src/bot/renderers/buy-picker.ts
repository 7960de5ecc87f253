/**
 * The screens of the /beli picker (category → brand → product → target): one text and keyboard
 * per step, from the plain JSON the picker's `external` steps return. Pure.
 */
import type { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { formatRupiah } from '../../text/format.ts';
import { raw } from '../../text/html.ts';
import { knownCategories, otherCategory } from '../../services/catalogue.ts';
import { isProductAvailable } from '../../services/providers.ts';
import { targetKindOf } from '../../services/targets.ts';
import { brandsPerPage, productsPerPage } from '../keyboards/prices.ts';
import { createPickerKeyboard, type PickerStamp } from '../keyboards/buy-picker.ts';
import type { ProductJson } from '../conversations/buy-flow.ts';
import { productStatusWord } from '../../text/product-status.ts';

/** Where the picker is: the step and what was chosen on the way there. Plain JSON. */
export type PickerView =
  | { step: 'category'; page: number }
  | { step: 'brand'; category: string; page: number }
  | { step: 'product'; category: string; brand: string; page: number }
  | { step: 'target'; product: ProductJson; brand: string };

/** What a step shows, read from the price list (or the history, for targets). Plain JSON. */
export type PickerData =
  | { step: 'category'; categories: Array<{ category: string; count: number }> }
  | { step: 'brand'; brands: Array<{ brand: string; count: number }> }
  | { step: 'product'; products: ProductJson[] }
  | { step: 'target'; recent: string[] };

/** Categories are few; paged only for a provider with very many of its own. */
const categoriesPerPage = 12;

/** A category's name: localised for the known ones and `other`, the provider's own word otherwise. */
export function categoryLabel(t: TranslateFunction, category: string): string {
  if ((knownCategories as readonly string[]).includes(category) || category === otherCategory) return t(`buy-category-${category}`);
  return category;
}

/** The page line under a title, when there is more than one page. */
function pageLine(t: TranslateFunction, page: number, count: number, perPage: number): string[] {
  const pages = Math.max(1, Math.ceil(count / perPage));
  return pages > 1 ? [t('buy-picker-page', { page: Math.min(page, pages - 1) + 1, pages })] : [];
}

/** Text and keyboard of a picker step. `back` offers ⬅️ Back (every step but the first one shown). */
export function renderPickerStep(
  t: TranslateFunction,
  view: PickerView,
  data: PickerData,
  stamp: PickerStamp,
  back: boolean,
): { text: string; keyboard: InlineKeyboard } {
  if (view.step === 'brand' && data.step === 'brand') {
    const labels = data.brands.map((b) => t('prices-button-brand', { brand: raw(b.brand), count: b.count }));
    const text = [
      t('buy-picker-brands', { category: categoryLabel(t, view.category) }),
      ...pageLine(t, view.page, labels.length, brandsPerPage),
    ];
    return {
      text: text.join('\n'),
      keyboard: createPickerKeyboard(t, stamp, { labels, perRow: 3, perPage: brandsPerPage, page: view.page, back }),
    };
  }
  if (view.step === 'product' && data.step === 'product') {
    const { products } = data;
    const pages = Math.max(1, Math.ceil(products.length / productsPerPage));
    const page = Math.min(view.page, pages - 1);
    const lines = products.slice(page * productsPerPage, (page + 1) * productsPerPage).map((product) => {
      const values = { code: product.code, name: product.product_name };
      return isProductAvailable(product)
        ? t('prices-line-available', { ...values, price: formatRupiah(product.price) })
        : t('prices-line-unavailable', { ...values, status: productStatusWord(t, product.status) });
    });
    const title = t('buy-picker-products', { category: categoryLabel(t, view.category), brand: view.brand });
    const text = [title, ...pageLine(t, page, products.length, productsPerPage), '', ...lines, '', t('buy-picker-footer')].join('\n');
    const labels = products.map((product) =>
      isProductAvailable(product)
        ? t('buy-picker-button-product', { name: raw(product.product_name), price: formatRupiah(product.price) })
        : t('buy-picker-button-unavailable', { name: raw(product.product_name), status: raw(productStatusWord(t, product.status)) }),
    );
    return { text, keyboard: createPickerKeyboard(t, stamp, { labels, perRow: 1, perPage: productsPerPage, page, back }) };
  }
  if (view.step === 'target' && data.step === 'target') {
    const { product } = view;
    const ask = t(`buy-ask-target-${targetKindOf(product)}`, {
      product: product.product_name,
      code: product.code,
      price: formatRupiah(product.price),
    });
    const text = data.recent.length > 0 ? `${ask}\n${t('buy-picker-recent')}` : ask;
    return {
      text,
      keyboard: createPickerKeyboard(t, stamp, { labels: data.recent, perRow: 1, perPage: data.recent.length + 1, page: 0, back }),
    };
  }
  const categories = data.step === 'category' ? data.categories : [];
  if (categories.length === 0)
    return { text: t('buy-picker-empty'), keyboard: createPickerKeyboard(t, stamp, { labels: [], perRow: 1, perPage: 1, page: 0, back }) };
  const labels = categories.map((c) => t('buy-picker-button-category', { label: raw(categoryLabel(t, c.category)), count: c.count }));
  const page = view.step === 'category' ? view.page : 0;
  const text = [t('buy-picker-categories'), ...pageLine(t, page, labels.length, categoriesPerPage)].join('\n');
  return { text, keyboard: createPickerKeyboard(t, stamp, { labels, perRow: 2, perPage: categoriesPerPage, page, back }) };
}
