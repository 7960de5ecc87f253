import { createCallbackData } from 'callback-data';

/**
 * A price-list view: `kind` `b` brands (page of brands), `p` products of brand number `brand`
 * (its index in the brand list), `s` search results for `query`. `fresh` forces a new fetch
 * (the refresh button). Brands go by index because their names may be long.
 */
export const priceViewData = createCallbackData('pv', { kind: String, brand: Number, page: Number, query: String, fresh: Boolean });

/** A product button: its code, or `#<index in the price list>` when the code does not fit. */
export const priceProductData = createCallbackData('pbuy', { code: String });

/** The search button: asks for the words to search the price list for. */
export const priceSearchData = createCallbackData('psearch', {});
