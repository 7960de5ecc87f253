import { createCallbackData } from 'callback-data';

/**
 * Buttons of the /pantau screen: `on`, `off`, `all` (every brand), `group` (toggle the group
 * copy), `brand` with `brand` the brand to toggle (lower case).
 */
export const watchData = createCallbackData('watch', { action: String, brand: String });
