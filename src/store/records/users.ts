/**
 * Users: the bot's record of each Telegram user (no secrets), and the rules that make and change
 * one, shared by both engines. Every field added later is optional, so older data files need no migration.
 */
import { z } from 'zod';
import { localeSchema, type Locale } from '../../domain.ts';
import { isoDate, validated, withPatch } from './validation.ts';

/** How a customer receipt shows the target: whole, or `0812****7890`. */
export const targetStyles = ['full', 'masked'] as const;
export type TargetStyle = (typeof targetStyles)[number];

export const shopProfileSchema = z.object({
  name: z.string().min(1),
  address: z.string().min(1).optional(),
  footer: z.string().min(1).optional(),
  target: z.enum(targetStyles),
});
export type ShopProfile = z.infer<typeof shopProfileSchema>;
/**
 * A markup rule of /jual: a fixed amount of rupiah added to the cost, a percent of the cost (up to
 * two decimals), or (product overrides only) an exact sell price. Overrides may be negative.
 */
export const markupSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), amount: z.number().int() }),
  z.object({ kind: z.literal('percent'), percent: z.number() }),
  z.object({ kind: z.literal('price'), price: z.number().int().nonnegative() }),
]);
export type Markup = z.infer<typeof markupSchema>;

/**
 * A reseller's sell-price rules (/jual): the default markup, the step sell prices are rounded up
 * to (1 = not rounded), and overrides by brand (upper case) and by product code (upper case).
 */
export const sellRulesSchema = z.object({
  default: markupSchema.optional(),
  step: z.number().int().positive(),
  brands: z.record(z.string(), markupSchema),
  products: z.record(z.string(), markupSchema),
});
export type SellRules = z.infer<typeof sellRulesSchema>;

/** A downline level: a name and /jual-shaped rules that make a downline's price from the upline's cost. */
export const downlineLevelSchema = z.object({
  id: z.string().regex(/^[a-z0-9]{1,12}$/),
  name: z.string().min(1).max(24),
  rules: sellRulesSchema,
});
export type DownlineLevel = z.infer<typeof downlineLevelSchema>;

/** An invite link of an upline (`t.me/<bot>?start=dl_<upline>_<id>`): revocable, with an optional end and number of uses. */
export const downlineInviteSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9]{6,16}$/),
  createdAt: isoDate,
  expiresAt: isoDate.optional(),
  /** How many people may ask to join through it. */
  maxUses: z.number().int().positive().optional(),
  /** Join requests it brought (a user asking again counts once). */
  uses: z.number().int().nonnegative(),
  revokedAt: isoDate.optional(),
});
export type DownlineInvite = z.infer<typeof downlineInviteSchema>;

/** A user's request to join an upline, decided once: approved (with a level), declined, or void (they could no longer join). */
export const joinRequestSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9]{6,16}$/),
  userId: z.number().int(),
  firstName: z.string(),
  username: z.string().optional(),
  inviteId: z.string().min(1),
  at: isoDate,
  status: z.enum(['pending', 'approved', 'declined', 'void']),
  decidedAt: isoDate.optional(),
  levelId: z.string().optional(),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;

/** An upline's downline mode (/downline): levels (one the default), invites, and the join requests kept to answer old taps. */
export const downlineModeSchema = z.object({
  openedAt: isoDate,
  /** Requests are approved at once into the default level. */
  autoApprove: z.boolean(),
  defaultLevelId: z.string().min(1),
  levels: z.array(downlineLevelSchema).min(1),
  invites: z.array(downlineInviteSchema),
  requests: z.array(joinRequestSchema),
  /** Each settled purchase of a downline is posted to the upline's linked group (target masked, no amounts). */
  groupNotices: z.boolean().optional(),
  /** User ids of removed downlines, the most recent last (a bounded few): reports of all downlines still count their purchases. */
  formerDownlines: z.array(z.number().int()).optional(),
});
export type DownlineMode = z.infer<typeof downlineModeSchema>;

/**
 * A downline's deposit request (a "tiket deposit"): the amount asked, the code that makes the sum
 * to transfer unique among the upline's open requests, valid until `expiresAt`, decided once by
 * the upline. Accepting it credits the wallet with `total` under the ledger key `deposit:<id>`.
 */
export const depositRequestSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9]{6,16}$/),
  downlineId: z.number().int(),
  amount: z.number().int().positive(),
  /** 1..999, added to `amount`. */
  code: z.number().int().min(1).max(999),
  /** What the downline transfers and is credited: amount + code. */
  total: z.number().int().positive(),
  at: isoDate,
  expiresAt: isoDate,
  status: z.enum(['pending', 'accepted', 'rejected']),
  decidedAt: isoDate.optional(),
});
export type DepositRequest = z.infer<typeof depositRequestSchema>;

/** An upline's deposit desk: the payment instructions downlines are shown, and the deposit requests kept to answer taps. */
export const depositDeskSchema = z.object({
  /** Bank account, e-wallet or QRIS text, as the upline typed it (/carabayar). */
  payInfo: z.string().min(1).max(1000).optional(),
  requests: z.array(depositRequestSchema),
});
export type DepositDesk = z.infer<typeof depositDeskSchema>;

/** A downline's place under their one upline. */
export const membershipSchema = z.object({
  uplineId: z.number().int(),
  levelId: z.string().min(1),
  status: z.enum(['active', 'suspended']),
  joinedAt: isoDate,
  /** The request that made it (a second approval of it changes nothing). */
  requestId: z.string().min(1),
  /**
   * Integer rupiah the downline may spend per WIB day (see services/downline-spend.ts), set by the
   * upline; absent: no limit.
   */
  dailyLimit: z.number().int().positive().optional(),
});
export type Membership = z.infer<typeof membershipSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  username: z.string().optional(),
  /** The language the user chose with /language. */
  locale: localeSchema.optional(),
  /** The language of the user's Telegram app as last seen, when the bot speaks it: used when they chose none. */
  telegramLocale: localeSchema.optional(),
  /** False once the user blocked the bot; true again when they write. */
  active: z.boolean(),
  createdAt: isoDate,
  pin: z
    .object({
      hash: z.string().min(1),
      salt: z.string().min(1),
      failedAttempts: z.number().int().nonnegative(),
      lockedUntil: isoDate.optional(),
    })
    .optional(),
  /** Balance (rupiah) under which the user is alerted. */
  alertThreshold: z.number().nonnegative().optional(),
  /** Whether the next dip under the threshold alerts (re-armed when the balance recovers). */
  alertArmed: z.boolean().optional(),
  /** When the upline was last told their account refused a downline's purchase (one alert an hour). */
  downlineRefusalAlertAt: isoDate.optional(),
  linkedGroupId: z.number().int().optional(),
  /** Price-change alerts (/pantau) while subscribed: brands followed, lower case (empty: all); `group`: digest to the linked group too. */
  priceWatch: z.object({ brands: z.array(z.string().min(1)), group: z.boolean() }).optional(),
  isAdmin: z.boolean().optional(),
  /**
   * Set when the reseller provider refused this account on a re-check (401/403) or it was
   * disconnected: the settlement watcher leaves its transactions alone until the user connects
   * again, and the user was told once.
   */
  recheckPause: z.object({ reason: z.enum(['credentials', 'ip_blocked', 'not-connected']), since: isoDate }).optional(),
  /** Set while an admin has banned the user (/ban): they are told once, and served nothing else. */
  ban: z.object({ at: isoDate, by: z.number().int(), notified: z.boolean().optional() }).optional(),
  /** The reseller's shop as printed on customer receipts (/toko). */
  shop: shopProfileSchema.optional(),
  /** Sell-price rules (/jual). */
  sellRules: sellRulesSchema.optional(),
  /** Set while the user is an upline (/downline): their levels, invites and join requests. */
  downlineMode: downlineModeSchema.optional(),
  /** An upline's payment instructions and their downlines' deposit requests (the wallet service writes it). */
  depositDesk: depositDeskSchema.optional(),
  /** Set while the user is someone's downline (never together with `downlineMode`). */
  membership: membershipSchema.optional(),
  /** The opt-in daily summary (/summary): its WIB hour, and the WIB day it was last queued on (once a day, across restarts). */
  dailySummary: z
    .object({
      hour: z.number().int().min(0).max(23),
      lastSent: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional(),
    })
    .optional(),
});
export type UserRecord = z.infer<typeof userSchema>;

/** What Telegram tells us about a user on first contact. */
export interface NewUser {
  id: number;
  firstName: string;
  username?: string | undefined;
  locale?: Locale | undefined;
  /** The language of their Telegram app, when the bot speaks it. */
  telegramLocale?: Locale | undefined;
}

/** Changeable fields of a user; a field set to `undefined` is removed. */
export type UserPatch = Partial<Omit<UserRecord, 'id' | 'createdAt'>>;

/** Filter for list and count. */
export interface UserFilter {
  active?: boolean;
  /** Only the users with a price watch (`priceWatch` set): the file store reads only the shards whose header lists one. */
  priceWatchers?: true;
  /** Only the downlines of this upline (PostgreSQL reads them by an index). */
  uplineId?: number;
  /** Only the users this accepts; runs on the stored records before they are copied (it must not change one). */
  where?: (user: Readonly<UserRecord>) => boolean;
}

/** A new (active) user's record, validated. */
export function newUserRecord(input: NewUser, now: Date): UserRecord {
  const base = { id: input.id, firstName: input.firstName, active: true, createdAt: now.toISOString() };
  const optional = { username: input.username, locale: input.locale, telegramLocale: input.telegramLocale };
  return validated(userSchema, withPatch(base, optional), 'user');
}

/**
 * The language the bot speaks to `user` where no update tells it (the outbox, jobs, broadcasts,
 * /user): the one they chose, else their Telegram app's, else the bot's default.
 */
export function userLocale<D extends string>(
  user: Pick<UserRecord, 'locale' | 'telegramLocale'> | undefined,
  defaultLocale: D,
): Locale | D {
  return user?.locale ?? user?.telegramLocale ?? defaultLocale;
}

/** What a known user's next contact refreshes: names always, the locales when given. */
export function refreshPatch(input: NewUser): UserPatch {
  const patch: UserPatch = { firstName: input.firstName, username: input.username };
  if (input.locale !== undefined) patch.locale = input.locale;
  if (input.telegramLocale !== undefined) patch.telegramLocale = input.telegramLocale;
  return patch;
}

/** `existing` with `patch` applied (never its id or creation time), validated. */
export function patchedUser(existing: UserRecord, patch: UserPatch): UserRecord {
  const { id: _id, createdAt: _createdAt, ...changes } = patch as UserPatch & Partial<Pick<UserRecord, 'id' | 'createdAt'>>;
  return validated(userSchema, withPatch(existing, changes), 'user');
}

/** Whether `user` passes `filter` (active flag, price watch and predicate). */
export function matchesUserFilter(user: UserRecord, filter: UserFilter | undefined): boolean {
  return (
    (filter?.active === undefined || user.active === filter.active) &&
    (filter?.priceWatchers === undefined || user.priceWatch !== undefined) &&
    (filter?.uplineId === undefined || user.membership?.uplineId === filter.uplineId) &&
    (filter?.where === undefined || filter.where(user))
  );
}
