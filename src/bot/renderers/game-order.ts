/** Pure renderers of the game order flow (HTML): summary, created order, payment reminder, failed steps. */
import type { TranslateFunction } from '@grammyjs/i18n';
import { escapeHtml, formatRupiah, formatWibIn } from '../../text/format.ts';
import { describeProviderError } from '../provider-errors.ts';
import { isButtonUrl } from '../keyboards/rows.ts';
import type { OutboxPayload } from '../../notify/payload.ts';
import type { GameOrderRecord } from '../../store/records/game-orders.ts';
import type {
  CreatedGameOrder,
  GameInfo,
  GameOrderDraft,
  GameOrderFailure,
  OrderMethod,
  OrderProduct,
} from '../../services/game-orders.ts';
import { raw } from '../../text/html.ts';
import { readQris, type QrisInfo } from '../../text/qris.ts';

/** API field names in the order the questions are asked (for re-asking after a 422). */
export const orderFields = [
  'game',
  'product_id',
  'payment_method_id',
  'id',
  'server',
  'whatsapp',
  'nickname',
  'email',
  'promo_code',
  'quantity',
] as const;
export type OrderField = (typeof orderFields)[number];
export const isOrderField = (field: string): field is OrderField => (orderFields as readonly string[]).includes(field);

export function productText(product: OrderProduct): string {
  return product.name === undefined ? `ID ${product.id}` : `${product.name} (ID ${product.id})`;
}

function methodText(method: OrderMethod): string {
  return method.name === undefined ? `ID ${method.id}` : `${method.name} (ID ${method.id})`;
}

/** The field's name as the user knows it (the game's own label for the player id and server). */
export function fieldLabel(t: TranslateFunction, field: string, info: GameInfo): string {
  if (field === 'id') return info.idLabel ?? t('order-field-id');
  if (field === 'server' && info.server.kind === 'required') return info.server.label;
  return isOrderField(field) ? t(`order-field-${field.replace(/_/g, '-')}`) : field;
}

/** The order summary shown before confirming. */
export function renderOrderSummary(t: TranslateFunction, info: GameInfo, draft: GameOrderDraft): string {
  const none = raw(t('order-summary-none'));
  const serverLabel = info.server.kind === 'required' ? info.server.label : t('order-field-server');
  const lines = [
    t('order-summary-title'),
    '',
    t('order-summary-game', { game: info.title }),
    t('order-summary-product', { product: draft.product ? productText(draft.product) : none }),
    t('order-summary-quantity', { quantity: draft.quantity }),
    t('order-summary-method', { method: draft.method ? methodText(draft.method) : none }),
    t('order-summary-player', { label: info.idLabel ?? t('order-field-id'), value: draft.playerId ?? '' }),
  ];
  if (draft.server !== undefined) lines.push(t('order-summary-server', { label: serverLabel, value: draft.server }));
  lines.push(
    t('order-summary-whatsapp', { value: draft.whatsapp ?? '' }),
    t('order-summary-nickname', { value: draft.nickname === undefined ? none : draft.nickname }),
    t('order-summary-email', { value: draft.email === undefined ? none : draft.email }),
    t('order-summary-promo', { value: draft.promo === undefined ? none : raw(`<code>${escapeHtml(draft.promo)}</code>`) }),
  );
  if (draft.product?.price !== undefined) {
    lines.push('', t('order-summary-estimate', { amount: formatRupiah(draft.product.price * draft.quantity) }));
  }
  lines.push('', t('order-summary-question'));
  return lines.join('\n');
}

/** A payment status in the reader's language (`UNPAID` → "Belum dibayar", any case); an unknown one as the shop wrote it. */
export function paymentStatusText(t: TranslateFunction, status: string): string {
  return t('order-payment-status', { status: status.trim().toUpperCase(), word: status });
}

/** How an order's payment code is shown: a QRIS payload as a QR picture (never as text), any other code as text to copy. */
export type PaymentCode = { kind: 'qris'; payload: string; info: QrisInfo } | { kind: 'code'; code: string };

export function paymentCodeOf(order: { paymentCode?: string | undefined }): PaymentCode | undefined {
  const code = order.paymentCode?.trim() ?? '';
  if (code === '') return undefined;
  const info = readQris(code);
  return info ? { kind: 'qris', payload: code, info } : { kind: 'code', code };
}

/** The caption of the QR picture of a QRIS order (HTML). */
export function renderQrCaption(t: TranslateFunction, order: CreatedGameOrder, info: QrisInfo): string {
  const caption = t('order-qr-caption', { orderId: order.orderId, total: formatRupiah(order.totalPrice) });
  return info.merchant === undefined ? caption : `${caption}\n${t('order-qr-merchant', { merchant: info.merchant })}`;
}

/** The created order with its payment details and price breakdown. */
export function renderCreatedOrder(t: TranslateFunction, info: GameInfo, draft: GameOrderDraft, order: CreatedGameOrder): string {
  const lines = [
    order.replayed ? t('order-created-already') : t('order-created-title'),
    '',
    t('order-created-id', { orderId: order.orderId }),
    t('order-created-item', {
      game: info.title,
      product: draft.product?.name ?? `ID ${draft.product?.id ?? '?'}`,
      quantity: order.quantity,
    }),
  ];
  if (draft.method) lines.push(t('order-created-method', { method: draft.method.name ?? `ID ${draft.method.id}` }));
  lines.push(t('order-created-status', { status: raw(paymentStatusText(t, order.paymentStatus)) }));
  const pricing = order.pricing;
  if (pricing) {
    lines.push(
      '',
      t('order-price-title'),
      t('order-price-unit', {
        unit: formatRupiah(pricing.unit_price_before_promo),
        quantity: pricing.quantity,
        subtotal: formatRupiah(pricing.subtotal_before_promo),
      }),
    );
    if (pricing.has_promo || pricing.promo_discount > 0) {
      lines.push(t('order-price-promo', { code: pricing.promo_code || draft.promo || '-', amount: formatRupiah(pricing.promo_discount) }));
    }
    lines.push(
      t('order-price-fee', { amount: formatRupiah(pricing.payment_fee) }),
      t('order-price-unique', { amount: formatRupiah(pricing.unique_code) }),
    );
  }
  lines.push(t('order-price-total', { amount: formatRupiah(order.totalPrice) }), '');
  const code = paymentCodeOf(order);
  if (code?.kind === 'qris') lines.push(t('order-created-qris'));
  if (code?.kind === 'code') lines.push(t('order-created-code', { code: code.code }));
  lines.push(t('order-created-expires', { at: formatWibIn(t, order.expiredAt) }));
  if (order.reminder === 'queued') lines.push(t('order-created-reminder'));
  if (order.reminder === 'late') lines.push(t('order-created-no-reminder'));
  if (!order.saved) lines.push('', t('order-created-not-saved'));
  return lines.join('\n');
}

/** The payment reminder of a stored order, sent ten minutes before it expires (with a Pay button). */
export function renderOrderReminder(t: TranslateFunction, order: GameOrderRecord): OutboxPayload {
  const pay = isButtonUrl(order.paymentUrl) ? [[{ text: t('order-button-pay'), url: order.paymentUrl }]] : undefined;
  const item = `${order.gameTitle ?? order.game} — ${order.productName ?? `ID ${order.productId}`} × ${order.quantity}`;
  return {
    type: 'send',
    text: t('order-reminder', {
      orderId: order.orderId,
      item: item,
      at: formatWibIn(t, order.expiredAt),
      total: formatRupiah(order.totalPrice),
    }),
    parseMode: 'HTML',
    ...(pay ? { replyMarkup: { inline_keyboard: pay } } : {}),
  };
}

/** What went wrong, in the provider-error wording (HTML). */
export function describeOrderFailure(t: TranslateFunction, error: GameOrderFailure, publicIp: string | undefined): string {
  if (error.kind === 'not_connected') return t('error-not-connected', { service: t('service-gameshop') });
  return describeProviderError(t, error, publicIp);
}

/** A 422 field by field, and whether the flow can ask for any of the refused fields again. */
export function renderRefusedFields(
  t: TranslateFunction,
  info: GameInfo,
  fields: Record<string, string[]>,
  providerMessage: string | undefined,
): { text: string; fixable: boolean } {
  const lines = Object.entries(fields).map(
    ([field, messages]) => `• <b>${escapeHtml(fieldLabel(t, field, info))}</b>: ${escapeHtml(messages.join(' '))}`,
  );
  if (lines.length === 0 && providerMessage) lines.push(`• ${escapeHtml(providerMessage)}`);
  const fixable = orderFields.some((field) => field in fields);
  return {
    text: [t('order-fields-refused'), ...lines, '', t(fixable ? 'order-fields-ask-again' : 'order-fields-cannot-fix')].join('\n'),
    fixable,
  };
}
