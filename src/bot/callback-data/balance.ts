import { createCallbackData } from 'callback-data';

/** The refresh button under a /balance answer. */
export const balanceRefreshData = createCallbackData('balance', { action: String });
