import { createCallbackData } from 'callback-data';
import { isOneOf, readData } from './read.ts';

/**
 * Buttons of the /beli picker (category → brand → product → target). `flow` names the picker
 * (derived from the update that started it) and `view` the one rendering of a step the button
 * belongs to, so a button from an earlier step or an earlier flow is recognised as outdated.
 * `action`: `pick` item number `n` of the step, `page` go to page `n`, `back`, `cancel`.
 */
export const buyPickerData = createCallbackData('bp', { flow: String, view: Number, action: String, n: Number });

const actions = ['pick', 'page', 'back', 'cancel'] as const;
export type BuyPickerAction = (typeof actions)[number];

/** True for the data of any picker button, current or outdated. */
export function isBuyPickerData(data: string | undefined): boolean {
  return data !== undefined && buyPickerData.filter().test(data);
}

/** A picker button's fields, or undefined for malformed data (treated as outdated). */
export const readBuyPickerData = (data: string | undefined) =>
  readData(buyPickerData, data, ({ flow, view, action, n }) =>
    isOneOf(actions, action) && Number.isSafeInteger(view) && Number.isSafeInteger(n) && n >= 0 ? { flow, view, action, n } : undefined,
  );
