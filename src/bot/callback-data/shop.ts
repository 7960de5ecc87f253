import { createCallbackData } from 'callback-data';

/**
 * Buttons of the /toko conversation: a field to change (`name`, `address`, `footer`, `target`),
 * `delete`, `done`; while asking: `skip`, `clear`, `cancel`; the target style `full` or `masked`.
 */
export const shopData = createCallbackData('shop', { action: String });
