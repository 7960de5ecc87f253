import { createCallbackData } from 'callback-data';

/** The /jual screen's buttons: `default`, `brand` or `product` (each starts the sell conversation). */
export const sellMenuData = createCallbackData('sell', { action: String });

/** Buttons of the sell conversation: a rounding step (`1`, `100`, `500`, `1000`) or `cancel`. */
export const sellStepData = createCallbackData('sellstep', { step: String });
