import { createCallbackData } from 'callback-data';

/**
 * Buttons of the /beli picker (category → brand → product → target). `flow` names the picker
 * (derived from the update that started it) and `view` the one rendering of a step the button
 * belongs to, so a button from an earlier step or an earlier flow is recognised as outdated.
 * `action`: `pick` item number `n` of the step, `page` go to page `n`, `back`, `cancel`.
 */
export const buyPickerData = createCallbackData('bp', { flow: String, view: Number, action: String, n: Number });

export type BuyPickerAction = 'pick' | 'page' | 'back' | 'cancel';

export interface BuyPickerButton {
  flow: string;
  view: number;
  action: BuyPickerAction;
  n: number;
}

const actions: readonly string[] = ['pick', 'page', 'back', 'cancel'] satisfies BuyPickerAction[];

/** True for the data of any picker button, current or outdated. */
export function isBuyPickerData(data: string | undefined): boolean {
  return data !== undefined && buyPickerData.filter().test(data);
}

/** A picker button's fields, or undefined for malformed data. */
export function readBuyPickerData(data: string | undefined): BuyPickerButton | undefined {
  if (!isBuyPickerData(data)) return undefined;
  try {
    const { flow, view, action, n } = buyPickerData.unpack(data as string);
    if (actions.includes(action) && Number.isSafeInteger(view) && Number.isSafeInteger(n) && n >= 0) {
      return { flow, view, action: action as BuyPickerAction, n };
    }
  } catch {
    // Malformed or forged data: treated as outdated.
  }
  return undefined;
}
