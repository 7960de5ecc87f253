import { createCallbackData } from 'callback-data';

/** Check one transaction of the sender's with the provider and show its receipt. */
export const statusCheckData = createCallbackData('st', { ref: String });

/** Back to the list of the sender's Pending transactions. */
export const statusListData = createCallbackData('stl', {});
