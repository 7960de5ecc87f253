import { createCallbackData } from 'callback-data';

/** A page of the sender's transaction history (0-based). */
export const historyPageData = createCallbackData('hp', { page: Number });

/** One transaction's receipt, remembering the page to go back to. */
export const historyDetailData = createCallbackData('hd', { page: Number, ref: String });
