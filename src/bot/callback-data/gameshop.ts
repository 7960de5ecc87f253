import { createCallbackData } from 'callback-data';

/** Telegram's limit on callback data, in bytes. */
const maxCallbackBytes = 64;

/**
 * Buttons of /games: `game` orders the game with slug `value` (`gid`: by game id, for a slug too
 * long to fit), `cat` opens category `value`, `home` goes back to the overview (`value` `-`).
 */
export const gamesData = createCallbackData('gs', { action: String, value: String });

export type GamesAction = 'game' | 'gid' | 'cat' | 'home';

/** A page of /orders (0-based). */
export const ordersPageData = createCallbackData('gso', { page: Number });

/**
 * A choice inside the order conversation: `flow` is minted when the conversation starts, `step`
 * numbers the question the buttons belong to, `value` is the choice (an index, an id, `skip`).
 * A tap is only taken by the question that showed it; older ones are answered as expired.
 */
export const orderStepData = createCallbackData('go', { flow: String, step: Number, value: String });

/**
 * Buttons tied to one order confirmation (`id`, minted before they are shown): `ok` creates the
 * order, `nopromo` creates it without the refused promo code, `promo` asks for another code,
 * `no` cancels. After the conversation, a tap is answered from the stored order, never re-ordered.
 */
export const orderConfirmData = createCallbackData('goc', { action: String, id: String });

export type OrderConfirmAction = 'ok' | 'nopromo' | 'promo' | 'no';

/** Packs `build()`, or undefined when it would not fit Telegram's 64 bytes or has a `:` in a value. */
export function packIfFits(build: () => string): string | undefined {
  try {
    const data = build();
    return Buffer.byteLength(data, 'utf8') <= maxCallbackBytes ? data : undefined;
  } catch {
    return undefined;
  }
}

/** The action and value of a /games button, or undefined for malformed data. */
export function readGamesData(data: string | undefined): { action: GamesAction; value: string } | undefined {
  if (data === undefined || !gamesData.filter().test(data)) return undefined;
  try {
    const { action, value } = gamesData.unpack(data);
    if ((action === 'game' || action === 'gid' || action === 'cat' || action === 'home') && value !== '') return { action, value };
  } catch {
    // Malformed or forged data: treated as a stale button.
  }
  return undefined;
}

/** The page of an /orders button, or undefined for malformed data. */
export function readOrdersPage(data: string | undefined): number | undefined {
  if (data === undefined || !ordersPageData.filter().test(data)) return undefined;
  try {
    const { page } = ordersPageData.unpack(data);
    return Number.isSafeInteger(page) && page >= 0 && page <= 10_000 ? page : undefined;
  } catch {
    return undefined;
  }
}

/** The parts of an order-step button, or undefined for malformed data. */
export function readOrderStepData(data: string | undefined): { flow: string; step: number; value: string } | undefined {
  if (data === undefined || !orderStepData.filter().test(data)) return undefined;
  try {
    const { flow, step, value } = orderStepData.unpack(data);
    if (flow !== '' && Number.isSafeInteger(step) && value !== '') return { flow, step, value };
  } catch {
    // Malformed or forged data.
  }
  return undefined;
}

/** The action and confirmation id of an order confirmation button, or undefined for malformed data. */
export function readOrderConfirmData(data: string | undefined): { action: OrderConfirmAction; id: string } | undefined {
  if (data === undefined || !orderConfirmData.filter().test(data)) return undefined;
  try {
    const { action, id } = orderConfirmData.unpack(data);
    if ((action === 'ok' || action === 'nopromo' || action === 'promo' || action === 'no') && id !== '') return { action, id };
  } catch {
    // Malformed or forged data.
  }
  return undefined;
}
