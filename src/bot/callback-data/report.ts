import { createCallbackData } from 'callback-data';

/** A period of /report to show. */
export const reportPeriodData = createCallbackData('rp', { period: String });
