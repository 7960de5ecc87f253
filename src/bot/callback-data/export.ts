import { createCallbackData } from 'callback-data';

/** A period of /export to send, with the separator chosen (`c` comma, `s` semicolon). */
export const exportPeriodData = createCallbackData('xp', { period: String, sep: String });

/** Switches the separator of the /export menu in place. */
export const exportSeparatorData = createCallbackData('xs', { sep: String });

/**
 * An upline's CSV of their downlines' purchases: `who` is `all` or one downline's user id, `sep`
 * the separator (`c`/`s`); `period` a period to send, or `-` to switch the menu's separator in place.
 */
export const exportDownlineData = createCallbackData('xd', { who: String, period: String, sep: String });
