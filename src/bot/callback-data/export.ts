import { createCallbackData } from 'callback-data';

/** A period of /export to send, with the separator chosen (`c` comma, `s` semicolon). */
export const exportPeriodData = createCallbackData('xp', { period: String, sep: String });

/** Switches the separator of the /export menu in place. */
export const exportSeparatorData = createCallbackData('xs', { sep: String });
