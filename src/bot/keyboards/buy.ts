import { InlineKeyboard } from 'grammy';
import type { TranslateFunction } from '@grammyjs/i18n';
import { buyData } from '../callback-data/buy.ts';

/** Confirm / Cancel under a purchase summary. */
export function createBuySummaryKeyboard(t: TranslateFunction, confirmationId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('buy-button-confirm'), buyData.pack({ action: 'ok', id: confirmationId }))
    .text(t('buy-button-cancel'), buyData.pack({ action: 'no', id: confirmationId }));
}

/** "Yes, buy again" / Cancel under the warning about a repeat within a minute. */
export function createBuyAgainKeyboard(t: TranslateFunction, confirmationId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(t('buy-button-again'), buyData.pack({ action: 'again', id: confirmationId }))
    .text(t('buy-button-cancel'), buyData.pack({ action: 'no', id: confirmationId }));
}

/** Cancel under the PIN question of a purchase. */
export function createBuyCancelKeyboard(t: TranslateFunction, confirmationId: string): InlineKeyboard {
  return new InlineKeyboard().text(t('buy-button-cancel'), buyData.pack({ action: 'no', id: confirmationId }));
}
