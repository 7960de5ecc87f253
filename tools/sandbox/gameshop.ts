/**
 * A faithful simulation of the game top-up shop (document 3, `gameshop-api.md`): GET /games and
 * POST /order over in-memory state, answered the way the Laravel service behind the spec does
 * (header-key auth, Laravel-style 422 bodies, the general error envelope, 201 with a full price
 * breakdown). Paths are below the `/api` prefix; the sandbox server strips `/gameshop/api`.
 *
 * Where the spec says "not shown", the choices made here are:
 * - quantity is limited to 1..100 (a 422 field error beyond that);
 * - a game that needs a server answers a 422 field error on `server` when it is missing or not one
 *   of the game's servers;
 * - promo discounts apply per unit (`unit_discount` × quantity = `promo_discount`); an unknown,
 *   expired or inapplicable code is one 422 `Kode promo tidak valid`;
 * - payment fee = flat + ceil(percent × subtotal after promo);
 *   total = subtotal after promo + fee + unique code (1..999, from the seeded generator);
 * - `payment_code` is a QRIS payload for QRIS, the virtual-account number for banks and '' for
 *   e-wallets (they pay through `payment_url`); only QRIS has a `qr_url`;
 * - URLs point at `publicUrl` (default `https://gameshop.sandbox.test`, a name that never resolves).
 */
import { z } from 'zod';
import { checkUnique, commentField, loadDemoData } from './data.ts';
import type { SandboxRequest, SandboxResponse, SimulatedService } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Demo data (tools/sandbox/records/gameshop.json)
// ---------------------------------------------------------------------------------------------

export interface GameshopDemoProduct {
  id: number;
  name: string;
  /** Unit price in rupiah. */
  price: number;
}

export interface GameshopDemoGame {
  id: number;
  slug: string;
  title: string;
  developers: string;
  brand: string;
  category_id: number;
  description: string;
  /** Inactive games are not listed and cannot be ordered. */
  status: boolean;
  populer: boolean;
  sort: number;
  /** What the game calls the `id` field (shown to users). */
  idLabel: string;
  /** Set when an order must carry `server`; `servers` lists the accepted values when they are fixed. */
  server?: { label: string; servers?: string[] };
  products: GameshopDemoProduct[];
}

export type GameshopPaymentKind = 'qris' | 'virtual_account' | 'ewallet';

export interface GameshopDemoPaymentMethod {
  id: number;
  name: string;
  kind: GameshopPaymentKind;
  /** Fee charged on the subtotal after promo: `flat + ceil(subtotal × percent / 100)` rupiah. */
  fee: { flat: number; percent: number };
}

export interface GameshopDemoCatalogue {
  categories: Array<{ id: number; title: string }>;
  games: GameshopDemoGame[];
  paymentMethods: GameshopDemoPaymentMethod[];
}

export interface GameshopDemoPromo {
  code: string;
  /** Per-unit discount: a percentage of the unit price (capped by `maxUnitDiscount`) or a flat amount. */
  discount: { percent: number; maxUnitDiscount?: number } | { flat: number };
  /** The promo applies only from this unit price on. */
  minUnitPrice?: number;
  /** ISO 8601; the promo is refused after this instant. */
  validUntil?: string;
}

const rupiah = z.number().int().nonnegative();

const gameSchema = z.strictObject({
  id: z.number().int().positive(),
  slug: z.string().regex(/^[a-z0-9-]+$/, 'a lowercase slug (a-z, 0-9, -)'),
  title: z.string().min(1),
  developers: z.string(),
  brand: z.string(),
  category_id: z.number().int(),
  description: z.string(),
  status: z.boolean(),
  populer: z.boolean(),
  sort: z.number().int(),
  idLabel: z.string().min(1),
  server: z.strictObject({ label: z.string().min(1), servers: z.array(z.string().min(1)).min(1).optional() }).optional(),
  products: z.array(z.strictObject({ id: z.number().int().positive(), name: z.string().min(1), price: rupiah })).min(1),
}) satisfies z.ZodType<GameshopDemoGame>;

const catalogueSchema = z.strictObject({
  categories: z.array(z.strictObject({ id: z.number().int(), title: z.string().min(1) })),
  games: z.array(gameSchema).min(1),
  paymentMethods: z
    .array(
      z.strictObject({
        id: z.number().int().positive(),
        name: z.string().min(1),
        kind: z.enum(['qris', 'virtual_account', 'ewallet']),
        fee: z.strictObject({ flat: rupiah, percent: z.number().nonnegative() }),
      }),
    )
    .min(1),
}) satisfies z.ZodType<GameshopDemoCatalogue>;

const promoSchema = z.strictObject({
  code: z.string().min(1),
  discount: z.union([
    z.strictObject({ percent: z.number().positive().max(100), maxUnitDiscount: rupiah.optional() }),
    z.strictObject({ flat: rupiah }),
  ]),
  minUnitPrice: rupiah.optional(),
  validUntil: z.iso.datetime({ offset: true }).optional(),
}) satisfies z.ZodType<GameshopDemoPromo>;

/** The shape of `data/gameshop.json`; the named keys are the ones tests and the README use. */
export const gameshopDemoDataSchema = z
  .strictObject({
    ...commentField,
    keys: z.strictObject({ main: z.string().min(1), second: z.string().min(1) }),
    catalogue: catalogueSchema,
    promos: z.array(promoSchema),
  })
  .superRefine((data, context) => {
    const { categories, games, paymentMethods } = data.catalogue;
    checkUnique(
      context,
      categories.map((c) => c.id),
      (i) => ['catalogue', 'categories', i, 'id'],
      'category id',
    );
    checkUnique(
      context,
      games.map((g) => g.id),
      (i) => ['catalogue', 'games', i, 'id'],
      'game id',
    );
    checkUnique(
      context,
      games.map((g) => g.slug),
      (i) => ['catalogue', 'games', i, 'slug'],
      'game slug',
    );
    checkUnique(
      context,
      games.flatMap((g) => g.products.map((p) => p.id)),
      () => ['catalogue', 'games'],
      'product id',
    );
    checkUnique(
      context,
      paymentMethods.map((m) => m.id),
      (i) => ['catalogue', 'paymentMethods', i, 'id'],
      'payment method id',
    );
    checkUnique(
      context,
      data.promos.map((p) => p.code.toUpperCase()),
      (i) => ['promos', i, 'code'],
      'promo code',
    );
    games.forEach((game, i) => {
      if (!categories.some((c) => c.id === game.category_id)) {
        context.addIssue({
          code: 'custom',
          path: ['catalogue', 'games', i, 'category_id'],
          message: `no category has id ${game.category_id}`,
        });
      }
    });
  });

const gameshopDemoData = loadDemoData('gameshop.json', gameshopDemoDataSchema);

/** API keys the simulator accepts by default (sandbox only; not secrets). */
export const gameshopDemoKeys = gameshopDemoData.keys;

/**
 * The simulator's catalogue: categories, games with their products, and payment methods. The API
 * itself only lists games; products and payment methods are what an operator's catalogue file
 * would describe (DESIGN.md), so a sample file can be generated from this object.
 */
export const gameshopDemoCatalogue: GameshopDemoCatalogue = gameshopDemoData.catalogue;

/** Promo codes the simulator knows (matched case-insensitively). `LEBARAN2024` has expired. */
export const gameshopDemoPromos: GameshopDemoPromo[] = gameshopDemoData.promos;

// ---------------------------------------------------------------------------------------------
// Simulator
// ---------------------------------------------------------------------------------------------

export interface GameshopSimOptions {
  /** Clock for `expired_at`, order ids and promo expiry; default `Date.now`. */
  now?: () => number;
  /** How long an order can be paid; default one hour. */
  expiresInMs?: number;
  /** Seed for unique codes, VA numbers and references; random when omitted. */
  seed?: number;
  /** Accepted X-API-KEY values; default both `gameshopDemoKeys`. */
  apiKeys?: string[];
  /** Origin of the payment / QR URLs in orders; default `https://gameshop.sandbox.test`. */
  publicUrl?: string;
}

/** Pricing as the simulator puts it on the wire. */
export interface GameshopSimPricing {
  quantity: number;
  has_promo: boolean;
  promo_code: string;
  unit_price_before_promo: number;
  unit_discount: number;
  unit_price_after_promo: number;
  subtotal_before_promo: number;
  promo_discount: number;
  subtotal_after_promo: number;
  payment_fee: number;
  unique_code: number;
  total_price: number;
}

/** `data` of a created order as the simulator puts it on the wire. */
export interface GameshopSimOrderData {
  order_id: string;
  payment_status: string;
  buy_status: string;
  payment_url: string;
  payment_code: string;
  payment_reference: string;
  qr_url: string | null;
  expired_at: string;
  quantity: number;
  total_price: number;
  pricing: GameshopSimPricing;
}

/** One created order, for tests to inspect. */
export interface GameshopSimOrder {
  orderId: string;
  /** The key the order was created with. */
  apiKey: string;
  /** The request body exactly as parsed off the wire. */
  request: unknown;
  data: GameshopSimOrderData;
  createdAt: number;
}

export interface GameshopSim extends SimulatedService {
  /** Orders created so far (201 answers only), oldest first. */
  orders(): GameshopSimOrder[];
}

type Json = Record<string, unknown>;

const wibOffsetMs = 7 * 60 * 60 * 1000;

/**
 * Creates the game shop simulator. Its `handle` answers GET `/games` and POST `/order` (paths
 * below the API prefix); everything else is Laravel's 404/405. State lives in memory.
 */
export function createGameshopSim(options: GameshopSimOptions = {}): GameshopSim {
  const now = options.now ?? Date.now;
  const expiresInMs = options.expiresInMs ?? 60 * 60 * 1000;
  const keys = new Set(options.apiKeys ?? Object.values(gameshopDemoKeys));
  const publicUrl = (options.publicUrl ?? 'https://gameshop.sandbox.test').replace(/\/+$/, '');
  const random = mulberry32(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const catalogue = gameshopDemoCatalogue;
  const created: GameshopSimOrder[] = [];

  const categoryOf = (game: GameshopDemoGame) => {
    const category = catalogue.categories.find((c) => c.id === game.category_id);
    return { id: game.category_id, title: category?.title ?? '' };
  };
  const activeGames = () => catalogue.games.filter((g) => g.status).sort((a, b) => a.sort - b.sort);

  function listGames(): SandboxResponse {
    const games = activeGames().map((game) => ({ ...gameRecord(game, publicUrl), category: categoryOf(game) }));
    const populerGames = activeGames()
      .filter((game) => game.populer)
      .map((game) => gameRecord(game, publicUrl));
    return { status: 200, body: { success: true, games, populerGames } };
  }

  function createOrder(request: SandboxRequest, apiKey: string): SandboxResponse {
    const input: Json = isRecord(request.body) ? request.body : {};
    const checked = validate(input);
    if ('errors' in checked) return validationError(checked.errors);
    const order = checked.value;

    const game = catalogue.games.find((g) => g.slug === order.game && g.status);
    if (!game) return notFound('Game tidak ditemukan');
    if (game.server) {
      if (order.server === undefined) return validationError({ server: [`The server field is required for ${game.title}.`] });
      if (game.server.servers && !game.server.servers.includes(order.server)) {
        return validationError({ server: ['The selected server is invalid.'] });
      }
    }
    const owner = catalogue.games.find((g) => g.products.some((p) => p.id === order.product_id));
    const product = owner?.products.find((p) => p.id === order.product_id);
    if (!owner || !product) return notFound('Produk tidak ditemukan');
    if (owner.id !== game.id) return { status: 422, body: { success: false, message: 'Produk tidak sesuai dengan game' } };
    const method = catalogue.paymentMethods.find((m) => m.id === order.payment_method_id);
    if (!method) return notFound('Metode pembayaran tidak ditemukan');

    let promo: GameshopDemoPromo | undefined;
    if (order.promo_code !== undefined) {
      promo = findPromo(order.promo_code, product.price, now());
      if (!promo) return { status: 422, body: { success: false, message: 'Kode promo tidak valid' } };
    }

    const pricing = price(product.price, order.quantity, promo, method, 1 + Math.floor(random() * 999));
    const at = now();
    const sequence = created.length + 1;
    const orderId = `INV-${wibDate(at)}-${String(sequence).padStart(4, '0')}${randomCode(random, 4)}`;
    const reference = `T${wibDate(at).slice(2)}${String(sequence).padStart(4, '0')}${randomDigits(random, 6)}`;
    const payment = paymentDetails(method, orderId, reference, pricing.total_price, publicUrl, random);
    const data: GameshopSimOrderData = {
      order_id: orderId,
      payment_status: 'UNPAID',
      buy_status: 'Pending',
      payment_url: payment.url,
      payment_code: payment.code,
      payment_reference: reference,
      qr_url: payment.qrUrl,
      expired_at: wibIso(at + expiresInMs),
      quantity: order.quantity,
      total_price: pricing.total_price,
      pricing,
    };
    created.push({ orderId, apiKey, request: structuredClone(request.body), data: structuredClone(data), createdAt: at });
    return { status: 201, body: { success: true, message: 'Order created', orderId, data } };
  }

  return {
    handle(request) {
      const route = routes[request.path];
      if (!route) return { status: 404, body: { message: `The route api${request.path} could not be found.` } };
      if (request.method !== route) {
        return {
          status: 405,
          body: { message: `The ${request.method} method is not supported for route api${request.path}. Supported methods: ${route}.` },
        };
      }
      const apiKey = request.headers['x-api-key']?.trim() ?? '';
      if (!keys.has(apiKey)) return { status: 401, body: { message: 'Unauthorized' } };
      return request.path === '/games' ? listGames() : createOrder(request, apiKey);
    },
    orders: () => created.map((order) => structuredClone(order)),
  };
}

const routes: Record<string, 'GET' | 'POST'> = { '/games': 'GET', '/order': 'POST' };

function gameRecord(game: GameshopDemoGame, publicUrl: string) {
  return {
    id: game.id,
    image: `${publicUrl}/storage/games/${game.slug}.webp`,
    banner: `${publicUrl}/storage/banners/${game.slug}.webp`,
    title: game.title,
    developers: game.developers,
    brand: game.brand,
    category_id: game.category_id,
    slug: game.slug,
    description: game.description,
    status: game.status,
    populer: game.populer,
    sort: game.sort,
  };
}

// --- validation (Laravel rules and messages) -------------------------------------------------

interface ValidOrder {
  id: string;
  server: string | undefined;
  game: string;
  product_id: number;
  payment_method_id: number;
  email: string | undefined;
  whatsapp: string;
  nickname: string | undefined;
  promo_code: string | undefined;
  quantity: number;
}

const whatsappPattern = /^(\+62|62|0)8[1-9][0-9]{6,11}$/;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Applies the order rules in field order, like a Laravel FormRequest: strings are trimmed and
 * blank ones count as absent (TrimStrings + ConvertEmptyStringsToNull); `integer` accepts whole
 * numbers and digit strings.
 */
function validate(input: Json): { value: ValidOrder } | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const label = (field: string) => field.replace(/_/g, ' ');

  const text = (field: string, required: boolean, max: number): string | undefined => {
    let value = input[field];
    if (typeof value === 'string') value = value.trim() === '' ? undefined : value.trim();
    if (value === undefined || value === null) {
      if (required) fail(field, `The ${label(field)} field is required.`);
      return undefined;
    }
    if (typeof value !== 'string') return void fail(field, `The ${label(field)} field must be a string.`);
    if (value.length > max) return void fail(field, `The ${label(field)} field must not be greater than ${max} characters.`);
    return value;
  };
  const integer = (field: string, required: boolean, min: number, max: number): number | undefined => {
    let value = input[field];
    if (typeof value === 'string') value = value.trim() === '' ? undefined : value.trim();
    if (value === undefined || value === null) {
      if (required) fail(field, `The ${label(field)} field is required.`);
      return undefined;
    }
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number)) return void fail(field, `The ${label(field)} field must be an integer.`);
    if (number < min) return void fail(field, `The ${label(field)} field must be at least ${min}.`);
    if (number > max) return void fail(field, `The ${label(field)} field must not be greater than ${max}.`);
    return number;
  };

  const id = text('id', true, 64);
  const server = text('server', false, 32);
  const game = text('game', true, 100);
  const productId = integer('product_id', true, 1, Number.MAX_SAFE_INTEGER);
  const paymentMethodId = integer('payment_method_id', true, 1, Number.MAX_SAFE_INTEGER);
  const email = text('email', false, 255);
  if (email !== undefined && !emailPattern.test(email)) fail('email', 'The email field must be a valid email address.');
  const whatsapp = text('whatsapp', true, 20);
  if (whatsapp !== undefined && !whatsappPattern.test(whatsapp)) fail('whatsapp', 'The whatsapp field format is invalid.');
  const nickname = text('nickname', false, 100);
  const promoCode = text('promo_code', false, 50);
  const quantity = integer('quantity', false, 1, 100) ?? 1;

  if (Object.keys(errors).length > 0) return { errors };
  return {
    value: {
      id: id!,
      server,
      game: game!,
      product_id: productId!,
      payment_method_id: paymentMethodId!,
      email,
      whatsapp: whatsapp!,
      nickname,
      promo_code: promoCode,
      quantity,
    },
  };
}

/** Laravel's 422: the first message plus "(and N more error(s))", in the general envelope. */
function validationError(errors: Record<string, string[]>): SandboxResponse {
  const messages = Object.values(errors).flat();
  const others = messages.length - 1;
  const suffix = others > 0 ? ` (and ${others} more error${others === 1 ? '' : 's'})` : '';
  return {
    status: 422,
    body: { success: false, message: `${messages[0] ?? 'The given data was invalid.'}${suffix}`, error_code: 'VALIDATION_ERROR', errors },
  };
}

function notFound(message: string): SandboxResponse {
  return { status: 404, body: { success: false, message, error_code: 'NOT_FOUND', errors: {} } };
}

// --- pricing ---------------------------------------------------------------------------------

function findPromo(code: string, unitPrice: number, at: number): GameshopDemoPromo | undefined {
  const promo = gameshopDemoPromos.find((p) => p.code.toUpperCase() === code.toUpperCase());
  if (!promo) return undefined;
  if (promo.validUntil !== undefined && at > Date.parse(promo.validUntil)) return undefined;
  if (promo.minUnitPrice !== undefined && unitPrice < promo.minUnitPrice) return undefined;
  return promo;
}

/**
 * The breakdown: discount per unit, subtotals, fee on the discounted subtotal, then the unique
 * code. Every amount is whole rupiah and `total_price = subtotal_after_promo + payment_fee + unique_code`.
 */
function price(
  unitPrice: number,
  quantity: number,
  promo: GameshopDemoPromo | undefined,
  method: GameshopDemoPaymentMethod,
  uniqueCode: number,
): GameshopSimPricing {
  let unitDiscount = 0;
  if (promo && 'flat' in promo.discount) unitDiscount = promo.discount.flat;
  if (promo && 'percent' in promo.discount) {
    unitDiscount = Math.floor((unitPrice * promo.discount.percent) / 100);
    if (promo.discount.maxUnitDiscount !== undefined) unitDiscount = Math.min(unitDiscount, promo.discount.maxUnitDiscount);
  }
  unitDiscount = Math.min(unitDiscount, unitPrice);
  const unitAfter = unitPrice - unitDiscount;
  const subtotalBefore = unitPrice * quantity;
  const promoDiscount = unitDiscount * quantity;
  const subtotalAfter = subtotalBefore - promoDiscount;
  const fee = method.fee.flat + Math.ceil((subtotalAfter * method.fee.percent) / 100);
  return {
    quantity,
    has_promo: promo !== undefined,
    promo_code: promo?.code ?? '',
    unit_price_before_promo: unitPrice,
    unit_discount: unitDiscount,
    unit_price_after_promo: unitAfter,
    subtotal_before_promo: subtotalBefore,
    promo_discount: promoDiscount,
    subtotal_after_promo: subtotalAfter,
    payment_fee: fee,
    unique_code: uniqueCode,
    total_price: subtotalAfter + fee + uniqueCode,
  };
}

const vaPrefixes: Record<number, string> = { 2: '70012', 3: '88810', 4: '89608', 5: '98801' };

function paymentDetails(
  method: GameshopDemoPaymentMethod,
  orderId: string,
  reference: string,
  amount: number,
  publicUrl: string,
  random: () => number,
): { url: string; code: string; qrUrl: string | null } {
  switch (method.kind) {
    case 'qris':
      return { url: `${publicUrl}/invoice/${orderId}`, code: qrisPayload(reference, amount), qrUrl: `${publicUrl}/qr/${reference}.png` };
    case 'virtual_account':
      return {
        url: `${publicUrl}/invoice/${orderId}`,
        code: `${vaPrefixes[method.id] ?? '77777'}${randomDigits(random, 11)}`,
        qrUrl: null,
      };
    case 'ewallet':
      return { url: `${publicUrl}/checkout/${method.name.toLowerCase()}/${reference}`, code: '', qrUrl: null };
  }
}

/** A dynamic QRIS payload (EMVCo TLV with CRC-16/CCITT), so a client could render the QR itself. */
function qrisPayload(reference: string, amount: number): string {
  const tlv = (tag: string, value: string) => `${tag}${String(value.length).padStart(2, '0')}${value}`;
  const merchant = tlv('00', 'ID.CO.QRIS.WWW') + tlv('01', '936009150000000000') + tlv('02', 'ID1020000000001') + tlv('03', 'UMI');
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', merchant) +
    tlv('52', '5816') +
    tlv('53', '360') +
    tlv('54', String(amount)) +
    tlv('58', 'ID') +
    tlv('59', 'GAMESHOP SANDBOX') +
    tlv('60', 'JAKARTA') +
    tlv('62', tlv('05', reference)) +
    '6304';
  return body + crc16(body).toString(16).toUpperCase().padStart(4, '0');
}

function crc16(input: string): number {
  let crc = 0xffff;
  for (const byte of Buffer.from(input, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

// --- helpers ---------------------------------------------------------------------------------

/** `2025-01-31T14:00:00+07:00`: the instant in Western Indonesia Time, as the shop writes it. */
function wibIso(ms: number): string {
  return new Date(ms + wibOffsetMs).toISOString().replace(/\.\d{3}Z$/, '+07:00');
}

/** `20250131`: the WIB calendar date. */
function wibDate(ms: number): string {
  return new Date(ms + wibOffsetMs).toISOString().slice(0, 10).replace(/-/g, '');
}

/** Small seeded PRNG (mulberry32): the same seed gives the same unique codes and numbers. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomDigits(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += String(Math.floor(random() * 10));
  return out;
}

function randomCode(random: () => number, length: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
