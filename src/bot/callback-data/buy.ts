import { createCallbackData } from 'callback-data';

/**
 * Buttons of a purchase summary. `id` is the confirmation id minted (and persisted with the
 * conversation) before the summary is shown, so a tap is tied to exactly one summary:
 * `ok` confirms, `again` confirms a repeat of a purchase made less than a minute ago, `no` cancels.
 */
export const buyData = createCallbackData('buy', { action: String, id: String });

export type BuyAction = 'ok' | 'again' | 'no';

/** The action and confirmation id of a buy button, or undefined for malformed data. */
export function readBuyData(data: string | undefined): { action: BuyAction; id: string } | undefined {
  if (data === undefined || !buyData.filter().test(data)) return undefined;
  try {
    const { action, id } = buyData.unpack(data);
    if ((action === 'ok' || action === 'again' || action === 'no') && id !== '') return { action, id };
  } catch {
    // Malformed or forged data: treated as a stale button.
  }
  return undefined;
}
