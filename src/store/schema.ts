import { z } from 'zod';
import type { Decoded } from './durable-file.ts';
import { StoreVersionError } from './errors.ts';
import { credentialSchema } from './records/credentials.ts';
import { gameOrderSchema } from './records/game-orders.ts';
import { groupSchema } from './records/groups.ts';
import { ledgerEntrySchema } from './records/ledger.ts';
import { outboxItemSchema } from './records/outbox.ts';
import { transactionSchema } from './records/transactions.ts';
import { userSchema } from './records/users.ts';
import { isoDate } from './records/validation.ts';

/*
 * The hot file `kiosbot.json` holds what must change together in one atomic write, kept small:
 * open transactions and confirmations, pending notifications, groups, game orders, the key check,
 * and wallet entries on their way to `ledger.json`.
 * Users live in shard files (user-shards.ts), settled transactions in history segments (history.ts).
 *
 * To change its shape: bump `hotFileVersion`, change the schemas, and append a migration
 * `{ from: old, to: old + 1, up }` to `hotFileMigrations`. Migrations work on plain JSON, never on
 * these types, which always describe the newest version.
 */

export const hotFileVersion = 4;
/** 2: the append-only segment `history/YYYY-MM.jsonl` (its header carries it); 1: the whole-month JSON of before. */
export const historyFileVersion = 2;
const legacyHistoryFileVersion = 1;

export const metaSchema = z.object({
  createdAt: isoDate,
  /** The last upgrade of the data format, for the operator's information. */
  lastMigration: z.object({ from: z.number().int(), to: z.number().int(), at: isoDate }).optional(),
  /**
   * The history months, users' shards (by index) and side files (`inbox.jsonl` …) written so far,
   * so that one deleted or lost is noticed at start-up, not silently missing. Absent in files of
   * before: filled in from the files at open.
   */
  historyMonths: z.array(z.string().regex(/^\d{4}-\d{2}$/)).optional(),
  userShards: z.array(z.number().int().nonnegative()).optional(),
  sideFiles: z.array(z.string()).optional(),
});

function refIdKeys(transactions: Record<string, { refId: string }>, ctx: z.RefinementCtx): void {
  for (const [key, tx] of Object.entries(transactions)) {
    if (key !== tx.refId) ctx.addIssue({ code: 'custom', path: ['transactions', key], message: 'key does not match refId' });
  }
}

export const hotFileSchema = z
  .object({
    version: z.literal(hotFileVersion),
    /** Users changed in one write with something of this file (a group link), until copied into their shard (at open at the latest); read here first. */
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
    /** Broadcast ends written with their final report (in `outbox`), until `broadcasts.json` has them (broadcasts.ts). */
    broadcastEnds: z.record(z.string(), z.object({ status: z.enum(['done', 'cancelled']), at: isoDate })).optional(),
    /**
     * Wallet entries written in one write with something of this file (a purchase's hold, its
     * refund), by `<wallet>:<seq>`, until `ledger.json` has them (ledger.ts); absent with none.
     */
    ledger: z.record(z.string(), ledgerEntrySchema).optional(),
    /** A known text sealed with the vault (vault.ts keyCheck): a wrong ENCRYPTION_KEY is refused at open, before any write. Added at open if absent. */
    keyCheck: z.object({ keyId: z.string().min(1), sealed: z.string().min(1), at: isoDate }).optional(),
  })
  .superRefine((data, ctx) => {
    for (const [key, user] of Object.entries(data.pendingUsers)) {
      if (key !== String(user.id)) {
        ctx.addIssue({ code: 'custom', path: ['pendingUsers', key], message: `key does not match id ${user.id}` });
      }
    }
    refIdKeys(data.transactions, ctx);
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
  .superRefine((data, ctx) => refIdKeys(data.transactions, ctx));
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
  const data = hotFileSchema.parse(value);
  if (from === hotFileVersion) return { data };
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
