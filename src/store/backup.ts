/**
 * Backups of a data directory: one gzipped JSON file holding every data file with a checksum each
 * (not the history indexes: caches, rebuilt after a restore). Made while the bot runs: every data
 * file is replaced by a rename, so a snapshot reads each whole, and it is retaken until no file
 * changed meanwhile — the state at one instant, opened like the state after a crash then, except
 * that what was in flight cannot move money again (settleInFlight). Secrets stay sealed.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { ensureDir, writeFileAtomic } from './durable-file.ts';
import { StoreError } from './errors.ts';
import { inboxSecrets } from './inbox.ts';
import { compactedLog, decodeInboxFile, inboxFileName, legacyInboxFileName, parseInboxLog } from './inbox-log.ts';
import { balancesFileName, decodeBalancesFile } from './balances.ts';
import { broadcastsFileName, decodeBroadcastsFile } from './broadcasts.ts';
import { decodePriceWatchFile, priceWatchFileName } from './price-watch.ts';
import { decodeLedgerFile, ledgerFileName } from './ledger.ts';

/** The data files beside the hot file and the history months, each with the check of its text. */
const sideFiles: ReadonlyMap<string, (text: string, name: string) => unknown> = new Map<string, (text: string, name: string) => unknown>([
  [inboxFileName, parseInboxLog],
  // A backup made before the log: restored as it is, migrated when the store opens it.
  [legacyInboxFileName, (text, name) => decodeInboxFile(JSON.parse(text), name)],
  [balancesFileName, (text, name) => decodeBalancesFile(JSON.parse(text), name)],
  [broadcastsFileName, (text, name) => decodeBroadcastsFile(JSON.parse(text), name)],
  [priceWatchFileName, (text, name) => decodePriceWatchFile(JSON.parse(text), name)],
  [ledgerFileName, (text, name) => decodeLedgerFile(JSON.parse(text), name)],
]);
import { acquireDirLock } from './lock.ts';
import { decodeHistoryFile, decodeHotFile } from './schema.ts';
import { restoredUnsentMessage } from './records/transactions.ts';
import { historyIndexDirName } from './history.ts';
import { checkSegmentText } from './history-lines.ts';
import { hotFileName, historyDirName } from './store.ts';
import { verifyKeyCheck, type Vault } from './vault.ts';
import { describeUnreadable, findUnreadable } from './key-audit.ts';
import { shardSecrets } from './reseal.ts';
import { decodeUserShardFile, isUserShardFileName, usersDirName } from './user-shards.ts';

/** A backup that cannot be made or used; the message says what to do. */
export class BackupError extends StoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid', message, options);
    this.name = 'BackupError';
  }
}

const backupSchema = z.object({
  format: z.literal('kiosbot-backup'),
  version: z.literal(1),
  createdAt: z.string(),
  files: z.array(z.object({ name: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/), text: z.string() })),
});

/** A snapshot of a data directory, as a backup file holds it. */
export type Backup = z.infer<typeof backupSchema>;

/** Backup file names: `kiosbot-YYYYMMDD-HHMMSS.json.gz` (UTC), so names sort by time. */
const backupName = /^kiosbot-\d{8}-\d{6}(-\d+)?\.json\.gz$/;

/** The name of a backup made at `at`. */
export function backupFileName(at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `kiosbot-${stamp}.json.gz`;
}

/** History data files: segments (`YYYY-MM.jsonl`) and, until converted, month files of before (`YYYY-MM.json`). */
const historyFile = /^\d{4}-\d{2}\.jsonl?$/;

/** Data files of `dataDir` by name relative to it (`history/2026-11.jsonl`); not backups, indexes, temp or lock files. */
async function dataFileNames(dataDir: string): Promise<string[]> {
  const names: string[] = [];
  for (const name of [hotFileName, ...sideFiles.keys()]) {
    if (await isFile(path.join(dataDir, name))) names.push(name);
  }
  const shards = await fs.readdir(path.join(dataDir, usersDirName)).catch(() => [] as string[]);
  for (const name of shards.sort()) if (isUserShardFileName(`${usersDirName}/${name}`)) names.push(`${usersDirName}/${name}`);
  const history = await fs.readdir(path.join(dataDir, historyDirName)).catch(() => [] as string[]);
  for (const name of history.sort()) if (historyFile.test(name)) names.push(`${historyDirName}/${name}`);
  return names;
}

/** What identifies one version of a file: it is replaced by a rename, so a new version is a new inode. */
async function versionsOf(dataDir: string, names: readonly string[]): Promise<string> {
  const stats = await Promise.all(names.map((name) => fs.stat(path.join(dataDir, name)).catch(() => undefined)));
  return stats.map((stat) => (stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : '-')).join('|');
}

/**
 * Reads every data file of `dataDir` at one instant: the read is repeated (up to `attempts`
 * times) until the set of files and each file's version are the same before and after it.
 */
export async function snapshotDataDir(dataDir: string, options: { now?: () => Date; attempts?: number } = {}): Promise<Backup> {
  const now = options.now ?? (() => new Date());
  for (let attempt = 0; attempt < (options.attempts ?? 20); attempt++) {
    const names = await dataFileNames(dataDir);
    if (!names.includes(hotFileName)) {
      throw new BackupError(`${dataDir} holds no kiosbot data (${hotFileName} is missing): check DATA_DIR.`);
    }
    const before = await versionsOf(dataDir, names);
    const texts = await Promise.all(names.map((name) => fs.readFile(path.join(dataDir, name), 'utf8').catch(() => undefined)));
    const namesAfter = await dataFileNames(dataDir);
    if (namesAfter.join('|') !== names.join('|') || (await versionsOf(dataDir, names)) !== before) continue;
    const files = names.map((name, index) => {
      const text = texts[index] ?? '';
      return { name, sha256: sha256(text), text };
    });
    return { format: 'kiosbot-backup', version: 1, createdAt: now().toISOString(), files };
  }
  throw new BackupError('The data files kept changing while they were read; try again when the bot is less busy.');
}

/** Makes a backup of `dataDir` into `file` (gzipped JSON, mode 0600, written atomically). */
export async function writeBackup(dataDir: string, file: string, options: { now?: () => Date } = {}): Promise<Backup> {
  const backup = await snapshotDataDir(dataDir, options);
  await ensureDir(path.dirname(file));
  await writeFileAtomic(file, gzipSync(JSON.stringify(backup)), { backup: false });
  return backup;
}

/**
 * Reads and checks a backup file: its format, each file's checksum, and that each data file is
 * one this kiosbot can open (a backup from a newer kiosbot is refused). Throws BackupError.
 */
export async function readBackup(file: string): Promise<Backup> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (error) {
    throw new BackupError(`Cannot read the backup ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Check the path.`);
  }
  let backup: Backup;
  try {
    backup = backupSchema.parse(JSON.parse(gunzipSync(bytes).toString('utf8')));
  } catch {
    throw new BackupError(`${file} is not a kiosbot backup (or it is damaged): it is not the gzipped JSON \`npm run backup\` writes.`);
  }
  for (const entry of backup.files) {
    if (!isDataFileName(entry.name)) throw new BackupError(`${file} lists a file kiosbot does not write: ${entry.name}. It was altered.`);
    if (sha256(entry.text) !== entry.sha256) throw new BackupError(`${file} is damaged: ${entry.name} does not match its checksum.`);
    try {
      decodeDataFile(entry.name, entry.text);
    } catch (error) {
      const reason = error instanceof StoreError ? error.message : 'it does not have the format of a kiosbot data file';
      throw new BackupError(`${file} cannot be restored: ${entry.name}: ${reason}`);
    }
  }
  if (!backup.files.some((entry) => entry.name === hotFileName)) throw new BackupError(`${file} has no ${hotFileName}: it is incomplete.`);
  return backup;
}

/** What a restore did: where the files it replaced went, and how many updates and unsent purchases settleInFlight marked. */
export interface RestoreResult {
  movedTo: string | undefined;
  backup: Backup;
  notReplayed: number;
  unsent: number;
}

/**
 * A restore is not a crash: the bot that made the backup went on and handled what was in flight,
 * so nothing of it may move money again. Unhandled stored updates are marked handled, not
 * replayed; `Created` purchases get `restoredUnsentMessage` (settled Unresolved without a send).
 * Pending ones stay: the provider acknowledged them, so re-checking is a status check.
 */
function settleInFlight(name: string, text: string, counts: { notReplayed: number; unsent: number }): string {
  const markDone = (entries: Array<{ done?: true }>) => {
    for (const entry of entries.filter((open) => !open.done)) {
      entry.done = true;
      counts.notReplayed++;
    }
  };
  if (name === inboxFileName) {
    // Written compacted: every entry with its marks, the handled ones done.
    const entries = [...parseInboxLog(text, name).entries.values()].sort((a, b) => a.id - b.id);
    markDone(entries);
    return compactedLog(entries);
  }
  if (name === legacyInboxFileName) {
    const inbox = JSON.parse(text) as { entries: Array<{ done?: true }> };
    markDone(inbox.entries);
    return JSON.stringify(inbox);
  }
  if (name === hotFileName) {
    const hot = JSON.parse(text) as { transactions?: Record<string, { status: string; message?: string }> };
    for (const tx of Object.values(hot.transactions ?? {})) {
      if (tx.status !== 'Created') continue;
      tx.message = restoredUnsentMessage;
      counts.unsent++;
    }
    return JSON.stringify(hot);
  }
  return text;
}

/**
 * Puts a checked backup whose secrets `vault` opens back into `dataDir`, under its lock (the bot
 * stopped): the current files moved aside into `before-restore-<time>/`, in-flight work settled.
 */
export async function restoreBackup(
  file: string,
  dataDir: string,
  vault: Vault,
  now: () => Date = () => new Date(),
): Promise<RestoreResult> {
  const backup = await readBackup(file);
  const hot = decodeHotFile(JSON.parse(backup.files.find((entry) => entry.name === hotFileName)?.text ?? '{}'), hotFileName).data;
  const problem = hot.keyCheck ? verifyKeyCheck(vault, hot.keyCheck.sealed) : undefined;
  if (problem) {
    throw new BackupError(
      `${file} was made with another ENCRYPTION_KEY (${problem}). Set the key it was made with (or give it as ENCRYPTION_KEY_PREVIOUS) and run the restore again. Nothing was changed.`,
    );
  }
  checkBackupSecrets(file, backup, vault);
  await ensureDir(dataDir);
  const lock = await acquireDirLock(dataDir);
  try {
    const current = await dataFileNames(dataDir);
    let movedTo: string | undefined;
    if (current.length > 0) {
      const stamp = backupFileName(now()).slice('kiosbot-'.length, -'.json.gz'.length);
      movedTo = await fs.mkdtemp(path.join(dataDir, `before-restore-${stamp}-`));
      await ensureDir(path.join(movedTo, historyDirName));
      await ensureDir(path.join(movedTo, usersDirName));
      // The `.bak` copies go too: a `.bak` without its file would read as a lost file at the next start
      // (a segment's is the month file it was converted from). So do the history indexes: they
      // describe the segments moved aside, and are rebuilt from the restored ones.
      const aside = (name: string) =>
        fs.rename(path.join(dataDir, name), path.join(movedTo ?? dataDir, name)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
      for (const name of current.flatMap((name) => [name, name.endsWith('.jsonl') ? `${name.slice(0, -1)}.bak` : `${name}.bak`])) {
        await aside(name);
      }
      await aside(path.join(historyDirName, historyIndexDirName));
    }
    const inFlight = { notReplayed: 0, unsent: 0 };
    for (const entry of backup.files) {
      const target = path.join(dataDir, entry.name);
      await ensureDir(path.dirname(target));
      await writeFileAtomic(target, settleInFlight(entry.name, entry.text, inFlight), { backup: false });
    }
    return { movedTo, backup, ...inFlight };
  } finally {
    await lock.release();
  }
}

/** Refuses a backup holding secrets no key of `vault` opens (the bot would refuse to start on them); names their owners only. */
function checkBackupSecrets(file: string, backup: Backup, vault: Vault): void {
  const secrets = backup.files.flatMap((entry) => {
    if (isUserShardFileName(entry.name)) return shardSecrets(decodeUserShardFile(JSON.parse(entry.text), entry.name).data);
    if (entry.name === inboxFileName) return inboxSecrets(parseInboxLog(entry.text, entry.name).entries.values());
    if (entry.name === legacyInboxFileName) return inboxSecrets(decodeInboxFile(JSON.parse(entry.text), entry.name).data.entries);
    return [];
  });
  const found = findUnreadable(vault, secrets);
  if (found.names.length === 0) return;
  throw new BackupError(
    `${file} cannot be restored with the keys given: ${describeUnreadable(found)}. Set the key that sealed them as ` +
      'ENCRYPTION_KEY_PREVIOUS (comma separated) and run the restore again, or restore another backup. Nothing was changed.',
  );
}

/** Backup files in `dir`, newest first (by name, which is the time they were made). */
export async function listBackups(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => backupName.test(name))
    .sort()
    .reverse()
    .map((name) => path.join(dir, name));
}

/** Deletes all but the newest `keep` backups in `dir`; returns the deleted files. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listBackups(dir)).slice(keep);
  for (const file of old) await fs.rm(file, { force: true });
  return old;
}

function decodeDataFile(name: string, text: string): void {
  if (sideFiles.has(name)) sideFiles.get(name)?.(text, name);
  else if (name.endsWith('.jsonl')) checkSegmentText(text, name);
  else if (name === hotFileName) decodeHotFile(JSON.parse(text), name);
  else if (isUserShardFileName(name)) decodeUserShardFile(JSON.parse(text), name);
  else decodeHistoryFile(JSON.parse(text), name);
}

function isDataFileName(name: string): boolean {
  return (
    name === hotFileName ||
    sideFiles.has(name) ||
    isUserShardFileName(name) ||
    (name.startsWith(`${historyDirName}/`) && historyFile.test(name.slice(historyDirName.length + 1)))
  );
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );
}

/**
 * What to tell an operator whose data file is unreadable: the newest backup in `dir` and the
 * command that puts it back, or how to make backups from now on.
 */
export async function restoreAdvice(dir: string): Promise<string> {
  const [latest] = await listBackups(dir);
  if (!latest) return `No backup was found in ${dir} (BACKUP_DIR); \`npm run backup\` makes one, BACKUP_EVERY_HOURS schedules them.`;
  return `The latest backup is ${latest}: to put it back, stop kiosbot and run \`npm run restore -- ${latest}\` (the current files are kept aside).`;
}
