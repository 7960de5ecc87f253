/**
 * The move of users, credentials and conversation states from a version-3 hot file into the
 * shard files (data version 4). Crash-safe by order: every shard is written durably first, the
 * slimmed hot file (with the pre-split file kept as `kiosbot.json.v3.bak`) after; until that last
 * write the hot file is still version 3, so a rerun after a crash in between splits it again from
 * the same data and converges.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ensureDir, writeFileAtomic, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { hotFileMigrations, legacyUserPartSchema, migrate } from './schema.ts';
import type { CredentialRecord } from './records/credentials.ts';
import {
  emptyUserShard,
  encodeUserShard,
  shardOfConversation,
  shardOfUser,
  userShardCount,
  userShardFileName,
  type UserShardData,
} from './user-shards.ts';

/** The version of the hot file before the split. */
const lastUnsplitVersion = 3;

/** What the key check needs of a data set: its key check value and its sealed values. */
export interface KeyCheckInput {
  keyCheck?: { sealed: string } | undefined;
  sources: ReadonlyArray<{ credentials: Record<string, CredentialRecord>; conversations: Record<string, string> }>;
}

/**
 * If `hotFile` is a hot file from before the split (version 1 to 3), writes its users,
 * credentials and conversation states into the shard files of `dataDir` (every shard it fills,
 * and every existing shard it does not, emptied), each durably, after `checkKey` accepted the key.
 * Leaves the hot file as it is: the store's open then migrates it to version 4. Does nothing for a
 * file that is missing, split already, or unreadable (the hot file's open reports that).
 */
export async function splitLegacyHotFile(options: {
  dataDir: string;
  hotFile: string;
  checkKey: (input: KeyCheckInput) => void;
  writeFile?: AtomicWriter | undefined;
  onWrite?: ((event: WriteEvent) => void) | undefined;
}): Promise<boolean> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(options.hotFile, 'utf8'));
  } catch {
    return false;
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version !== 'number' || version > lastUnsplitVersion) return false;
  let parts;
  let keyCheck: { sealed: string } | undefined;
  try {
    const { value } = migrate(
      raw,
      options.hotFile,
      hotFileMigrations.filter((step) => step.to <= lastUnsplitVersion),
      lastUnsplitVersion,
    );
    parts = legacyUserPartSchema.parse(value);
    const check = (value as { keyCheck?: { sealed?: unknown } }).keyCheck;
    if (check && typeof check.sealed === 'string') keyCheck = { sealed: check.sealed };
  } catch {
    return false;
  }
  // Before anything is written: a wrong key stops here, as it does for a split file.
  options.checkKey({ keyCheck, sources: [parts] });

  const shards = new Map<number, UserShardData>();
  const shard = (index: number) => {
    let data = shards.get(index);
    if (!data) shards.set(index, (data = emptyUserShard(index)));
    return data;
  };
  for (const [key, user] of Object.entries(parts.users)) shard(shardOfUser(user.id)).users[key] = user;
  for (const [key, record] of Object.entries(parts.credentials)) {
    shard(shardOfUser(Number(key.slice(0, key.indexOf(':'))))).credentials[key] = record;
  }
  for (const [key, sealed] of Object.entries(parts.conversations)) shard(shardOfConversation(key)).conversations[key] = sealed;

  const dir = path.join(options.dataDir, path.dirname(userShardFileName(0)));
  await ensureDir(dir);
  // Shards a crashed earlier run (or anything else) left that this data does not fill are emptied.
  const existing = new Set(await fs.readdir(dir).catch(() => [] as string[]));
  const write = options.writeFile ?? writeFileAtomic;
  const indexes = Array.from({ length: userShardCount }, (_, index) => index).filter(
    (index) => shards.has(index) || existing.has(path.basename(userShardFileName(index))),
  );
  const parallel = 16;
  for (let from = 0; from < indexes.length; from += parallel) {
    await Promise.all(
      indexes.slice(from, from + parallel).map(async (index) => {
        const file = path.join(options.dataDir, userShardFileName(index));
        const startedAt = performance.now();
        const text = encodeUserShard(shards.get(index) ?? emptyUserShard(index));
        await write(file, text, { backup: true });
        options.onWrite?.({ file, bytes: Buffer.byteLength(text), startedAt, durationMs: performance.now() - startedAt });
      }),
    );
  }
  return true;
}
