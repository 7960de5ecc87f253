import { createCallbackData } from 'callback-data';

/** A page of the seller's /items list (0-based). */
export const marketplaceItemsPageData = createCallbackData('mkp', { page: Number });

/** One item of the /items list, by its marketplace id: opens its details. */
export const marketplaceItemData = createCallbackData('mki', { id: Number });
