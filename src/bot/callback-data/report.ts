import { createCallbackData } from 'callback-data';

/** A period of /report to show. */
export const reportPeriodData = createCallbackData('rp', { period: String });
/** The chart of a report: its WIB days `from`..`to` (`YYYY-MM-DD`). */
export const reportChartData = createCallbackData('rc', { from: String, to: String });
/** The daily summary: `menu` (show the hours), `off`, or the WIB hour `0`..`23` to send it at. */
export const summaryData = createCallbackData('sm', { hour: String });
/** An upline's report of their downlines' purchases of a period: `who` is `all` or one downline's user id. */
export const reportDownlineData = createCallbackData('rd', { who: String, period: String });
