/**
 * The marketplace's wire formats (document 2, `marketplace-api.md`), parsed at the edge with zod.
 * Bodies are read as the spec documents them, with tolerances that change no meaning (each noted
 * where it applies): extra fields dropped, optional fields absent or `null`, amounts as numeric
 * strings and ids as digit strings (PHP backends), 0/1 flags, `[]` for an empty map; timestamps
 * must be dates but are kept verbatim.
 */
import { z } from 'zod';

/** A decimal amount: number, or a numeric string such as `"12.50"`. */
const decimal = z.union([
  z.number().finite(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** An integer id: number, or a digit string such as `"48201"`. */
const id = z.union([z.number().int(), z.string().trim().regex(/^\d+$/).transform(Number)]);

/** Spec says boolean; a backend without a cast sends 0/1, which mean the same. */
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((value) => value === true || value === 1);

/** A timestamp the spec gives as ISO 8601 (UTC); kept as sent, but it must be a date. */
const timestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)), { message: 'Expected an ISO 8601 timestamp' });

/** An optional string: absent or `null` both read as absent. */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined)
  .optional();

/** Network name → link. Open-ended; `[]` (an empty PHP array), absent or null read as `{}`. */
const socialLinks = z.preprocess(
  (value) => (value === undefined || value === null || (Array.isArray(value) && value.length === 0) ? {} : value),
  z
    .record(z.string(), z.string().nullable())
    .transform((links) => Object.fromEntries(Object.entries(links).filter((entry): entry is [string, string] => entry[1] !== null))),
);

/** `data` of GET /api/account/details: the seller who owns the api key. */
export const accountSchema = z.object({
  name: z.object({
    firstname: z.string(),
    lastname: z.string(),
    full_name: z.string(),
  }),
  username: z.string(),
  email: z.string(),
  balance: decimal,
  /** Currency code, e.g. `USD`. */
  currency: z.string(),
  profile: z.object({
    heading: z.string(),
    description: z.string(),
    contact: z.object({ email: z.string() }),
    social_links: socialLinks,
    media: z.object({ avatar: z.string(), cover: z.string() }),
  }),
  registered_at: timestamp,
});

/** One catalogue item (GET /api/items/all and /api/items/item). */
export const itemSchema = z.object({
  id,
  name: z.string(),
  description: z.string(),
  category: z.string(),
  sub_category: z.string(),
  options: z.array(z.string()),
  /** Dotted version such as `2.4.1`; kept verbatim. */
  version: z.string(),
  demo_link: z.string(),
  tags: z.array(z.string()),
  media: z.object({
    thumbnail: z.string(),
    /** Omitted for audio items. */
    preview_image: optionalText,
    /** Present only for video items. */
    preview_video: optionalText,
    /** Present only for audio items. */
    preview_audio: optionalText,
    screenshots: z
      .array(z.string())
      .nullish()
      .transform((value) => value ?? []),
  }),
  price: z.object({ regular: decimal, extended: decimal }),
  currency: z.string(),
  published_at: timestamp,
});

/** `data.purchase` of POST /api/purchases/validation. */
export const purchaseSchema = z.object({
  purchase_code: z.string(),
  /** `Regular` in the spec's sample; other values are kept verbatim. */
  license_type: z.string(),
  price: decimal,
  currency: z.string(),
  item: z.object({
    id,
    name: z.string(),
    url: z.string(),
    media: z
      .object({
        /** The spec lists it, but an audio item has no preview image, so it may be absent. */
        preview_image: optionalText,
      })
      .nullish()
      .transform((value) => value ?? {}),
  }),
  /** Omitted when support is disabled or the purchase is not supported. */
  supported_until: timestamp
    .nullish()
    .transform((value) => value ?? undefined)
    .optional(),
  downloaded: flag,
  date: timestamp,
});

/** 200 body of GET /api/account/details. */
export const accountDetailsResponseSchema = z.object({
  status: z.literal('success'),
  data: accountSchema,
});

/** 200 body of GET /api/items/all. */
export const itemsResponseSchema = z.object({
  status: z.literal('success'),
  items: z.array(itemSchema),
});

/** 200 body of GET /api/items/item. */
export const itemResponseSchema = z.object({
  status: z.literal('success'),
  item: itemSchema,
});

/** 200 body of POST /api/purchases/validation. */
export const validationResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ purchase: purchaseSchema }),
});

/** Every failure: `{ status: 'error', msg }`. `msg` is optional here so a bare error still reads as one. */
export const errorBodySchema = z.object({
  status: z.literal('error'),
  msg: z.string().optional().catch(undefined),
});

export type Account = z.infer<typeof accountSchema>;
export type Item = z.infer<typeof itemSchema>;
export type Purchase = z.infer<typeof purchaseSchema>;

/** Whether a purchase still has support: `none` when `supported_until` is absent. */
export type SupportState = 'active' | 'expired' | 'none';

/**
 * Tells whether a purchase's support is active at `now` (ms since epoch), expired, or was never
 * included (`supported_until` omitted by the marketplace).
 */
export function supportStateOf(purchase: Pick<Purchase, 'supported_until'>, now: number): SupportState {
  if (purchase.supported_until === undefined) return 'none';
  return Date.parse(purchase.supported_until) > now ? 'active' : 'expired';
}
