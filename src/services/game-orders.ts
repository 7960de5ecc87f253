/**
 * Game shop orders (document 3): the games a user can order, what an order for a game asks (from
 * the operator catalogue), creating an order once per confirmation — stored together with its
 * payment reminder — and reading the stored orders back. The bot's order conversation and /orders
 * use it; it knows nothing of Telegram.
 *
 * Every result is plain JSON (provider errors as `ProviderErrorJson`), so the conversation can keep
 * it in its replayed state as it is.
 */
import type { Db } from '../store/db.ts';
import type { Logger } from '../logger.ts';
import type { GameOrderRecord } from '../store/records/game-orders.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { OutboxPayload } from '../notify/payload.ts';
import type { CredentialService } from './credentials.ts';
import type { GameOrder, OrderInput, Pricing } from '../providers/gameshop/schemas.ts';
import { GameshopError } from '../providers/gameshop/client.ts';
import { providerErrorToJson, type ProviderErrorJson } from '../providers/provider-error-json.ts';
import { createGameCatalogueLoader, findCatalogueGame, type GameCatalogueState } from './game-catalogue.ts';

/** The payment reminder goes out this long before `expired_at`. */
export const reminderLeadMs = 10 * 60_000;
/** Outbox `kind` of the payment reminder. */
export const orderReminderKind = 'gameshop-reminder';
/** Outbox dedupe key of an order's payment reminder: queued at most once per order. */
export const orderReminderKey = (orderId: string): string => `order-reminder:${orderId}`;

/** Confirmations remembered in memory (a second guard beside the stored orders). */
const rememberedConfirmations = 1000;
/** How many of a user's newest orders are searched for a confirmation id. */
const confirmationSearchDepth = 500;

/** A game the shop lists as active. */
export interface ListedGame {
  slug: string;
  title: string;
  /** Among the shop's popular games. */
  popular: boolean;
  /** The category's title ('' when the shop gave none). */
  category: string;
}

/** Why a game shop step failed: the shop's error as JSON, or no game shop key stored. */
export type GameOrderFailure = ProviderErrorJson | { kind: 'not_connected' };

export type GamesOutcome = { ok: true; games: ListedGame[] } | { ok: false; error: GameOrderFailure };

/** Whether an order for the game carries `server`: known from the catalogue, or unknown (then optional). */
export type ServerRule = { kind: 'none' } | { kind: 'unknown' } | { kind: 'required'; label: string; servers?: string[] };

export interface OrderProduct {
  id: number;
  name?: string;
  /** Unit price from the catalogue (display only: the shop prices the order). */
  price?: number;
}

export interface OrderMethod {
  id: number;
  name?: string;
}

/** What an order for one game asks: from the shop's list and, when it has one, the operator catalogue. */
export interface GameInfo {
  slug: string;
  title: string;
  catalogue: 'ok' | 'none' | 'invalid';
  /** True when the catalogue lists the game (then `products` is set). */
  catalogued: boolean;
  /** What the game calls the player id. */
  idLabel?: string;
  server: ServerRule;
  products?: OrderProduct[];
  methods?: OrderMethod[];
  /** The details of the user's last order of the game, to offer again (only when asked for a user). */
  last?: LastOrderDetails;
}

/** What the user's last order of a game was for; WhatsApp from their last order of any game when that one had none. */
export interface LastOrderDetails {
  playerId?: string;
  server?: string;
  whatsapp?: string;
}

/** The user's answers. */
export interface GameOrderDraft {
  product?: OrderProduct;
  method?: OrderMethod;
  playerId?: string;
  server?: string;
  whatsapp?: string;
  nickname?: string;
  email?: string;
  promo?: string;
  quantity: number;
}

export interface CreateGameOrderRequest {
  /** Minted before the summary was shown: one confirmation creates at most one order. */
  confirmationId: string;
  userId: number;
  /** Where the reminder goes. */
  chatId: number;
  game: { slug: string; title: string };
  draft: GameOrderDraft;
  /** The reminder message for the stored order, in the user's language (the caller renders it). */
  renderReminder: (order: GameOrderRecord) => OutboxPayload;
}

/** A created order, as the user is shown it. */
export interface CreatedGameOrder {
  orderId: string;
  paymentStatus: string;
  buyStatus?: string;
  paymentUrl?: string;
  paymentCode?: string;
  qrUrl?: string | null;
  expiredAt: string;
  quantity: number;
  totalPrice: number;
  pricing?: Pricing;
  /** `queued`: reminder in the outbox; `late`: expiry under ten minutes away, no reminder; `none`: not stored or replayed. */
  reminder: 'queued' | 'late' | 'none';
  /** False when the order exists at the shop but could not be stored here. */
  saved: boolean;
  /** True when this confirmation had already created the order (nothing new was ordered). */
  replayed?: boolean;
}

export type CreateGameOrderOutcome = { ok: true; order: CreatedGameOrder } | { ok: false; error: GameOrderFailure };

export interface GameOrderService {
  /**
   * The games the user's shop lists as active, with the popular ones flagged. A provider error is
   * returned as JSON; without a stored game shop key, `not_connected`. Any other error is thrown.
   */
  games(userId: number): Promise<GamesOutcome>;
  /**
   * What an order for `game` asks, from the operator catalogue (GAMESHOP_CATALOGUE, loaded once):
   * its products, the payment methods, the player-id label and the server rule. Without a usable
   * catalogue, or when it does not list the game, no products (the flow asks for numeric ids).
   * With `userId`, also what the user's last stored order of the game was for (`last`), so a
   * repeat order can offer it.
   */
  gameInfo(game: { slug: string; title: string }, userId?: number): Promise<GameInfo>;
  /**
   * Creates the order of one confirmation at the shop, at most once: a confirmation whose order is
   * stored (or in progress in this process) gives that order again (`replayed`), never a second one.
   * The order is stored together with its payment reminder (an outbox item due ten minutes before
   * `expired_at`, dedupe key `order-reminder:<orderId>`) in one write; no reminder when it expires
   * sooner. Never retried: a timeout, network error or 5xx is `unknown_outcome`. Failures are
   * returned, never thrown.
   */
  create(request: CreateGameOrderRequest): Promise<CreateGameOrderOutcome>;
  /** The order created by `confirmationId`, among the user's own orders only. */
  findByConfirmation(userId: number, confirmationId: string): Promise<GameOrderRecord | undefined>;
  /**
   * A page (0-based) of the user's orders, newest first; a page past the end gives the first page.
   * `hasNext` tells whether a further page exists.
   */
  ordersPage(userId: number, page: number, pageSize: number): Promise<{ page: number; orders: GameOrderRecord[]; hasNext: boolean }>;
}

export interface GameOrderServiceDeps {
  db: Db;
  credentials: CredentialService;
  logger: Logger;
  now: () => Date;
  /** Path of the operator's catalogue file (GAMESHOP_CATALOGUE), if any. */
  gameshopCataloguePath: string | undefined;
}

/** The shop's order body for a draft (product and method are checked by the caller; unset fields are not sent). */
function orderInput(slug: string, draft: GameOrderDraft, productId: number, methodId: number): OrderInput {
  const { playerId, whatsapp, quantity, server, nickname, email, promo } = draft;
  return {
    id: playerId ?? '',
    game: slug,
    product_id: productId,
    payment_method_id: methodId,
    whatsapp: whatsapp ?? '',
    quantity,
    server,
    nickname,
    email,
    promo_code: promo,
  };
}

/** The order as the shop reported it on creation: what is both stored and shown to the user. */
function shopState(
  order: GameOrder,
): Pick<
  GameOrderRecord & CreatedGameOrder,
  'quantity' | 'totalPrice' | 'paymentStatus' | 'buyStatus' | 'paymentUrl' | 'paymentCode' | 'qrUrl' | 'expiredAt'
> {
  return {
    quantity: order.quantity,
    totalPrice: order.total_price,
    paymentStatus: order.payment_status,
    buyStatus: order.buy_status,
    paymentUrl: order.payment_url,
    paymentCode: order.payment_code,
    qrUrl: order.qr_url,
    expiredAt: order.expired_at,
  };
}

/** A stored order shown again: what the record holds, marked as replayed. */
function replayedOrder(stored: GameOrderRecord): CreatedGameOrder {
  const { orderId, paymentStatus, expiredAt, quantity, totalPrice, paymentUrl, paymentCode, qrUrl } = stored;
  return {
    orderId,
    paymentStatus,
    expiredAt,
    quantity,
    totalPrice,
    paymentUrl,
    paymentCode,
    qrUrl,
    reminder: 'none',
    saved: true,
    replayed: true,
  };
}

/** The order created by `confirmationId`, among the user's newest orders. */
async function findStoredConfirmation(db: Db, userId: number, confirmationId: string): Promise<GameOrderRecord | undefined> {
  return (await db.gameOrders.listByUser(userId, { limit: confirmationSearchDepth })).find(
    (order) => order.confirmationId === confirmationId,
  );
}

/** What the user's newest stored order of `slug` was for (see `LastOrderDetails`); undefined when nothing is known. */
async function lastDetails(db: Db, userId: number, slug: string): Promise<LastOrderDetails | undefined> {
  const orders = await db.gameOrders.listByUser(userId, { limit: confirmationSearchDepth });
  const same = orders.find((order) => order.game === slug && order.playerId !== undefined);
  const whatsapp = same?.whatsapp ?? orders.find((order) => order.whatsapp !== undefined)?.whatsapp;
  const last: LastOrderDetails = {};
  if (same?.playerId !== undefined) last.playerId = same.playerId;
  if (same?.server !== undefined) last.server = same.server;
  if (whatsapp !== undefined) last.whatsapp = whatsapp;
  return Object.keys(last).length > 0 ? last : undefined;
}

/** The record stored for an order the shop created (product and method are known to be chosen). */
function orderRecord(
  request: CreateGameOrderRequest,
  created: { orderId: string; order: GameOrder },
  choice: { product: OrderProduct; method: OrderMethod },
  now: Date,
): GameOrderRecord {
  const { confirmationId, userId, chatId, game, draft } = request;
  const { product, method } = choice;
  const record: GameOrderRecord = {
    orderId: created.orderId,
    userId,
    chatId,
    game: game.slug,
    gameTitle: game.title,
    productId: product.id,
    paymentMethodId: method.id,
    ...shopState(created.order),
    createdAt: now.toISOString(),
    confirmationId,
  };
  if (product.name !== undefined) record.productName = product.name;
  if (method.name !== undefined) record.paymentName = method.name;
  if (draft.playerId !== undefined) record.playerId = draft.playerId;
  if (draft.server !== undefined) record.server = draft.server;
  if (draft.whatsapp !== undefined) record.whatsapp = draft.whatsapp;
  return record;
}

/** The order's payment reminder, or none when the order expires within `reminderLeadMs`. */
function reminderItems(request: CreateGameOrderRequest, record: GameOrderRecord, expiredAt: string, now: Date): NewOutboxItem[] {
  // A reminder moments before the deadline would only repeat what the order message says.
  const remindAt = Date.parse(expiredAt) - reminderLeadMs;
  return remindAt > now.getTime()
    ? [
        {
          chatId: request.chatId,
          kind: orderReminderKind,
          payload: request.renderReminder(record),
          notBefore: new Date(remindAt).toISOString(),
          dedupeKey: orderReminderKey(record.orderId),
        },
      ]
    : [];
}

/** Creates the order of one confirmation at the shop and stores it with its reminder (see `GameOrderService.create`). */
async function createOrder(deps: GameOrderServiceDeps, request: CreateGameOrderRequest): Promise<CreateGameOrderOutcome> {
  const { db, credentials, logger } = deps;
  const { confirmationId, userId, game, draft } = request;
  const stored = await findStoredConfirmation(db, userId, confirmationId);
  if (stored) return { ok: true, order: replayedOrder(stored) };
  const client = await credentials.client(userId, 'gameshop');
  if (!client) return { ok: false, error: { kind: 'not_connected' } };
  const { product, method } = draft;
  if (!product || !method) return { ok: false, error: { service: 'gameshop', kind: 'validation', endpoint: '/order', fieldErrors: {} } };

  let created;
  try {
    created = await client.createOrder(orderInput(game.slug, draft, product.id, method.id));
  } catch (error) {
    if (error instanceof GameshopError) {
      logger.warn('game order not created', { userId, confirmationId, error });
      return { ok: false, error: providerErrorToJson(error) };
    }
    // Not a provider error: we cannot tell whether the request went out.
    logger.error('game order failed unexpectedly; its outcome is unknown', { userId, confirmationId, error });
    return { ok: false, error: { service: 'gameshop', kind: 'unknown_outcome', endpoint: '/order' } };
  }

  const order = created.order;
  const now = deps.now();
  const record = orderRecord(request, created, { product, method }, now);
  const notify = reminderItems(request, record, order.expired_at, now);
  let saved = true;
  try {
    await db.gameOrders.save(record, { notify });
  } catch (error) {
    saved = false;
    logger.error('game order created at the shop but not stored; no reminder will be sent', { userId, orderId: created.orderId, error });
  }
  logger.info('game order created', { userId, orderId: created.orderId, game: game.slug });
  return {
    ok: true,
    order: {
      orderId: created.orderId,
      ...shopState(order),
      pricing: order.pricing,
      reminder: !saved ? 'none' : notify.length > 0 ? 'queued' : 'late',
      saved,
    },
  };
}

/** The active games of the user's shop (see `GameOrderService.games`). */
async function listGames(deps: GameOrderServiceDeps, userId: number): Promise<GamesOutcome> {
  const client = await deps.credentials.client(userId, 'gameshop');
  if (!client) return { ok: false, error: { kind: 'not_connected' } };
  try {
    const { games, popular } = await client.games();
    const popularSlugs = new Set(popular.map((game) => game.slug));
    const listed = games
      .filter((game) => game.status)
      .map((game) => ({
        slug: game.slug,
        title: game.title,
        popular: popularSlugs.has(game.slug) || game.populer,
        category: game.category?.title ?? '',
      }));
    return { ok: true, games: listed };
  } catch (error) {
    if (!(error instanceof GameshopError)) throw error;
    deps.logger.warn('game list unavailable for an order', { userId, error });
    return { ok: false, error: providerErrorToJson(error) };
  }
}

/** What an order for `game` asks, from the catalogue's state (without the user's last order). */
function catalogueInfo(state: GameCatalogueState, game: { slug: string; title: string }): GameInfo {
  const { slug, title } = game;
  if (state.kind !== 'ok') return { slug, title, catalogue: state.kind, catalogued: false, server: { kind: 'unknown' } };
  const methods = state.catalogue.paymentMethods.map((method) => ({ id: method.id, name: method.name }));
  const entry = findCatalogueGame(state.catalogue, slug);
  if (!entry) return { slug, title, catalogue: 'ok', catalogued: false, server: { kind: 'unknown' }, methods };
  return {
    slug,
    title,
    catalogue: 'ok',
    catalogued: true,
    ...(entry.idLabel === undefined ? {} : { idLabel: entry.idLabel }),
    server: entry.server ? { kind: 'required', label: entry.server.label, servers: entry.server.servers } : { kind: 'none' },
    products: entry.products.map(({ id, name, price }) => (price === undefined ? { id, name } : { id, name, price })),
    methods,
  };
}

/** A page of the user's orders, newest first (see `GameOrderService.ordersPage`). */
async function ordersPage(db: Db, userId: number, requestedPage: number, pageSize: number) {
  let page = requestedPage;
  let orders = await db.gameOrders.listByUser(userId, { offset: page * pageSize, limit: pageSize + 1 });
  if (orders.length === 0 && page > 0) {
    page = 0;
    orders = await db.gameOrders.listByUser(userId, { offset: 0, limit: pageSize + 1 });
  }
  return { page, orders: orders.slice(0, pageSize), hasNext: orders.length > pageSize };
}

/**
 * The game shop order service (see `GameOrderService`): one catalogue loader and one memory of
 * confirmations per service.
 */
export function createGameOrderService(deps: GameOrderServiceDeps): GameOrderService {
  const { db, logger } = deps;
  // One loader per service, so the catalogue is loaded (and its state logged) once.
  const gameCatalogue = createGameCatalogueLoader({ path: deps.gameshopCataloguePath, logger });
  /** Orders in progress or done in this process, by confirmation id. */
  const attempts = new Map<string, Promise<CreateGameOrderOutcome>>();

  return {
    games: (userId) => listGames(deps, userId),

    async gameInfo(game, userId) {
      const last = userId === undefined ? undefined : await lastDetails(db, userId, game.slug);
      const info = catalogueInfo(await gameCatalogue(), game);
      return last ? { ...info, last } : info;
    },

    create(request) {
      const earlier = attempts.get(request.confirmationId);
      if (earlier) return earlier;
      const attempt = createOrder(deps, request);
      attempts.set(request.confirmationId, attempt);
      if (attempts.size > rememberedConfirmations) {
        const oldest = attempts.keys().next().value;
        if (oldest !== undefined) attempts.delete(oldest);
      }
      return attempt;
    },

    findByConfirmation: (userId, confirmationId) => findStoredConfirmation(db, userId, confirmationId),

    ordersPage: (userId, requestedPage, pageSize) => ordersPage(db, userId, requestedPage, pageSize),
  };
}
