/**
 * Game shop orders (document 3): the games, what an order for a game asks, creating an order once
 * per confirmation (stored with its payment reminder) and reading orders back. Every result is
 * plain JSON, so the order conversation can keep it in its replayed state.
 */
import type { Db } from '../store/db.ts';
import type { Logger } from '../logger.ts';
import type { GameOrderRecord } from '../store/records/game-orders.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { OutboxPayload } from '../notify/payload.ts';
import type { CredentialService } from './credentials.ts';
import type { GameOrder, Pricing } from '../providers/gameshop/schemas.ts';
import { GameshopError } from '../providers/gameshop/client.ts';
import { providerErrorToJson, type ProviderErrorJson } from '../providers/provider-error-json.ts';
import { createGameCatalogueLoader, findCatalogueGame, type GameCatalogueState } from './game-catalogue.ts';

/** The payment reminder goes out this long before `expired_at`. */
const reminderLeadMs = 10 * 60_000;
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

type GamesOutcome = { ok: true; games: ListedGame[] } | { ok: false; error: GameOrderFailure };

/** Whether an order for the game carries `server`: known from the catalogue, or unknown (then optional). */
type ServerRule = { kind: 'none' } | { kind: 'unknown' } | { kind: 'required'; label: string; servers?: string[] };

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
  /** What the user's last order of the game was for, to offer again; WhatsApp from their last order of any game when that one had none. */
  last?: { playerId?: string; server?: string; whatsapp?: string };
}

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
  /** `late`: expiry under ten minutes away, no reminder; `none`: not stored, or replayed. */
  reminder: 'queued' | 'late' | 'none';
  /** False when the order exists at the shop but could not be stored here. */
  saved: boolean;
  /** True when this confirmation had already created the order (nothing new was ordered). */
  replayed?: boolean;
}

type CreateGameOrderOutcome = { ok: true; order: CreatedGameOrder } | { ok: false; error: GameOrderFailure };

export interface GameOrderServiceDeps {
  db: Db;
  credentials: CredentialService;
  logger: Logger;
  now: () => Date;
  /** GAMESHOP_CATALOGUE. */
  gameshopCataloguePath: string | undefined;
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

/** The order created by `confirmationId`, among the user's newest orders. */
async function findStoredConfirmation(db: Db, userId: number, confirmationId: string): Promise<GameOrderRecord | undefined> {
  return (await db.gameOrders.listByUser(userId, { limit: confirmationSearchDepth })).find(
    (order) => order.confirmationId === confirmationId,
  );
}

/** `GameInfo.last` for the user's orders of `slug`; undefined when nothing is known. */
async function lastDetails(db: Db, userId: number, slug: string): Promise<GameInfo['last']> {
  const orders = await db.gameOrders.listByUser(userId, { limit: confirmationSearchDepth });
  const same = orders.find((order) => order.game === slug && order.playerId !== undefined);
  const whatsapp = same?.whatsapp ?? orders.find((order) => order.whatsapp !== undefined)?.whatsapp;
  const last: NonNullable<GameInfo['last']> = {};
  if (same?.playerId !== undefined) last.playerId = same.playerId;
  if (same?.server !== undefined) last.server = same.server;
  if (whatsapp !== undefined) last.whatsapp = whatsapp;
  return Object.keys(last).length > 0 ? last : undefined;
}

/** The record stored for an order the shop created. */
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

/** The order's payment reminder; none when it expires sooner (it would only repeat the order message). */
function reminderItems(request: CreateGameOrderRequest, record: GameOrderRecord, now: Date): NewOutboxItem[] {
  const remindAt = Date.parse(record.expiredAt) - reminderLeadMs;
  return remindAt > now.getTime()
    ? [
        {
          chatId: request.chatId,
          kind: 'gameshop-reminder',
          payload: request.renderReminder(record),
          notBefore: new Date(remindAt).toISOString(),
          dedupeKey: orderReminderKey(record.orderId),
        },
      ]
    : [];
}

/** What an order for `game` asks, from the catalogue's state. */
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

/** The game shop order service: one catalogue loader (loaded and logged once) and one memory of confirmations. */
export class GameOrderService {
  private readonly catalogue: () => Promise<GameCatalogueState>;
  /** Orders in progress or done in this process, by confirmation id. */
  private readonly attempts = new Map<string, Promise<CreateGameOrderOutcome>>();

  constructor(private readonly deps: GameOrderServiceDeps) {
    this.catalogue = createGameCatalogueLoader({ path: deps.gameshopCataloguePath, logger: deps.logger });
  }

  /** The games the user's shop lists as active, popular ones flagged; a provider error as JSON, any other thrown. */
  async games(userId: number): Promise<GamesOutcome> {
    const client = await this.deps.credentials.client(userId, 'gameshop');
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
      this.deps.logger.warn('game list unavailable for an order', { userId, error });
      return { ok: false, error: providerErrorToJson(error) };
    }
  }

  /**
   * What an order for `game` asks, from the operator catalogue (GAMESHOP_CATALOGUE, loaded once);
   * without one, or when it does not list the game, no products (the flow asks for numeric ids).
   * With `userId`, also `last`.
   */
  async gameInfo(game: { slug: string; title: string }, userId?: number): Promise<GameInfo> {
    const last = userId === undefined ? undefined : await lastDetails(this.deps.db, userId, game.slug);
    const info = catalogueInfo(await this.catalogue(), game);
    return last ? { ...info, last } : info;
  }

  /**
   * Creates the order of one confirmation at most once: a confirmation whose order is stored (or in
   * progress here) gives that order again (`replayed`). The order and its payment reminder (due ten
   * minutes before `expired_at`) are one write. Never retried: a timeout, network error or 5xx is
   * `unknown_outcome`. Failures are returned, never thrown.
   */
  create(request: CreateGameOrderRequest): Promise<CreateGameOrderOutcome> {
    const earlier = this.attempts.get(request.confirmationId);
    if (earlier) return earlier;
    const attempt = this.createOnce(request);
    this.attempts.set(request.confirmationId, attempt);
    if (this.attempts.size > rememberedConfirmations) {
      const oldest = this.attempts.keys().next().value;
      if (oldest !== undefined) this.attempts.delete(oldest);
    }
    return attempt;
  }

  /** The order created by `confirmationId`, among the user's own orders only. */
  findByConfirmation(userId: number, confirmationId: string): Promise<GameOrderRecord | undefined> {
    return findStoredConfirmation(this.deps.db, userId, confirmationId);
  }

  /** A page (0-based) of the user's orders, newest first; a page past the end gives the first page. */
  async ordersPage(
    userId: number,
    requestedPage: number,
    pageSize: number,
  ): Promise<{ page: number; orders: GameOrderRecord[]; hasNext: boolean }> {
    let page = requestedPage;
    let orders = await this.deps.db.gameOrders.listByUser(userId, { offset: page * pageSize, limit: pageSize + 1 });
    if (orders.length === 0 && page > 0) {
      page = 0;
      orders = await this.deps.db.gameOrders.listByUser(userId, { offset: 0, limit: pageSize + 1 });
    }
    return { page, orders: orders.slice(0, pageSize), hasNext: orders.length > pageSize };
  }

  private async createOnce(request: CreateGameOrderRequest): Promise<CreateGameOrderOutcome> {
    const { db, credentials, logger } = this.deps;
    const { confirmationId, userId, game, draft } = request;
    const stored = await findStoredConfirmation(db, userId, confirmationId);
    if (stored) {
      const { orderId, paymentStatus, expiredAt, quantity, totalPrice, paymentUrl, paymentCode, qrUrl } = stored;
      const order = { orderId, paymentStatus, expiredAt, quantity, totalPrice, paymentUrl, paymentCode, qrUrl };
      return { ok: true, order: { ...order, reminder: 'none', saved: true, replayed: true } };
    }
    const client = await credentials.client(userId, 'gameshop');
    if (!client) return { ok: false, error: { kind: 'not_connected' } };
    const { product, method } = draft;
    if (!product || !method) return { ok: false, error: { service: 'gameshop', kind: 'validation', endpoint: '/order', fieldErrors: {} } };

    let created;
    try {
      const { playerId, whatsapp, quantity, server, nickname, email, promo } = draft;
      created = await client.createOrder({
        id: playerId ?? '',
        game: game.slug,
        product_id: product.id,
        payment_method_id: method.id,
        whatsapp: whatsapp ?? '',
        quantity,
        server,
        nickname,
        email,
        promo_code: promo,
      });
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
    const now = this.deps.now();
    const record = orderRecord(request, created, { product, method }, now);
    const notify = reminderItems(request, record, now);
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
}
