import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { TranslateFunction } from '@grammyjs/i18n';
import type { InlineKeyboard } from 'grammy';
import type { BotConversation, BotDeps, ConversationContext } from '../context.ts';
import type { OrderArgs } from './ids.ts';
import { escapeHtml, formatRupiah, formatWib } from '../../text/format.ts';
import { describeProviderError } from '../provider-errors.ts';
import {
  createOrderChoiceKeyboard,
  createOrderSummaryKeyboard,
  createPayKeyboard,
  createPromoInvalidKeyboard,
  isButtonUrl,
  type OrderChoice,
} from '../keyboards/gameshop.ts';
import { readOrderConfirmData, readOrderStepData, type OrderConfirmAction } from '../callback-data/gameshop.ts';
import { GameshopError, type GameshopRejectReason } from '../../providers/gameshop/client.ts';
import { normaliseWhatsapp, type GameOrder, type OrderInput, type Pricing } from '../../providers/gameshop/schemas.ts';
import { ProviderError, type ProviderErrorKind } from '../../providers/provider-error.ts';
import { findCatalogueGame, gameCatalogueFor } from '../../services/game-catalogue.ts';
import type { GameOrderRecord } from '../../store/schema.ts';
import type { NewOutboxItem } from '../../store/outbox.ts';
import type { OutboxPayload } from '../../notify/payload.ts';
import { withoutFormatChars } from '../../services/targets.ts';

/** The payment reminder goes out this long before `expired_at`. */
export const reminderLeadMs = 10 * 60_000;
/** Outbox `kind` of the payment reminder. */
export const orderReminderKind = 'gameshop-reminder';
/** Outbox dedupe key of an order's payment reminder: queued at most once per order. */
export const orderReminderKey = (orderId: string): string => `order-reminder:${orderId}`;

/** Game buttons offered when the game is asked for; above this only the popular ones are offered. */
const maxGameButtons = 30;
/** Product / payment-method buttons offered; the rest can be typed by id. */
const maxChoiceButtons = 60;
const maxPlayerIdLength = 64;
const maxServerLength = 32;
const maxNicknameLength = 100;
const maxEmailLength = 255;
const maxPromoLength = 50;
const maxQuantity = 1000;
/** Confirmations remembered in memory (a second guard beside the stored orders). */
const rememberedConfirmations = 1000;

const html = { parse_mode: 'HTML' } as const;
const emailSchema = z.email();

/** A listed game, as kept in the conversation state. */
interface GameJson {
  slug: string;
  title: string;
  popular: boolean;
  category: string;
}

/** Whether an order for the game carries `server`: known from the catalogue, or unknown (then optional). */
type ServerRule = { kind: 'none' } | { kind: 'unknown' } | { kind: 'required'; label: string; servers?: string[] };

interface ProductJson {
  id: number;
  name?: string;
  price?: number;
}

interface MethodJson {
  id: number;
  name?: string;
}

/** What the flow knows of the chosen game: from the shop's list and, when it has one, the operator catalogue. */
interface GameInfo {
  slug: string;
  title: string;
  catalogue: 'ok' | 'none' | 'invalid';
  /** True when the catalogue lists the game (then `products` is set). */
  catalogued: boolean;
  idLabel?: string;
  server: ServerRule;
  products?: ProductJson[];
  methods?: MethodJson[];
}

/** The answers so far. */
interface Draft {
  product?: ProductJson;
  method?: MethodJson;
  playerId?: string;
  server?: string;
  whatsapp?: string;
  nickname?: string;
  email?: string;
  promo?: string;
  quantity: number;
}

type ErrorKind = ProviderErrorKind | 'not_connected';

/** A failed order as plain JSON (conversation state holds JSON only). */
interface ErrorJson {
  kind: ErrorKind;
  endpoint: string;
  providerMessage?: string;
  httpStatus?: number;
  fieldErrors?: Record<string, string[]>;
  reason?: GameshopRejectReason;
}

/** A created order, as shown to the user. */
interface CreatedJson {
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
  /** `queued`: reminder in the outbox; `late`: expiry under 10 minutes away, no reminder. */
  reminder: 'queued' | 'late' | 'none';
  /** False when the order exists at the shop but could not be stored here. */
  saved: boolean;
  /** True when this confirmation had already created the order (nothing new was ordered). */
  replayed?: boolean;
}

type CreateOutcome = { ok: true; order: CreatedJson } | { ok: false; error: ErrorJson };

type StartJson =
  | { ok: true; flow: string; games: GameJson[] }
  | { ok: false; notConnected: true }
  | { ok: false; notConnected?: false; error: ErrorJson };

type Received =
  | { kind: 'text'; text: string }
  | { kind: 'choice'; value: string }
  | { kind: 'confirm'; action: OrderConfirmAction; ctx: ConversationContext };

type Answer = { kind: 'text'; text: string } | { kind: 'choice'; value: string };

/** What to do after a failed order. */
type NextMove = { to: 'summary' } | { to: 'create'; confirmationId: string } | { to: 'end' };

/** API field names in the order the questions are asked (for re-asking after a 422). */
const fieldOrder = ['game', 'product_id', 'payment_method_id', 'id', 'server', 'whatsapp', 'nickname', 'email', 'promo_code', 'quantity'] as const;
type OrderField = (typeof fieldOrder)[number];
const isOrderField = (field: string): field is OrderField => (fieldOrder as readonly string[]).includes(field);

/** Swallows a failed Telegram call whose failure changes nothing for the user (an answer to an old query, an edit). */
async function quietly(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch {
    // Nothing to do: the message is already as it should be, or the query expired.
  }
}

function toErrorJson(error: GameshopError): ErrorJson {
  const json: ErrorJson = { kind: error.kind, endpoint: error.endpoint };
  if (error.providerMessage !== undefined) json.providerMessage = error.providerMessage;
  if (error.httpStatus !== undefined) json.httpStatus = error.httpStatus;
  if (error.fieldErrors !== undefined) json.fieldErrors = error.fieldErrors;
  if (error.reason !== undefined) json.reason = error.reason;
  return json;
}

/** The field's name as the user knows it (the game's own label for the player id and server). */
function fieldLabel(t: TranslateFunction, field: string, info: GameInfo): string {
  if (field === 'id') return info.idLabel ?? t('order-field-id');
  if (field === 'server' && info.server.kind === 'required') return info.server.label;
  return isOrderField(field) ? t(`order-field-${field.replace(/_/g, '-')}`) : field;
}

/** Games whose slug or title matches typed text: exact matches first, else every word contained. */
export function matchGames<G extends { slug: string; title: string }>(games: readonly G[], typed: string): G[] {
  const query = typed.trim().toLowerCase();
  if (query === '') return [];
  const exact = games.filter((game) => game.slug === query || game.title.toLowerCase() === query);
  if (exact.length > 0) return exact;
  const words = query.split(/\s+/);
  return games.filter((game) => {
    const haystack = `${game.slug} ${game.slug.replace(/[-_]/g, ' ')} ${game.title.toLowerCase()}`;
    return words.every((word) => haystack.includes(word));
  });
}

/** A positive whole number typed by the user (digits only, separators allowed), or undefined. */
function parseId(text: string): number | undefined {
  const compact = text.trim().replace(/[\s.]/g, '');
  if (!/^\d{1,12}$/.test(compact)) return undefined;
  const value = Number(compact);
  return value > 0 ? value : undefined;
}

/** The id of the catalogue entry whose name is exactly `typed` (ignoring case), if there is one. */
function byName(entries: ReadonlyArray<{ id: number; name?: string }> | undefined, typed: string): number | undefined {
  const wanted = typed.trim().toLowerCase();
  return entries?.find((entry) => entry.name?.toLowerCase() === wanted)?.id;
}

function productText(product: ProductJson): string {
  return product.name === undefined ? `ID ${product.id}` : `${escapeHtml(product.name)} (ID ${product.id})`;
}

function methodText(method: MethodJson): string {
  return method.name === undefined ? `ID ${method.id}` : `${escapeHtml(method.name)} (ID ${method.id})`;
}

/** The order summary shown before confirming (HTML). */
function summaryText(t: TranslateFunction, info: GameInfo, draft: Draft): string {
  const none = t('order-summary-none');
  const serverLabel = info.server.kind === 'required' ? info.server.label : t('order-field-server');
  const lines = [
    t('order-summary-title'),
    '',
    t('order-summary-game', { game: escapeHtml(info.title) }),
    t('order-summary-product', { product: draft.product ? productText(draft.product) : none }),
    t('order-summary-quantity', { quantity: draft.quantity }),
    t('order-summary-method', { method: draft.method ? methodText(draft.method) : none }),
    t('order-summary-player', { label: escapeHtml(info.idLabel ?? t('order-field-id')), value: escapeHtml(draft.playerId ?? '') }),
  ];
  if (draft.server !== undefined) lines.push(t('order-summary-server', { label: escapeHtml(serverLabel), value: escapeHtml(draft.server) }));
  lines.push(
    t('order-summary-whatsapp', { value: escapeHtml(draft.whatsapp ?? '') }),
    t('order-summary-nickname', { value: draft.nickname === undefined ? none : escapeHtml(draft.nickname) }),
    t('order-summary-email', { value: draft.email === undefined ? none : escapeHtml(draft.email) }),
    t('order-summary-promo', { value: draft.promo === undefined ? none : `<code>${escapeHtml(draft.promo)}</code>` }),
  );
  if (draft.product?.price !== undefined) {
    lines.push('', t('order-summary-estimate', { amount: formatRupiah(draft.product.price * draft.quantity) }));
  }
  lines.push('', t('order-summary-question'));
  return lines.join('\n');
}

/** The created order with its payment details and price breakdown (HTML). */
function orderText(t: TranslateFunction, info: GameInfo, draft: Draft, order: CreatedJson): string {
  const lines = [
    order.replayed ? t('order-created-already') : t('order-created-title'),
    '',
    t('order-created-id', { orderId: escapeHtml(order.orderId) }),
    t('order-created-item', {
      game: escapeHtml(info.title),
      product: escapeHtml(draft.product?.name ?? `ID ${draft.product?.id ?? '?'}`),
      quantity: order.quantity,
    }),
  ];
  if (draft.method) lines.push(t('order-created-method', { method: escapeHtml(draft.method.name ?? `ID ${draft.method.id}`) }));
  lines.push(t('order-created-status', { status: escapeHtml(order.paymentStatus) }));
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
      lines.push(t('order-price-promo', { code: escapeHtml(pricing.promo_code || draft.promo || '-'), amount: formatRupiah(pricing.promo_discount) }));
    }
    lines.push(
      t('order-price-fee', { amount: formatRupiah(pricing.payment_fee) }),
      t('order-price-unique', { amount: formatRupiah(pricing.unique_code) }),
    );
  }
  lines.push(t('order-price-total', { amount: formatRupiah(order.totalPrice) }), '');
  if (order.paymentCode) lines.push(t('order-created-code', { code: escapeHtml(order.paymentCode) }));
  lines.push(t('order-created-expires', { at: formatWib(order.expiredAt) }));
  if (order.reminder === 'queued') lines.push(t('order-created-reminder'));
  if (order.reminder === 'late') lines.push(t('order-created-no-reminder'));
  if (!order.saved) lines.push('', t('order-created-not-saved'));
  return lines.join('\n');
}

/** The reminder queued with the order (HTML), sent ten minutes before it expires. */
function reminderPayload(t: TranslateFunction, item: string, order: GameOrder): OutboxPayload {
  const pay = isButtonUrl(order.payment_url) ? [[{ text: t('order-button-pay'), url: order.payment_url }]] : undefined;
  return {
    type: 'send',
    text: t('order-reminder', {
      orderId: escapeHtml(order.order_id),
      item: escapeHtml(item),
      at: formatWib(order.expired_at),
      total: formatRupiah(order.total_price),
    }),
    parseMode: 'HTML',
    ...(pay ? { replyMarkup: { inline_keyboard: pay } } : {}),
  };
}

interface CreateRequest {
  confirmationId: string;
  userId: number;
  chatId: number;
  info: GameInfo;
  draft: Draft;
  t: TranslateFunction;
}

/**
 * Creates the game order conversation (`conversationIds.order`), the one way a game top-up is
 * ordered. Entered with `OrderArgs`: `{ game: slug }` from a /games button (or `/pesan slug`), or
 * nothing (it asks for the game).
 *
 * It waits for, in turn: the game (buttons or typed name); the product and the payment method
 * (buttons from the operator catalogue, or the numeric ids when there is no usable catalogue or it
 * does not list the game); the player id; the server / zone when the game needs one (asked on its
 * own, never glued to the id; without a catalogue it is asked as optional); the WhatsApp number;
 * nickname, e-mail and promo code (each with a "Skip" button); the quantity (1 by default); and a
 * tap on "Order now" / "Cancel" under the summary. A command or another feature's button ends it
 * (the command then runs); /cancel ends it at any point.
 *
 * What it persists: the answers and the results of its `external` steps, through the (encrypted)
 * conversation state: the games list and a flow id, the game's catalogue entry, and the
 * confirmation id minted BEFORE each summary. On "Order now" one `external` creates the order —
 * guarded by the confirmation id in memory and in the store, so a double tap, a replay or a
 * restart after the order was stored never orders twice — and stores it (`gameOrders.save`)
 * together with its payment reminder (outbox item due ten minutes before `expired_at`, dedupe key
 * `order-reminder:<orderId>`) in one write. When the order expires in less than ten minutes no
 * reminder is queued: the order message already shows the deadline, and a reminder moments later
 * would only repeat it.
 *
 * Failures are answered, never thrown: a 422 per field lists the fields and asks again for just
 * those (then shows the summary again); "product of another game" asks for the product again;
 * "promo invalid" offers to order without it, to try another code, or to cancel; 404 names what
 * the shop does not know; a timeout / network error / 500 says the order may or may not exist and
 * to check before ordering again (it is never retried).
 *
 * It returns nothing; it ends after showing the order (id, payment status, price breakdown, payment
 * code to copy, "Pay" button, the QR as a photo when there is one — or its link when Telegram cannot
 * fetch it — and the deadline in WIB), or after a cancel or an error the user cannot fix here.
 */
export function createOrderConversation(deps: BotDeps) {
  const publicIp = deps.settings.publicIp;
  /** Orders in progress or done in this process, by confirmation id. */
  const attempts = new Map<string, Promise<CreateOutcome>>();

  /** The order created by this user's confirmation, if it was stored. */
  const storedOrder = (userId: number, confirmationId: string): GameOrderRecord | undefined =>
    deps.store.gameOrders.listByUser(userId, { limit: 500 }).find((order) => order.confirmationId === confirmationId);

  async function create(request: CreateRequest): Promise<CreateOutcome> {
    const { confirmationId, userId, chatId, info, draft, t } = request;
    const stored = storedOrder(userId, confirmationId);
    if (stored) {
      const order: CreatedJson = {
        orderId: stored.orderId,
        paymentStatus: stored.paymentStatus,
        expiredAt: stored.expiredAt,
        quantity: stored.quantity,
        totalPrice: stored.totalPrice,
        reminder: 'none',
        saved: true,
        replayed: true,
      };
      if (stored.paymentUrl !== undefined) order.paymentUrl = stored.paymentUrl;
      if (stored.paymentCode !== undefined) order.paymentCode = stored.paymentCode;
      return { ok: true, order };
    }
    const client = deps.services.credentials.client(userId, 'gameshop');
    if (!client) return { ok: false, error: { kind: 'not_connected', endpoint: '/order' } };
    if (!draft.product || !draft.method) return { ok: false, error: { kind: 'validation', endpoint: '/order', fieldErrors: {} } };

    const input: OrderInput = {
      id: draft.playerId ?? '',
      game: info.slug,
      product_id: draft.product.id,
      payment_method_id: draft.method.id,
      whatsapp: draft.whatsapp ?? '',
      quantity: draft.quantity,
    };
    if (draft.server !== undefined) input.server = draft.server;
    if (draft.nickname !== undefined) input.nickname = draft.nickname;
    if (draft.email !== undefined) input.email = draft.email;
    if (draft.promo !== undefined) input.promo_code = draft.promo;

    let created;
    try {
      created = await client.createOrder(input);
    } catch (error) {
      if (error instanceof GameshopError) {
        deps.logger.warn('game order not created', { userId, confirmationId, error });
        return { ok: false, error: toErrorJson(error) };
      }
      // Not a provider error: we cannot tell whether the request went out.
      deps.logger.error('game order failed unexpectedly; its outcome is unknown', { userId, confirmationId, error });
      return { ok: false, error: { kind: 'unknown_outcome', endpoint: '/order' } };
    }

    const order = created.order;
    const now = deps.now();
    const record: GameOrderRecord = {
      orderId: created.orderId,
      userId,
      chatId,
      game: info.slug,
      gameTitle: info.title,
      productId: draft.product.id,
      paymentMethodId: draft.method.id,
      quantity: order.quantity,
      totalPrice: order.total_price,
      paymentStatus: order.payment_status,
      buyStatus: order.buy_status,
      paymentUrl: order.payment_url,
      paymentCode: order.payment_code,
      qrUrl: order.qr_url,
      expiredAt: order.expired_at,
      createdAt: now.toISOString(),
      confirmationId,
    };
    if (draft.product.name !== undefined) record.productName = draft.product.name;
    if (draft.method.name !== undefined) record.paymentName = draft.method.name;

    const remindAt = Date.parse(order.expired_at) - reminderLeadMs;
    const item = `${info.title} — ${draft.product.name ?? `ID ${draft.product.id}`} × ${order.quantity}`;
    const notify: NewOutboxItem[] =
      remindAt > now.getTime()
        ? [
            {
              chatId,
              kind: orderReminderKind,
              payload: reminderPayload(t, item, { ...order, order_id: created.orderId }),
              notBefore: new Date(remindAt).toISOString(),
              dedupeKey: orderReminderKey(created.orderId),
            },
          ]
        : [];
    let saved = true;
    try {
      await deps.store.gameOrders.save(record, { notify });
    } catch (error) {
      saved = false;
      deps.logger.error('game order created at the shop but not stored; no reminder will be sent', { userId, orderId: created.orderId, error });
    }
    deps.logger.info('game order created', { userId, orderId: created.orderId, game: info.slug });
    return {
      ok: true,
      order: {
        orderId: created.orderId,
        paymentStatus: order.payment_status,
        buyStatus: order.buy_status,
        paymentUrl: order.payment_url,
        paymentCode: order.payment_code,
        qrUrl: order.qr_url,
        expiredAt: order.expired_at,
        quantity: order.quantity,
        totalPrice: order.total_price,
        pricing: order.pricing,
        reminder: !saved ? 'none' : notify.length > 0 ? 'queued' : 'late',
        saved,
      },
    };
  }

  /** Creates the order for a confirmation at most once in this process (the store guards across restarts). */
  function createOnce(request: CreateRequest): Promise<CreateOutcome> {
    const earlier = attempts.get(request.confirmationId);
    if (earlier) return earlier;
    const attempt = create(request);
    attempts.set(request.confirmationId, attempt);
    if (attempts.size > rememberedConfirmations) {
      const oldest = attempts.keys().next().value;
      if (oldest !== undefined) attempts.delete(oldest);
    }
    return attempt;
  }

  return async function orderConversation(conversation: BotConversation, ctx: ConversationContext, args?: OrderArgs): Promise<void> {
    const t = ctx.t;
    if (ctx.chat?.type !== 'private' || ctx.from === undefined) {
      await ctx.reply(t('error-private-only'));
      return;
    }
    const userId = ctx.from.id;
    const chatId = ctx.chat.id;

    // --- 0. Connected? The shop's games, and a flow id for this run's buttons ------------------
    const start = await conversation.external(async (): Promise<StartJson> => {
      const client = deps.services.credentials.client(userId, 'gameshop');
      if (!client) return { ok: false, notConnected: true };
      try {
        const { games, popular } = await client.games();
        const popularSlugs = new Set(popular.map((game) => game.slug));
        const listed = games.filter((game) => game.status);
        return {
          ok: true,
          flow: randomBytes(6).toString('base64url'),
          games: listed.map((game) => ({
            slug: game.slug,
            title: game.title,
            popular: popularSlugs.has(game.slug) || game.populer,
            category: game.category?.title ?? '',
          })),
        };
      } catch (error) {
        if (!(error instanceof GameshopError)) throw error;
        deps.logger.warn('game list unavailable for an order', { userId, error });
        return { ok: false, error: toErrorJson(error) };
      }
    });
    if (!start.ok) {
      if (start.notConnected) await ctx.reply(t('error-not-connected', { service: t('service-gameshop') }));
      else await ctx.reply(describeError(start.error));
      return;
    }
    const { flow, games } = start;
    if (games.length === 0) {
      await ctx.reply(t('order-no-games'));
      return;
    }

    function describeError(error: ErrorJson): string {
      const { kind, ...rest } = error;
      if (kind === 'not_connected') return t('error-not-connected', { service: t('service-gameshop') });
      return describeProviderError(t, new ProviderError('gameshop', { ...rest, kind }), publicIp) ?? t('error-generic');
    }

    /** Answers a confirmation button of an earlier summary: done (with the order id) or expired. */
    const answerStaleConfirm = async (button: ConversationContext, confirmationId: string) => {
      const orderId = await conversation.external(() => storedOrder(userId, confirmationId)?.orderId ?? null);
      await quietly(
        button.answerCallbackQuery({ text: orderId === null ? t('order-summary-expired') : t('order-already-created', { orderId }), show_alert: orderId !== null }),
      );
      await quietly(button.editMessageReplyMarkup());
    };

    /**
     * Waits for text, a tap on the current question's button (`step`) or on the current
     * confirmation's button. A command or another feature's button ends the conversation and is
     * passed on; older buttons of this flow are answered and ignored; anything else gets `hint`.
     */
    const receive = async (expect: { step?: number; confirmationId?: string; text: boolean; hint: string }): Promise<Received> => {
      for (;;) {
        const next = await conversation.wait();
        const query = next.callbackQuery;
        if (query) {
          const choice = readOrderStepData(query.data);
          if (choice) {
            if (choice.flow === flow && choice.step === expect.step) {
              await quietly(next.answerCallbackQuery());
              return { kind: 'choice', value: choice.value };
            }
            await quietly(next.answerCallbackQuery({ text: t('order-button-old') }));
            continue;
          }
          const confirm = readOrderConfirmData(query.data);
          if (confirm) {
            if (confirm.id === expect.confirmationId) return { kind: 'confirm', action: confirm.action, ctx: next };
            await answerStaleConfirm(next, confirm.id);
            continue;
          }
          return conversation.halt({ next: true });
        }
        if (!next.message) return conversation.skip({ next: true });
        const text = next.message.text;
        if (text !== undefined && text.trim().startsWith('/')) return conversation.halt({ next: true });
        if (text !== undefined && expect.text) return { kind: 'text', text };
        await next.reply(expect.hint, html);
      }
    };

    let step = 0;
    /**
     * Asks one question (with `choices` as buttons, and "Skip" when optional) and waits for the
     * answer. A tapped choice is written under the question and its buttons removed; a typed
     * answer removes them too.
     */
    const question = async (text: string, choices: OrderChoice[] = [], options: { columns?: number; skip?: boolean } = {}): Promise<Answer> => {
      step += 1;
      const current = step;
      const keyboard = createOrderChoiceKeyboard(t, flow, current, choices, options);
      const asked = await ctx.reply(text, { ...html, ...(keyboard ? { reply_markup: keyboard } : {}) });
      const got = await receive({ step: current, text: true, hint: t('order-answer-hint') });
      if (got.kind === 'choice') {
        const label = got.value === 'skip' ? t('order-skipped') : (choices.find((c) => c.value === got.value)?.label ?? got.value);
        await quietly(ctx.api.editMessageText(chatId, asked.message_id, `${text}\n\n👉 <b>${escapeHtml(label)}</b>`, html));
        return got;
      }
      if (keyboard) await quietly(ctx.api.editMessageReplyMarkup(chatId, asked.message_id));
      return got.kind === 'text' ? got : { kind: 'text', text: '' };
    };

    // --- 1. The game ---------------------------------------------------------------------------
    const ordered = [...games.filter((game) => game.popular), ...games.filter((game) => !game.popular).sort((a, b) => a.category.localeCompare(b.category))];
    const gameIndex = (game: GameJson) => String(games.indexOf(game));

    const askGame = async (): Promise<GameJson> => {
      let offered = games.length <= maxGameButtons ? ordered : ordered.filter((game) => game.popular).slice(0, maxGameButtons);
      let prompt = t('order-ask-game');
      for (;;) {
        const answer = await question(
          prompt,
          offered.map((game) => ({ label: game.popular ? `🔥 ${game.title}` : game.title, value: gameIndex(game) })),
          { columns: 2 },
        );
        if (answer.kind === 'choice') {
          const chosen = games[Number(answer.value)];
          if (chosen) return chosen;
          continue;
        }
        const matches = matchGames(games, answer.text);
        const [only] = matches;
        if (matches.length === 1 && only) return only;
        if (matches.length === 0) {
          prompt = t('order-game-unknown', { text: escapeHtml(answer.text.trim().slice(0, 50)) });
          continue;
        }
        offered = matches.slice(0, 10);
        prompt = t('order-game-several');
      }
    };

    // A slug from /games, or whatever followed /pesan: a slug, or a title that names one game.
    const requested = typeof args?.game === 'string' ? args.game.trim().slice(0, 100) : '';
    const requestedMatches = requested === '' ? [] : matchGames(games, requested);
    let game = requestedMatches.length === 1 ? requestedMatches[0] : undefined;
    if (requested !== '' && !game) await ctx.reply(t('order-game-not-listed', { game: escapeHtml(requested.slice(0, 100)) }), html);

    const loadInfo = (chosen: GameJson) =>
      conversation.external(async (): Promise<GameInfo> => {
        const state = await gameCatalogueFor(deps);
        if (state.kind !== 'ok') return { slug: chosen.slug, title: chosen.title, catalogue: state.kind, catalogued: false, server: { kind: 'unknown' } };
        const methods = state.catalogue.paymentMethods.map((method) => ({ id: method.id, name: method.name }));
        const entry = findCatalogueGame(state.catalogue, chosen.slug);
        if (!entry) return { slug: chosen.slug, title: chosen.title, catalogue: 'ok', catalogued: false, server: { kind: 'unknown' }, methods };
        const info: GameInfo = {
          slug: chosen.slug,
          title: chosen.title,
          catalogue: 'ok',
          catalogued: true,
          server: entry.server
            ? { kind: 'required', label: entry.server.label, ...(entry.server.servers ? { servers: entry.server.servers } : {}) }
            : { kind: 'none' },
          products: entry.products.map((product) => ({ id: product.id, name: product.name, ...(product.price === undefined ? {} : { price: product.price }) })),
          methods,
        };
        if (entry.idLabel !== undefined) info.idLabel = entry.idLabel;
        return info;
      });

    game ??= await askGame();
    let info = await loadInfo(game);
    const draft: Draft = { quantity: 1 };

    // --- 2. The questions ------------------------------------------------------------------------
    let catalogueNoticeShown = false;
    /** Said once, the first time a numeric id is asked: the operator gave no (usable) catalogue, or it lacks this game. */
    const catalogueNotice = (): string => {
      if (catalogueNoticeShown) return '';
      catalogueNoticeShown = true;
      if (info.catalogue !== 'ok') return `${t('order-no-catalogue')}\n\n`;
      return info.catalogued ? '' : `${t('order-game-not-in-catalogue', { game: escapeHtml(info.title) })}\n\n`;
    };

    const askProduct = async (intro = ''): Promise<void> => {
      const products = info.products;
      let prompt = products
        ? `${intro}${t('order-ask-product', { game: escapeHtml(info.title) })}`
        : `${intro}${catalogueNotice()}${t('order-ask-product-id', { game: escapeHtml(info.title) })}`;
      const choices = (products ?? []).slice(0, maxChoiceButtons).map((product) => ({
        label: product.price === undefined ? (product.name ?? `ID ${product.id}`) : `${product.name ?? `ID ${product.id}`} — ${formatRupiah(product.price)}`,
        value: String(product.id),
      }));
      for (;;) {
        const answer = await question(prompt, choices);
        const id = answer.kind === 'choice' ? Number(answer.value) : (parseId(answer.text) ?? byName(products, answer.text));
        if (id === undefined || !Number.isSafeInteger(id) || id <= 0) {
          prompt = t(products ? 'order-product-invalid' : 'order-product-id-invalid');
          continue;
        }
        draft.product = products?.find((product) => product.id === id) ?? { id };
        return;
      }
    };

    const askMethod = async (intro = ''): Promise<void> => {
      const methods = info.methods;
      let prompt = methods ? `${intro}${t('order-ask-method')}` : `${intro}${catalogueNotice()}${t('order-ask-method-id')}`;
      const choices = (methods ?? []).slice(0, maxChoiceButtons).map((method) => ({ label: method.name ?? `ID ${method.id}`, value: String(method.id) }));
      for (;;) {
        const answer = await question(prompt, choices, { columns: 2 });
        const id = answer.kind === 'choice' ? Number(answer.value) : (parseId(answer.text) ?? byName(methods, answer.text));
        if (id === undefined || !Number.isSafeInteger(id) || id <= 0) {
          prompt = t(methods ? 'order-method-invalid' : 'order-method-id-invalid');
          continue;
        }
        draft.method = methods?.find((method) => method.id === id) ?? { id };
        return;
      }
    };

    const askPlayerId = async (intro = ''): Promise<void> => {
      const label = escapeHtml(info.idLabel ?? t('order-field-id'));
      const serverHint = info.server.kind === 'required' ? `\n${t('order-server-next', { server: escapeHtml(info.server.label) })}` : '';
      let prompt = `${intro}${t('order-ask-player', { label, game: escapeHtml(info.title) })}${serverHint}`;
      for (;;) {
        const answer = await question(prompt);
        const value = answer.kind === 'text' ? withoutFormatChars(answer.text).trim() : '';
        if (value === '' || value.includes('\n')) {
          prompt = t('order-player-invalid', { label });
          continue;
        }
        if (value.length > maxPlayerIdLength) {
          prompt = t('order-too-long', { label, max: maxPlayerIdLength });
          continue;
        }
        // "12345678 (1234)": the zone glued to the id. The shop wants them apart.
        if (info.server.kind === 'required' && /^\S+\s*\(\s*\S+\s*\)$|^\d+\s+\d+$/.test(value)) {
          prompt = t('order-player-with-server', { label, server: escapeHtml(info.server.label) });
          continue;
        }
        draft.playerId = value;
        return;
      }
    };

    /** Asks for the server; `required` after the shop asked for one. Skipped when the catalogue says the game has none. */
    const askServer = async (required: boolean, intro = ''): Promise<void> => {
      const rule = info.server;
      if (rule.kind === 'none' && !required) {
        delete draft.server;
        return;
      }
      const servers = rule.kind === 'required' ? rule.servers : undefined;
      const label = escapeHtml(rule.kind === 'required' ? rule.label : t('order-field-server'));
      const optional = !required && rule.kind !== 'required';
      let prompt = `${intro}${optional ? t('order-ask-server-optional') : servers ? t('order-ask-server-choice', { label }) : t('order-ask-server', { label })}`;
      const choices = (servers ?? []).map((server, index) => ({ label: server, value: String(index) }));
      for (;;) {
        const answer = await question(prompt, choices, { columns: 2, skip: optional });
        if (answer.kind === 'choice') {
          if (answer.value === 'skip') {
            delete draft.server;
            return;
          }
          const chosen = servers?.[Number(answer.value)];
          if (chosen !== undefined) {
            draft.server = chosen;
            return;
          }
          continue;
        }
        const value = withoutFormatChars(answer.text).trim();
        if (value === '' || value.length > maxServerLength || value.includes('\n')) {
          prompt = t('order-server-invalid', { label, max: maxServerLength });
          continue;
        }
        if (servers) {
          const listed = servers.find((server) => server.toLowerCase() === value.toLowerCase());
          if (!listed) {
            prompt = t('order-server-not-listed', { label });
            continue;
          }
          draft.server = listed;
          return;
        }
        draft.server = value;
        return;
      }
    };

    const askWhatsapp = async (intro = ''): Promise<void> => {
      let prompt = `${intro}${t('order-ask-whatsapp')}`;
      for (;;) {
        const answer = await question(prompt);
        const number = answer.kind === 'text' ? normaliseWhatsapp(answer.text) : undefined;
        if (number === undefined) {
          prompt = t('order-whatsapp-invalid');
          continue;
        }
        draft.whatsapp = number;
        return;
      }
    };

    /** An optional text answer ("Skip" clears it), up to `max` characters, checked by `valid`. */
    const askOptional = async (
      key: 'nickname' | 'email' | 'promo',
      prompt: string,
      max: number,
      invalid: string,
      valid: (value: string) => boolean = () => true,
    ): Promise<void> => {
      let text = prompt;
      for (;;) {
        const answer = await question(text, [], { skip: true });
        if (answer.kind === 'choice') {
          delete draft[key];
          return;
        }
        const value = withoutFormatChars(answer.text).trim();
        if (value === '' || value.length > max || value.includes('\n') || !valid(value)) {
          text = invalid;
          continue;
        }
        draft[key] = value;
        return;
      }
    };
    const askNickname = (intro = '') =>
      askOptional('nickname', `${intro}${t('order-ask-nickname')}`, maxNicknameLength, t('order-too-long', { label: t('order-field-nickname'), max: maxNicknameLength }));
    const askEmail = (intro = '') =>
      askOptional('email', `${intro}${t('order-ask-email')}`, maxEmailLength, t('order-email-invalid'), (value) => emailSchema.safeParse(value).success);
    const askPromo = (intro = '') =>
      askOptional('promo', `${intro}${t('order-ask-promo')}`, maxPromoLength, t('order-promo-invalid-format', { max: maxPromoLength }), (value) => !/\s/.test(value));

    const askQuantity = async (intro = ''): Promise<void> => {
      let prompt = `${intro}${t('order-ask-quantity')}`;
      const choices = [1, 2, 3, 5, 10].map((n) => ({ label: String(n), value: String(n) }));
      for (;;) {
        const answer = await question(prompt, choices, { columns: 5 });
        const value = answer.kind === 'choice' ? Number(answer.value) : parseId(answer.text);
        if (value === undefined || !Number.isSafeInteger(value) || value < 1 || value > maxQuantity) {
          prompt = t('order-quantity-invalid', { max: maxQuantity });
          continue;
        }
        draft.quantity = value;
        return;
      }
    };

    /** Asks again for the fields the shop refused, in question order. Returns false when none can be asked. */
    const askFields = async (fields: string[]): Promise<boolean> => {
      const wanted = fieldOrder.filter((field) => fields.includes(field));
      for (const field of wanted) {
        switch (field) {
          case 'game':
            game = await askGame();
            info = await loadInfo(game);
            await askProduct();
            if (info.server.kind !== 'unknown') await askServer(false);
            break;
          case 'product_id':
            if (!wanted.includes('game')) await askProduct();
            break;
          case 'payment_method_id':
            await askMethod();
            break;
          case 'id':
            await askPlayerId();
            break;
          case 'server':
            if (!wanted.includes('game')) await askServer(true);
            break;
          case 'whatsapp':
            await askWhatsapp();
            break;
          case 'nickname':
            await askNickname();
            break;
          case 'email':
            await askEmail();
            break;
          case 'promo_code':
            await askPromo();
            break;
          case 'quantity':
            await askQuantity();
            break;
        }
      }
      return wanted.length > 0;
    };

    await askProduct();
    await askMethod();
    await askPlayerId();
    await askServer(false);
    await askWhatsapp();
    await askNickname();
    await askEmail();
    await askPromo();
    await askQuantity();

    // --- 3. Summary, confirmation, order -----------------------------------------------------
    const mintConfirmation = () => conversation.external(() => randomBytes(9).toString('base64url'));

    /** Shows the summary (with a confirmation id minted before it) and waits for a tap. Undefined: cancelled. */
    const confirmSummary = async (): Promise<string | undefined> => {
      const confirmationId = await mintConfirmation();
      const text = summaryText(t, info, draft);
      const shown = await ctx.reply(text, { ...html, reply_markup: createOrderSummaryKeyboard(t, confirmationId) });
      const close = (line: string) => quietly(ctx.api.editMessageText(chatId, shown.message_id, `${text}\n\n${line}`, html));
      for (;;) {
        const got = await receive({ confirmationId, text: false, hint: t('order-use-buttons') });
        if (got.kind !== 'confirm') continue;
        if (got.action === 'no') {
          await quietly(got.ctx.answerCallbackQuery());
          await close(t('order-summary-cancelled'));
          await ctx.reply(t('order-cancelled'));
          return undefined;
        }
        if (got.action === 'ok') {
          await quietly(got.ctx.answerCallbackQuery({ text: t('order-in-progress') }));
          await close(t('order-summary-confirmed'));
          return confirmationId;
        }
        await quietly(got.ctx.answerCallbackQuery());
      }
    };

    /** Shows the created order, its Pay button and its QR (or the QR's link when Telegram cannot fetch it). */
    const showOrder = async (order: CreatedJson): Promise<void> => {
      const text = orderText(t, info, draft, order);
      const keyboard: InlineKeyboard | undefined = createPayKeyboard(t, order.paymentUrl);
      try {
        await ctx.reply(text, { ...html, link_preview_options: { is_disabled: true }, ...(keyboard ? { reply_markup: keyboard } : {}) });
      } catch (error) {
        // Most likely Telegram refused the button's URL: the same text with the link written out.
        deps.logger.warn('order message refused; sending it without the Pay button', { userId, orderId: order.orderId, error });
        const link = order.paymentUrl ? `\n\n${t('order-pay-link', { url: escapeHtml(order.paymentUrl) })}` : '';
        await quietly(ctx.reply(`${text}${link}`, { ...html, link_preview_options: { is_disabled: true } }));
      }
      if (!isButtonUrl(order.qrUrl)) return;
      try {
        await ctx.replyWithPhoto(order.qrUrl, {
          caption: t('order-qr-caption', { orderId: escapeHtml(order.orderId), total: formatRupiah(order.totalPrice) }),
          ...html,
        });
      } catch (error) {
        deps.logger.warn('QR photo could not be sent; sending its link instead', { userId, orderId: order.orderId, error });
        await quietly(ctx.reply(t('order-qr-failed', { url: escapeHtml(order.qrUrl) }), { ...html, link_preview_options: { is_disabled: true } }));
      }
    };

    /** Explains a failed order and decides what comes next. */
    const handleFailure = async (error: ErrorJson): Promise<NextMove> => {
      switch (error.kind) {
        case 'validation': {
          const fields = error.fieldErrors ?? {};
          const lines = Object.entries(fields).map(
            ([field, messages]) => `• <b>${escapeHtml(fieldLabel(t, field, info))}</b>: ${escapeHtml(messages.join(' '))}`,
          );
          if (lines.length === 0 && error.providerMessage) lines.push(`• ${escapeHtml(error.providerMessage)}`);
          const fixable = fieldOrder.some((field) => field in fields);
          await ctx.reply([t('order-fields-refused'), ...lines, '', t(fixable ? 'order-fields-ask-again' : 'order-fields-cannot-fix')].join('\n'), html);
          if (!fixable) return { to: 'end' };
          await askFields(Object.keys(fields));
          return { to: 'summary' };
        }
        case 'rejected':
          if (error.reason === 'product_mismatch') {
            const intro = t('order-product-mismatch', {
              product: draft.product ? productText(draft.product) : '-',
              game: escapeHtml(info.title),
              message: escapeHtml(error.providerMessage ?? '-'),
            });
            await askProduct(`${intro}\n\n`);
            return { to: 'summary' };
          }
          if (error.reason === 'promo_invalid' && draft.promo !== undefined) {
            const confirmationId = await mintConfirmation();
            const text = t('order-promo-refused', { code: escapeHtml(draft.promo), message: escapeHtml(error.providerMessage ?? '-') });
            const shown = await ctx.reply(text, { ...html, reply_markup: createPromoInvalidKeyboard(t, confirmationId) });
            const close = (line: string) => quietly(ctx.api.editMessageText(chatId, shown.message_id, `${text}\n\n${line}`, html));
            for (;;) {
              const got = await receive({ confirmationId, text: false, hint: t('order-use-buttons') });
              if (got.kind !== 'confirm') continue;
              await quietly(got.ctx.answerCallbackQuery(got.action === 'nopromo' ? { text: t('order-in-progress') } : {}));
              if (got.action === 'nopromo') {
                delete draft.promo;
                await close(t('order-promo-dropped'));
                return { to: 'create', confirmationId };
              }
              if (got.action === 'promo') {
                await close(t('order-promo-retype'));
                await askPromo();
                return { to: 'summary' };
              }
              if (got.action === 'no') {
                await close(t('order-summary-cancelled'));
                await ctx.reply(t('order-cancelled'));
                return { to: 'end' };
              }
            }
          }
          await ctx.reply(escapeHtml(describeError(error)), html);
          return { to: 'end' };
        case 'not_found': {
          const message = error.providerMessage ?? '';
          const what = /produk|product/i.test(message) ? 'product' : /pembayaran|payment/i.test(message) ? 'method' : 'game';
          const explained = t(`order-not-found-${what}`, { message: escapeHtml(message || '-'), game: escapeHtml(info.title) });
          if (what === 'product') {
            await askProduct(`${explained}\n\n`);
            return { to: 'summary' };
          }
          if (what === 'method') {
            await askMethod(`${explained}\n\n`);
            return { to: 'summary' };
          }
          await ctx.reply(explained, html);
          return { to: 'end' };
        }
        case 'unknown_outcome':
        case 'malformed':
          await ctx.reply(t('order-unknown-outcome'), html);
          return { to: 'end' };
        default:
          await ctx.reply(escapeHtml(describeError(error)), html);
          return { to: 'end' };
      }
    };

    let ready: string | undefined;
    for (;;) {
      const confirmationId = ready ?? (await confirmSummary());
      ready = undefined;
      if (confirmationId === undefined) return;
      const request: CreateRequest = { confirmationId, userId, chatId, info, draft: { ...draft }, t };
      const outcome = await conversation.external(() => createOnce(request));
      if (outcome.ok) {
        await showOrder(outcome.order);
        return;
      }
      const next = await handleFailure(outcome.error);
      if (next.to === 'end') return;
      if (next.to === 'create') ready = next.confirmationId;
    }
  };
}
