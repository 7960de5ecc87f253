/**
 * The game shop's wire formats (document 3, `gameshop-api.md`), parsed at the edge with zod, with a
 * little tolerance where a Laravel backend commonly deviates without changing the meaning (noted on
 * each field). The order request is validated here too, before anything is sent, keyed by the
 * spec's field names, as the provider's own 422 `errors` are.
 */
import { z } from 'zod';

/** A display-only text: the spec says string; `null` (common for empty Laravel columns) reads as ''. */
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** Spec says boolean; a backend without a model cast sends 0/1, which mean the same. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((value) => value === true || value === 1);

const integer = z.number().int();
/** Whole rupiah, never negative. */
const rupiah = z.number().int().nonnegative();

const gameCategorySchema = z.object({
  id: integer,
  title: z.string(),
});

/** One game of GET /games: `category` is in `games` elements, not in `populerGames` (the spec's spelling). */
export const gameSchema = z.object({
  id: integer,
  image: text,
  banner: text,
  title: z.string(),
  developers: text,
  brand: text,
  category_id: integer,
  /** Unique slug, sent as `game` when ordering. */
  slug: z.string().min(1),
  description: text,
  status: flag,
  populer: flag,
  sort: integer,
  category: gameCategorySchema.optional(),
});

const listedGameSchema = gameSchema.extend({ category: gameCategorySchema });

/** 200 body of GET /games. */
export const gamesResponseSchema = z.object({
  success: z.literal(true),
  games: z.array(listedGameSchema),
  populerGames: z.array(gameSchema),
});

/** `data.pricing` of a created order. All amounts are integer rupiah. */
export const pricingSchema = z.object({
  quantity: integer.positive(),
  has_promo: flag,
  /** Spec says string; `null` when no promo was applied is read as ''. */
  promo_code: text,
  unit_price_before_promo: rupiah,
  unit_discount: rupiah,
  unit_price_after_promo: rupiah,
  subtotal_before_promo: rupiah,
  promo_discount: rupiah,
  subtotal_after_promo: rupiah,
  payment_fee: rupiah,
  unique_code: rupiah,
  total_price: rupiah,
});

/** `data` of a created order. */
export const gameOrderSchema = z.object({
  order_id: z.string().min(1),
  /** `UNPAID` for a new order; other values are kept verbatim. */
  payment_status: z.string(),
  /** `Pending` for a new order; other values are kept verbatim. */
  buy_status: z.string(),
  payment_url: z.string(),
  /** Virtual-account number or pay code; may be '' when the method pays through `payment_url` only. */
  payment_code: z.string(),
  payment_reference: z.string(),
  qr_url: z.string().nullable(),
  /** ISO 8601 with a UTC offset, e.g. `2025-01-31T14:00:00+07:00`. */
  expired_at: z.iso.datetime({ offset: true }),
  quantity: integer.positive(),
  total_price: rupiah,
  pricing: pricingSchema,
});

/** 201 body of POST /order. */
export const orderResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  orderId: z.string().min(1),
  data: gameOrderSchema,
});

/** The error bodies the spec shows (`{ message }`, `{ success:false, message, error_code, errors }`, 422): all optional. */
export const errorBodySchema = z.object({
  message: z.string().optional().catch(undefined),
  error_code: z.string().optional().catch(undefined),
  errors: z
    .record(z.string(), z.union([z.array(z.string()), z.string()]))
    .optional()
    .catch(undefined),
});

export type Game = z.infer<typeof gameSchema>;
export type Pricing = z.infer<typeof pricingSchema>;
export type GameOrder = z.infer<typeof gameOrderSchema>;

const required = (field: string) => `The ${field} field is required.`;

/** A required text field: trimmed, non-empty. */
const requiredText = (field: string) =>
  z
    .string({
      error: (issue) => (issue.input === undefined || issue.input === null ? required(field) : `The ${field} field must be a string.`),
    })
    .trim()
    .min(1, { error: required(field), abort: true });

/** An optional text field: trimmed; blank means absent (and is then not sent). */
const optionalText = (field: string) =>
  z
    .string({ error: `The ${field} field must be a string.` })
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value));

const positiveId = (field: string) =>
  z
    .number({
      error: (issue) => (issue.input === undefined || issue.input === null ? required(field) : `The ${field} field must be an integer.`),
    })
    .int({ error: `The ${field} field must be an integer.` })
    .positive({ error: `The ${field} field must be a positive integer.` });

/**
 * An Indonesian mobile number in the local form `08…` every Indonesian checkout accepts: separators
 * dropped, `+62` / `62` (or a bare leading `8`) becomes `0`; undefined unless 10–13 digits from
 * `08` (another country's number is refused rather than guessed at).
 */
export function normaliseWhatsapp(raw: string): string | undefined {
  const compact = raw.trim().replace(/[\s().-]/g, '');
  let local: string;
  if (/^\+?628\d+$/.test(compact)) local = `0${compact.replace(/^\+?62/, '')}`;
  else if (/^8\d+$/.test(compact)) local = `0${compact}`;
  else local = compact;
  return /^08[1-9]\d{7,10}$/.test(local) ? local : undefined;
}

/** Slugs are lowercase words joined by dashes (`mobile-legends`); a title (`Mobile Legends`) is refused. */
export const slugPattern = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

/**
 * The body of POST /order, checked before sending; issue paths double as `GameshopError.fieldErrors`
 * keys. Text is trimmed and blank optional fields dropped; `quantity` defaults to 1 so it is always
 * sent; `promo_code` goes as typed (case is the shop's business).
 */
export const orderInputSchema = z.object({
  id: requiredText('id'),
  server: optionalText('server'),
  game: requiredText('game').refine((value) => slugPattern.test(value), {
    error: "The game field must be the game's slug (for example mobile-legends), not its title.",
  }),
  product_id: positiveId('product id'),
  payment_method_id: positiveId('payment method id'),
  email: optionalText('email').pipe(z.email({ error: 'The email field must be a valid email address.' }).optional()),
  whatsapp: requiredText('whatsapp').transform((value, ctx) => {
    const normalised = normaliseWhatsapp(value);
    if (normalised === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'The whatsapp field must be an Indonesian mobile number, for example 081234567890 or +6281234567890.',
      });
      return z.NEVER;
    }
    return normalised;
  }),
  nickname: optionalText('nickname'),
  promo_code: optionalText('promo code'),
  quantity: z
    .number({ error: 'The quantity field must be an integer.' })
    .int({ error: 'The quantity field must be an integer.' })
    .min(1, { error: 'The quantity field must be at least 1.' })
    .default(1),
});

/** What a caller passes to `createOrder` (`quantity` optional, defaulting to 1). */
export type OrderInput = z.input<typeof orderInputSchema>;
