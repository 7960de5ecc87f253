import { z } from 'zod';
import { localeSchema, serviceNameSchema } from '../domain.ts';
import type { Decoded } from './durable-file.ts';
import { StoreVersionError } from './errors.ts';

/*
 * The hot file `kiosbot.json` holds what must change together in one atomic write and keeps it
 * small: open transactions and purchase confirmations, pending notifications, linked groups, game
 * orders and the key check value. Users, their sealed credentials and their sealed conversation
 * states live in shard files `users/NNN.json` by user id (user-shards.ts), so one user's change
 * rewrites one small file. Settled transactions live in `history/YYYY-MM.jsonl`, append-only
 * segments (one record per line, see history.ts); `history/YYYY-MM.json` (historyFileSchema) is
 * the format of before, converted on open.
 *
 * To change the hot file's shape: bump `hotFileVersion`, change the schemas below to the new
 * shape, and append a migration `{ from: old, to: old + 1, up }` to `hotFileMigrations` that turns
 * the previous version's JSON into the new one. Migrations work on plain JSON, never on these
 * types, because the types always describe the newest version.
 */

/** Current data version of the hot file. */
export const hotFileVersion = 4;
/**
 * Current data version of history files: 2 is the append-only segment `history/YYYY-MM.jsonl`
 * (its header line carries the version); 1 was the whole-month JSON `history/YYYY-MM.json`,
 * converted to a segment on open.
 */
export const historyFileVersion = 2;
/** Data version of the whole-month JSON history files of before (`history/YYYY-MM.json`). */
export const legacyHistoryFileVersion = 1;

const isoDate = z.iso.datetime({ offset: true });

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

export const userSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  username: z.string().optional(),
  /** The language the user chose with /language. */
  locale: localeSchema.optional(),
  /**
   * The language of the user's Telegram app as last seen, when the bot speaks it: what the bot
   * speaks to a user who did not choose one, in chat and in what it sends on its own.
   */
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
  linkedGroupId: z.number().int().optional(),
  /**
   * Price-change alerts (/pantau): set while the user is subscribed. `brands` holds the brands
   * followed, lower case (empty: every brand); `group` also sends the digest to the linked group.
   * Optional, so data files without it need no migration.
   */
  priceWatch: z.object({ brands: z.array(z.string().min(1)), group: z.boolean() }).optional(),
  isAdmin: z.boolean().optional(),
  /**
   * Set when the reseller provider refused this account on a re-check (401/403) or it was
   * disconnected: the settlement watcher leaves its transactions alone until the user connects
   * again, and the user was told once. Optional, so data files without it need no migration.
   */
  recheckPause: z.object({ reason: z.enum(['credentials', 'ip_blocked', 'not-connected']), since: isoDate }).optional(),
  /**
   * Set while an admin has banned the user (/ban): the bot answers them once that they are banned
   * and serves them nothing else. Optional, so data files without it need no migration.
   */
  ban: z.object({ at: isoDate, by: z.number().int(), notified: z.boolean().optional() }).optional(),
  /**
   * The reseller's shop as printed on customer receipts (/toko): name, address line, footer and
   * whether the target is shown whole or with its middle hidden. Optional, so data files without
   * it need no migration.
   */
  shop: shopProfileSchema.optional(),
  /** Sell-price rules (/jual). Optional, so data files without them need no migration. */
  sellRules: sellRulesSchema.optional(),
  /**
   * The opt-in daily summary (/summary): the WIB hour it is sent at, and the WIB day (`YYYY-MM-DD`)
   * it was last queued on, so it goes out once a day, also across restarts. Optional, so data files
   * without it need no migration.
   */
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

export const credentialSchema = z.object({
  service: serviceNameSchema,
  /** Vault token of the JSON of the secret fields. */
  sealed: z.string().min(1),
  /** Non-secret text to show, e.g. a masked api_id. */
  label: z.string().optional(),
  connectedAt: isoDate,
});
export type CredentialRecord = z.infer<typeof credentialSchema>;

/** Final statuses: a transaction with one of these is settled and moves to history. */
export const finalStatuses = ['Sukses', 'Gagal', 'Unresolved', 'Rejected'] as const;
/**
 * `Created`: stored before the first provider request. `Pending`: sent, not settled. Other
 * statuses a provider reports are kept verbatim and count as still pending.
 */
export type TransactionStatus = 'Created' | 'Pending' | (typeof finalStatuses)[number] | (string & {});

/** True for Sukses, Gagal, Unresolved and Rejected (refused by the provider; never created there). */
export function isFinalStatus(status: string): boolean {
  return (finalStatuses as readonly string[]).includes(status);
}

/**
 * The `message` of a transaction that was confirmed but not yet sent (`Created`) in a backup that
 * was restored: the bot that made the backup went on after it and may have sent it, or had it
 * refused and told its owner so. A status check is the same request as the purchase (a ref id the
 * provider does not know is bought), so the restored bot never sends it: it settles it Unresolved.
 */
export const restoredUnsentMessage = 'restored_unsent';

/** A game shop order as the bot keeps it: what the user sees in /orders and the reminder needs. */
export const gameOrderSchema = z.object({
  orderId: z.string().min(1),
  userId: z.number().int(),
  chatId: z.number().int(),
  game: z.string(),
  gameTitle: z.string().optional(),
  productId: z.number().int(),
  productName: z.string().optional(),
  paymentMethodId: z.number().int(),
  paymentName: z.string().optional(),
  quantity: z.number().int().positive(),
  totalPrice: z.number(),
  paymentStatus: z.string(),
  buyStatus: z.string().optional(),
  paymentUrl: z.string().optional(),
  paymentCode: z.string().optional(),
  qrUrl: z.string().nullable().optional(),
  expiredAt: z.string(),
  createdAt: isoDate,
  /** True once the expiry reminder is queued in the outbox (so it is queued once). */
  reminderQueued: z.boolean().optional(),
  /** The order summary's confirmation id: one confirmation creates at most one order. */
  confirmationId: z.string().min(1).optional(),
  /** Who the order was for, offered again on the user's next order of the game. */
  playerId: z.string().optional(),
  server: z.string().optional(),
  whatsapp: z.string().optional(),
});
export type GameOrderRecord = z.infer<typeof gameOrderSchema>;

export const transactionSchema = z.object({
  refId: z.string().min(1),
  userId: z.number().int(),
  chatId: z.number().int(),
  code: z.string(),
  productName: z.string(),
  target: z.string(),
  /** Integer rupiah: the provider's price (the reseller's cost). */
  price: z.number().int(),
  /**
   * The reseller's sell price (integer rupiah) under their /jual rules when the purchase was
   * confirmed, and `margin` = sellPrice - price. Never recomputed: a later rule change leaves them.
   * Absent on transactions from before sell prices (read as sell = cost).
   */
  sellPrice: z.number().int().optional(),
  margin: z.number().int().optional(),
  status: z
    .string()
    .min(1)
    .transform((status): TransactionStatus => status),
  /** The provider's status text, verbatim. */
  providerStatus: z.string().optional(),
  trxId: z.string().optional(),
  sn: z.string().optional(),
  message: z.string().optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
  sentAt: isoDate.optional(),
  settledAt: isoDate.optional(),
  nextCheckAt: isoDate.optional(),
  /** Status checks made so far. */
  checks: z.number().int().nonnegative(),
  batchId: z.string().optional(),
  /** The "please wait" message to edit when the transaction settles. */
  pendingMessage: z.object({ chatId: z.number().int(), messageId: z.number().int() }).optional(),
  /**
   * The result message of a multi-line purchase ("Hasil 3 transaksi") that lists this transaction
   * as one of its lines: edited, all lines afresh, whenever a line of it settles.
   */
  summaryMessage: z.object({ chatId: z.number().int(), messageId: z.number().int() }).optional(),
  /** Whether the final notification has been queued. */
  notified: z.boolean().optional(),
  /**
   * Refusals (400/402/404) in a row on re-checks of a transaction the provider had acknowledged;
   * cleared by the next status answer. They never finalise it (DESIGN invariant 8).
   */
  refusals: z.number().int().nonnegative().optional(),
  /** When the operator was asked to review it after repeated refusals (asked once per transaction). */
  reviewRequestedAt: isoDate.optional(),
});
export type TransactionRecord = z.output<typeof transactionSchema>;

export const outboxItemSchema = z.object({
  id: z.string().min(1),
  chatId: z.number().int(),
  kind: z.string().min(1),
  payload: z.unknown(),
  createdAt: isoDate,
  attempts: z.number().int().nonnegative(),
  /** Not to be sent before this time (retry back-off, 429 wait, scheduled reminder). */
  notBefore: isoDate.optional(),
  /** Enqueueing again with the same key while the first is pending is a no-op. */
  dedupeKey: z.string().min(1).optional(),
  /** Start of the current run of failed attempts (network errors, 5xx); the sender gives up some time after it. */
  failingSince: isoDate.optional(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;

export const groupSchema = z.object({
  ownerId: z.number().int(),
  title: z.string().optional(),
  linkedAt: isoDate,
});
export type GroupRecord = z.infer<typeof groupSchema>;

export const metaSchema = z.object({
  createdAt: isoDate,
  /** The last upgrade of the data format, for the operator's information. */
  lastMigration: z.object({ from: z.number().int(), to: z.number().int(), at: isoDate }).optional(),
  /**
   * The months that have a history segment (`YYYY-MM`), so that a segment deleted or lost is
   * noticed at start-up instead of its month silently missing. Absent in files from before it:
   * the store fills it in from the segments at open.
   */
  historyMonths: z.array(z.string().regex(/^\d{4}-\d{2}$/)).optional(),
  /**
   * The users' shard files (by index) and the side files (`inbox.json` …) written so far, for the
   * same reason: a data directory in use always has them. Absent in files from before it: the
   * store fills them in from the files at open.
   */
  userShards: z.array(z.number().int().nonnegative()).optional(),
  sideFiles: z.array(z.string()).optional(),
});

export const hotFileSchema = z
  .object({
    version: z.literal(hotFileVersion),
    /**
     * User records changed in the same atomic write as something of this file (a group link, a
     * queued daily summary), by user id, until they are copied into their shard file: the store
     * reads a user here first, and copies what is left here into the shards at open.
     */
    pendingUsers: z.record(z.string(), userSchema),
    /** Open (not yet settled) transactions by refId. */
    transactions: z.record(z.string(), transactionSchema),
    /** Pending notifications by id. */
    outbox: z.record(z.string(), outboxItemSchema),
    /** Linked groups by chat id (as a string). */
    groups: z.record(z.string(), groupSchema),
    /** The users' game shop orders by order id (kept; they are small and few). */
    gameOrders: z.record(z.string(), gameOrderSchema),
    /** Purchase confirmations already turned into transactions: confirmation id → ref ids. */
    confirmations: z.record(z.string(), z.object({ refIds: z.array(z.string()), at: isoDate })),
    meta: metaSchema,
    /**
     * Proof of the encryption key: a known text sealed with the vault (see vault.ts keyCheck), so
     * a wrong ENCRYPTION_KEY is refused at open, before anything is written. Optional, so files
     * from before it need no migration: the store verifies the key against a stored secret and
     * adds it on open.
     */
    keyCheck: z.object({ keyId: z.string().min(1), sealed: z.string().min(1), at: isoDate }).optional(),
  })
  .superRefine((data, ctx) => {
    for (const [key, user] of Object.entries(data.pendingUsers)) {
      if (key !== String(user.id)) {
        ctx.addIssue({ code: 'custom', path: ['pendingUsers', key], message: `key does not match id ${user.id}` });
      }
    }
    for (const [key, tx] of Object.entries(data.transactions)) {
      if (key !== tx.refId) ctx.addIssue({ code: 'custom', path: ['transactions', key], message: 'key does not match refId' });
    }
    for (const [key, item] of Object.entries(data.outbox)) {
      if (key !== item.id) ctx.addIssue({ code: 'custom', path: ['outbox', key], message: 'key does not match id' });
    }
  });
export type HotData = z.output<typeof hotFileSchema>;

export const historyFileSchema = z
  .object({
    version: z.literal(legacyHistoryFileVersion),
    /** `YYYY-MM` (UTC) of the transactions' createdAt. */
    month: z.string().regex(/^\d{4}-\d{2}$/),
    /** Settled transactions by refId. */
    transactions: z.record(z.string(), transactionSchema),
  })
  .superRefine((data, ctx) => {
    for (const [key, tx] of Object.entries(data.transactions)) {
      if (key !== tx.refId) ctx.addIssue({ code: 'custom', path: ['transactions', key], message: 'key does not match refId' });
    }
  });
export type HistoryData = z.output<typeof historyFileSchema>;

/** Fresh, empty hot data. */
export function emptyHotData(now: Date): HotData {
  return {
    version: hotFileVersion,
    pendingUsers: {},
    transactions: {},
    outbox: {},
    groups: {},
    confirmations: {},
    gameOrders: {},
    meta: { createdAt: now.toISOString() },
  };
}

type Json = Record<string, unknown>;

/** One step of the hot file's format: turns version `from` JSON into version `to` JSON. */
export interface Migration {
  from: number;
  to: number;
  description: string;
  up: (data: Json) => Json;
}

/** Every hot-file migration, in order; the last one's `to` is hotFileVersion. */
export const hotFileMigrations: readonly Migration[] = [
  {
    from: 1,
    to: 2,
    description: 'add the outbox of pending notifications; transactions count their status checks',
    up: (data) => ({
      ...data,
      outbox: isObject(data.outbox) ? data.outbox : {},
      confirmations: isObject(data.confirmations) ? data.confirmations : {},
      transactions: mapValues(data.transactions, 'transactions', (tx) => ({ checks: 0, ...tx })),
    }),
  },
  {
    from: 2,
    to: 3,
    description: 'keep the users’ game shop orders',
    up: (data) => ({ ...data, gameOrders: isObject(data.gameOrders) ? data.gameOrders : {} }),
  },
  {
    from: 3,
    to: 4,
    description: 'users, credentials and conversation states move to the shard files users/NNN.json',
    up: (data) => {
      // The store wrote them into the shards before this runs (splitLegacyHotFile); checked here
      // anyway, so a file whose users do not have the expected format is refused, not dropped.
      legacyUserPartSchema.parse(data);
      const { users: _users, credentials: _credentials, conversations: _conversations, ...rest } = data;
      return { ...rest, pendingUsers: {} };
    },
  },
];

/** What a version-3 hot file holds that version 4 keeps in the shard files. */
export const legacyUserPartSchema = z.object({
  users: z.record(z.string(), userSchema),
  credentials: z.record(z.string(), credentialSchema),
  conversations: z.record(z.string(), z.string()),
});

/**
 * Brings raw JSON of any known version up to `latest` by running `migrations` in order. Throws
 * StoreVersionError for a version newer than `latest`, and an Error for a file without a version.
 */
export function migrate(raw: unknown, file: string, migrations: readonly Migration[], latest: number): { value: Json; from: number } {
  if (!isObject(raw)) throw new Error('the top level is not a JSON object');
  const from = raw.version;
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 1) throw new Error('it has no valid "version" number');
  if (from > latest) throw new StoreVersionError(file, from, latest);
  let value: Json = raw;
  for (let version = from; version < latest; version++) {
    const step = migrations.find((m) => m.from === version);
    if (!step || step.to !== version + 1) throw new Error(`no migration from data version ${version} (this is a bug in kiosbot)`);
    value = { ...step.up(value), version: step.to };
  }
  return { value, from };
}

/** Decodes the hot file: migrates older versions, then validates against hotFileSchema. */
export function decodeHotFile(raw: unknown, file: string, now: Date = new Date()): Decoded<HotData> {
  const { value, from } = migrate(raw, file, hotFileMigrations, hotFileVersion);
  if (from === hotFileVersion) return { data: hotFileSchema.parse(value) };
  const data = hotFileSchema.parse(value);
  data.meta.lastMigration = { from, to: hotFileVersion, at: now.toISOString() };
  return { data, migratedFrom: from };
}

/** Decodes a whole-month history file of before (version 1, `history/YYYY-MM.json`). */
export function decodeHistoryFile(raw: unknown, file: string): Decoded<HistoryData> {
  const { value } = migrate(raw, file, [], legacyHistoryFileVersion);
  return { data: historyFileSchema.parse(value) };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(value: unknown, name: string, fn: (item: Json) => Json): Json {
  if (value === undefined) return {};
  if (!isObject(value)) throw new Error(`"${name}" is not an object`);
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) out[key] = isObject(item) ? fn(item) : item;
  return out;
}

// Guard against a migration list that does not reach the current version.
const lastMigration = hotFileMigrations.at(-1);
if (lastMigration && lastMigration.to !== hotFileVersion) {
  throw new Error(`hotFileMigrations ends at version ${lastMigration.to}, but hotFileVersion is ${hotFileVersion}`);
}
