/**
 * Helpers of the price-list tests: what a price-list message offers to tap.
 */
import type { EmulatedMessage } from '../../tools/playground/bot-api.ts';

/** Product buttons of a price-list message: `CODE · Rp …` (available) or `⛔ CODE · status`. */
export function productButtons(message: EmulatedMessage): string[] {
  return message.buttons.flat().filter((text) => /· Rp /.test(text) || text.startsWith('⛔'));
}

/** The product codes of a price-list message, in the order shown. */
export function codesShown(message: EmulatedMessage): string[] {
  return productButtons(message).map((text) => text.replace(/^⛔ /, '').split(' · ')[0] ?? '');
}
