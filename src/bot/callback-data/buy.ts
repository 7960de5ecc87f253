import { createCallbackData } from 'callback-data';
import { isOneOf, readData } from './read.ts';

/**
 * Buttons of a purchase summary. `id` is the confirmation id minted (and persisted with the
 * conversation) before the summary is shown, so a tap is tied to exactly one summary:
 * `ok` confirms, `again` confirms a repeat of a purchase made less than a minute ago, `no` cancels.
 */
export const buyData = createCallbackData('buy', { action: String, id: String });

const buyActions = ['ok', 'again', 'no'] as const;
export type BuyAction = (typeof buyActions)[number];

/** The action and confirmation id of a buy button, or undefined for malformed data. */
export const readBuyData = (data: string | undefined) =>
  readData(buyData, data, ({ action, id }) => (isOneOf(buyActions, action) && id !== '' ? { action, id } : undefined));
