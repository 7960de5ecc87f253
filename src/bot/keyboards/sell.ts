import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { sellMenuData, sellStepData } from '../callback-data/sell.ts';
import { roundingSteps } from '../../services/pricing.ts';
import { formatRupiah } from '../../text/format.ts';
import { raw } from '../../text/html.ts';

/** Under the /jual screen: set the default, a brand override, a product override. */
export function createSellMenuKeyboard(t: TranslateFunction): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('sell-button-default'), sellMenuData.pack({ action: 'default' }))
    .row()
    .text(t('sell-button-brand'), sellMenuData.pack({ action: 'brand' }))
    .text(t('sell-button-product'), sellMenuData.pack({ action: 'product' }));
}

/** The rounding steps (1 = none, Rp 100, Rp 500, Rp 1.000) and Cancel. */
export function createSellStepKeyboard(t: TranslateFunction): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const step of roundingSteps) {
    const label = step === 1 ? t('sell-button-step-none') : t('sell-button-step', { step: raw(formatRupiah(step)) });
    keyboard.text(label, sellStepData.pack({ step: String(step) }));
  }
  return keyboard.row().text(t('sell-button-cancel'), sellStepData.pack({ step: 'cancel' }));
}

/** Cancel, under a question that waits for typed rules. */
export function createSellCancelKeyboard(t: TranslateFunction): InlineKeyboard {
  return new InlineKeyboard().text(t('sell-button-cancel'), sellStepData.pack({ step: 'cancel' }));
}
