/**
 * The users' data, split by user id into a fixed number of shard files (`users/000.json` …
 * `users/255.json`): each user's record, their sealed credentials and their sealed conversation
 * states. A change to one user rewrites one small shard, so the cost of a write does not grow
 * with the number of users. Each shard is its own DurableFile: reads come from memory, a change
 * resolves once its shard is on disk, and a failed write puts that shard back as it is on disk.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { keyIdOfToken, legacyKeyId } from './vault.ts';
import { DurableFile, ensureDir, sealJson, type AtomicWriter, type Decoded, type WriteEvent } from './durable-file.ts';
import { migrate, type Migration } from './schema.ts';
import { credentialSchema } from './records/credentials.ts';
import { userSchema } from './records/users.ts';

/** Directory of the shard files inside the data directory. */
export const usersDirName = 'users';
/** How many shard files there are; fixed, because a user's shard is their id modulo this. */
export const userShardCount = 256;
/**
 * Current data version of the shard files: 2 leads the JSON with the key ids of the shard's
 * secrets and the ids of its price watchers (encodeUserShard). An older kiosbot refuses it rather
 * than write back stale lists.
 */
export const userShardVersion = 2;
/** Version 1 is version 2 without the key ids: read as it is, written as 2 at its next change. */
const shardMigrations: readonly Migration[] = [
  { from: 1, to: 2, description: 'the key ids of the secrets and the price watchers lead the file', up: (data) => data },
];

export const userShardSchema = z
  .object({
    version: z.literal(userShardVersion),
    /** Which shard this is (0 … userShardCount - 1). */
    shard: z.number().int().nonnegative(),
    /** By Telegram user id (as a string). */
    users: z.record(z.string(), userSchema),
    /** By `${userId}:${service}`. */
    credentials: z.record(z.string(), credentialSchema),
    /** Conversation state by storage key (`<chatId>:<userId>`), each a vault token. */
    conversations: z.record(z.string(), z.string()),
  })
  .superRefine((data, ctx) => {
    for (const [key, user] of Object.entries(data.users)) {
      if (key !== String(user.id)) ctx.addIssue({ code: 'custom', path: ['users', key], message: `key does not match id ${user.id}` });
    }
    for (const [key, cred] of Object.entries(data.credentials)) {
      if (!/^-?\d+:/.test(key) || !key.endsWith(`:${cred.service}`)) {
        ctx.addIssue({ code: 'custom', path: ['credentials', key], message: 'key is not `<userId>:<service>`' });
      }
    }
  });
export type UserShardData = z.output<typeof userShardSchema>;

/** The file name of shard `index`, relative to the data directory (`users/007.json`). */
export function userShardFileName(index: number): string {
  return `${usersDirName}/${String(index).padStart(3, '0')}.json`;
}

/** Whether `name` (relative to the data directory) is a shard file's name. */
export function isUserShardFileName(name: string): boolean {
  const match = new RegExp(`^${usersDirName}/(\\d{3})\\.json$`).exec(name);
  return match !== null && Number(match[1]) < userShardCount;
}

/** The shard of a user id. */
export function shardOfUser(userId: number): number {
  return Math.abs(Math.trunc(userId)) % userShardCount;
}

/** The shard of a conversation storage key (`<chatId>:<userId>`): its user's shard. */
export function shardOfConversation(key: string): number {
  const userPart = Number(key.slice(key.lastIndexOf(':') + 1));
  if (Number.isSafeInteger(userPart)) return shardOfUser(userPart);
  // Not a key the bot makes; any stable place will do.
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) >>> 0;
  return hash % userShardCount;
}

/** Fresh, empty data of shard `index`. */
export function emptyUserShard(index: number): UserShardData {
  return { version: userShardVersion, shard: index, users: {}, credentials: {}, conversations: {} };
}

/** Decodes a shard file (no `migratedFrom`: a version-1 file needs no rewrite at open). */
export function decodeUserShardFile(raw: unknown, file: string): Decoded<UserShardData> {
  const { value } = migrate(raw, file, shardMigrations, userShardVersion);
  return { data: userShardSchema.parse(value) };
}

/**
 * A shard whose checksum holds, taken as it is (no schema check: it is what the store wrote from
 * validated data) when it is of version 1 or 2. A change to the shard schema that is not a new
 * version must keep every file written before it valid as it is.
 */
export function decodeCheckedUserShard(raw: unknown): Decoded<UserShardData> | undefined {
  const version = (raw as { version?: unknown } | null)?.version;
  if (version !== 1 && version !== userShardVersion) return undefined;
  // The header (encodeUserShard) is made anew at each write.
  const data = raw as Omit<UserShardData, 'version'> & { version: number; keyIds?: unknown; priceWatchers?: unknown };
  delete data.keyIds;
  delete data.priceWatchers;
  return { data: { ...data, version: userShardVersion } };
}

/** Key ids as a shard's header lists them; any other id (a malformed token) is listed as "", which no vault has. */
const headerKeyId = /^[A-Za-z0-9_-]{1,32}$/;

/** The ids of the keys that sealed the shard's secrets (keyIdOfToken of each), each once. */
function secretKeyIds(data: UserShardData): string[] {
  const ids = new Set<string>();
  const add = (token: string) => {
    const id = keyIdOfToken(token);
    ids.add(id !== undefined && headerKeyId.test(id) ? id : '');
  };
  for (const key in data.credentials) add(data.credentials[key]!.sealed);
  for (const key in data.conversations) add(data.conversations[key]!);
  return [...ids];
}

/**
 * The text of a shard file: its JSON led by its checksum (which lets the open skip the schema
 * check) and, first in the JSON, a header: the ids of the keys its secrets are sealed with and of
 * its users with a price watch, so that neither the key audit at open nor the price watch's pass
 * parses a shard whose checksum holds (the checksum covers the header: it cannot disagree).
 */
export function encodeUserShard(data: UserShardData): string {
  return sealJson(userShardJson(data));
}

function userShardJson(data: UserShardData): string {
  const { version, ...rest } = data;
  const priceWatchers = Object.values(data.users).flatMap((user) => (user.priceWatch ? [user.id] : []));
  return JSON.stringify({ version, keyIds: secretKeyIds(data), priceWatchers, ...rest });
}

/** What a shard's JSON lists first (userShardJson). */
const shardHeaderSchema = z.object({ keyIds: z.array(z.string()), priceWatchers: z.array(z.number().int()) });
type ShardHeader = z.output<typeof shardHeaderSchema>;

/** The header a checksummed shard's JSON starts with, if it is of the current version and has one. */
function shardHeader(json: string): ShardHeader | undefined {
  const header = /^\{"version":(\d+),("keyIds":\[[^\]]*\],"priceWatchers":\[[^\]]*\])/.exec(json);
  if (!header || Number(header[1]) !== userShardVersion) return undefined;
  // A header that does not read (which its checksum should rule out) only means: parse the shard at open.
  try {
    const parsed = shardHeaderSchema.safeParse(JSON.parse(`{${header[2]}}`));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Every shard of a data directory, opened. */
export interface UserShards {
  /** The shard holding `userId`'s data. */
  forUser(userId: number): DurableFile<UserShardData>;
  /** The shard holding a conversation state. */
  forConversation(key: string): DurableFile<UserShardData>;
  /** All shards, in index order. */
  readonly all: readonly DurableFile<UserShardData>[];
  /**
   * The shards that may hold a secret sealed with a key other than `keyIds` (or a legacy token):
   * the parsed ones, and those not yet parsed whose header names such a key. What the key audit reads.
   */
  withKeysBeyond(keyIds: readonly string[]): DurableFile<UserShardData>[];
  /** The shards that may hold a user with a price watch: the parsed ones, and those not yet parsed whose header lists one. */
  withPriceWatchers(): DurableFile<UserShardData>[];
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens every shard of `dataDir` (a missing one is empty and is written at its first change).
 * Reads them a few at a time (at 50k users 256 files of ~80 kB); one whose checksum holds and
 * that has the header (userShardJson) is parsed at its first use, the rest at open.
 */
export async function openUserShards(options: {
  dataDir: string;
  onWrite?: ((event: WriteEvent) => void) | undefined;
  writeFile?: AtomicWriter | undefined;
}): Promise<UserShards> {
  const all: DurableFile<UserShardData>[] = new Array<DurableFile<UserShardData>>(userShardCount);
  // The directory is listed once for all 256 (a missing shard is then not even read).
  const dir = path.join(options.dataDir, usersDirName);
  await ensureDir(dir);
  const listing = new Set(await fs.readdir(dir));
  const headers: Array<ShardHeader | undefined> = [];
  const open = (index: number) =>
    DurableFile.open<UserShardData>({
      path: path.join(options.dataDir, userShardFileName(index)),
      decode: decodeUserShardFile,
      decodeChecked: decodeCheckedUserShard,
      encode: userShardJson,
      parseLater: (json) => (headers[index] = shardHeader(json)) !== undefined,
      defaultData: () => emptyUserShard(index),
      onWrite: options.onWrite,
      writeFile: options.writeFile,
      listing,
    });
  const parallel = 16;
  for (let from = 0; from < userShardCount; from += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, userShardCount - from) }, (_, i) => open(from + i)));
    batch.forEach((file, i) => (all[from + i] = file));
  }
  const flushAll = async () => {
    // All settle before this does, so that after a rejection each shard's memory is what is on disk.
    const results = await Promise.allSettled(all.map((file) => file.flush()));
    for (const result of results) if (result.status === 'rejected') throw result.reason;
  };
  return {
    all,
    withKeysBeyond: (keyIds) =>
      all.filter((file, index) => file.parsed || headers[index]!.keyIds.some((id) => id === legacyKeyId || !keyIds.includes(id))),
    withPriceWatchers: () => all.filter((file, index) => file.parsed || headers[index]!.priceWatchers.length > 0),
    forUser: (userId) => all[shardOfUser(userId)] as DurableFile<UserShardData>,
    forConversation: (key) => all[shardOfConversation(key)] as DurableFile<UserShardData>,
    flush: flushAll,
    async close() {
      const results = await Promise.allSettled(all.map((file) => file.close()));
      for (const result of results) if (result.status === 'rejected') throw result.reason;
    },
  };
}
