import { createCallbackData } from 'callback-data';
import { isOneOf, readData } from './read.ts';

/**
 * Buttons of /games: `game` orders the game with slug `value` (`gid`: by game id, for a slug too
 * long to fit), `cat` opens category `value`, `home` goes back to the overview (`value` `-`).
 */
export const gamesData = createCallbackData('gs', { action: String, value: String });

const gamesActions = ['game', 'gid', 'cat', 'home'] as const;
export type GamesAction = (typeof gamesActions)[number];

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

const orderConfirmActions = ['ok', 'nopromo', 'promo', 'no'] as const;
export type OrderConfirmAction = (typeof orderConfirmActions)[number];

/** The action and value of a /games button's fields, or undefined for malformed data. */
export const readGamesData = ({ action, value }: { action: string; value: string }) =>
  isOneOf(gamesActions, action) && value !== '' ? { action, value } : undefined;

/** The page of an /orders button's fields, or undefined for malformed data. */
export const readOrdersPage = ({ page }: { page: number }) =>
  Number.isSafeInteger(page) && page >= 0 && page <= 10_000 ? page : undefined;

/** The parts of an order-step button, or undefined for malformed data. */
export const readOrderStepData = (data: string | undefined) =>
  readData(orderStepData, data, (fields) =>
    fields.flow !== '' && Number.isSafeInteger(fields.step) && fields.value !== '' ? fields : undefined,
  );

/** The action and confirmation id of an order confirmation button, or undefined for malformed data. */
export const readOrderConfirmData = (data: string | undefined) =>
  readData(orderConfirmData, data, ({ action, id }) => (isOneOf(orderConfirmActions, action) && id !== '' ? { action, id } : undefined));
