import { createCallbackData } from 'callback-data';

/** A period of /report to show. */
export const reportPeriodData = createCallbackData('rp', { period: String });
/** The chart of a report: its WIB days `from`..`to` (`YYYY-MM-DD`). */
export const reportChartData = createCallbackData('rc', { from: String, to: String });
