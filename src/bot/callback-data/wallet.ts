import { createCallbackData } from 'callback-data';

/**
 * Buttons of the wallet: `dep` (id: the amount to deposit, or `-` for the amount buttons), `mut`
 * (id: the statement page, 0 the newest, shown as a new message), `pg` (the same, in place).
 */
export const walletData = createCallbackData('wl', { action: String, id: String });

/** ✅ Terima (`ok`) / ❌ Tolak (`no`) under a deposit request the upline got. */
export const depositDecisionData = createCallbackData('wldep', { action: String, request: String });
