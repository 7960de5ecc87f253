/**
 * Start-up's check that no piece of the data directory is missing while the rest is there: a hot
 * file gone (with its `.bak`) beside other data, or a history month, users' shard or side file
 * the hot file lists (`meta`, kept as they are created) gone. Starting would silently forget what
 * it held, so the store refuses unless the operator accepts it. An empty directory is new.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { exists, noop } from './atomic-file.ts';
import type { DurableFile } from './durable-file.ts';
import { StoreMissingError } from './errors.ts';
import { inboxFileName, legacyInboxFileName } from './inbox-log.ts';
import { balancesFileName } from './balances.ts';
import { broadcastsFileName } from './broadcasts.ts';
import { priceWatchFileName } from './price-watch.ts';
import { ledgerFileName } from './ledger.ts';
import type { HotData } from './schema.ts';
import { isUserShardFileName, userShardCount, userShardFileName, usersDirName } from './user-shards.ts';

/** History data files: segments and, until converted, month files of before. */
const historyMonthFile = /^(\d{4}-\d{2})\.jsonl?$/;

/** The months that have a history file in `historyDir` (segment or month file of before), sorted. */
export async function historyMonthsIn(historyDir: string): Promise<string[]> {
  const names = await fs.readdir(historyDir).catch(() => [] as string[]);
  const months = new Set(names.map((name) => historyMonthFile.exec(name)?.[1]).filter((month) => month !== undefined));
  return [...months].sort();
}

/** What of a data directory's data is there beside the hot file, in words for the operator (empty: nothing). */
async function otherData(dataDir: string, historyDir: string): Promise<string[]> {
  const found: string[] = [];
  const shards = (await fs.readdir(path.join(dataDir, usersDirName)).catch(() => [] as string[])).filter((name) =>
    isUserShardFileName(`${usersDirName}/${name}`),
  );
  if (shards.length > 0) found.push(`${shards.length} users' file(s) in ${usersDirName}/`);
  const months = await historyMonthsIn(historyDir);
  if (months.length > 0) found.push(`the history of ${months.join(', ')}`);
  for (const name of [inboxFileName, legacyInboxFileName, balancesFileName, broadcastsFileName, priceWatchFileName, ledgerFileName]) {
    if (await exists(path.join(dataDir, name))) found.push(name);
  }
  return found;
}

/** What the hot file holds, in words: what starting without it loses. */
const hotFileLoss =
  'every open purchase (Pending ones would no longer be checked or settled, and /cek would show none), ' +
  'the queued notifications, the linked groups and the game orders';

/** Before the hot file is opened: StoreMissingError if it is gone (no `.bak`) beside other data; with `accept`, what is lost. */
export async function checkHotFilePresent(options: {
  dataDir: string;
  hotFile: string;
  historyDir: string;
  accept: boolean;
}): Promise<string[]> {
  if ((await exists(options.hotFile)) || (await exists(`${options.hotFile}.bak`))) return [];
  const found = await otherData(options.dataDir, options.historyDir);
  if (found.length === 0) return [];
  const missing = path.basename(options.hotFile);
  if (!options.accept) throw new StoreMissingError(options.dataDir, { missing, found: found.join(', '), loses: hotFileLoss });
  return [`${missing}: ${hotFileLoss}`];
}

/** After the hot file is read: StoreMissingError if a history month it lists is gone; with `accept`, what is lost. */
export async function checkHistoryPresent(options: {
  dataDir: string;
  historyDir: string;
  listed: readonly string[] | undefined;
  accept: boolean;
}): Promise<string[]> {
  const onDisk = new Set(await historyMonthsIn(options.historyDir));
  const gone = (options.listed ?? []).filter((month) => !onDisk.has(month));
  if (gone.length === 0) return [];
  const missing = gone.map((month) => `${path.basename(options.historyDir)}/${month}.jsonl`).join(', ');
  const loses = `the settled purchases of ${gone.join(', ')} (/riwayat, the reports and the exports would no longer show them)`;
  if (!options.accept) {
    throw new StoreMissingError(options.dataDir, { missing, found: 'kiosbot.json, which lists it,', loses });
  }
  return [`${missing}: ${loses}`];
}

/** The side files (beside the hot file, the users' shards and the history), with what losing each loses. */
const sideFileLosses: Readonly<Record<string, string>> = {
  [inboxFileName]:
    'the updates Telegram delivered that may not have been handled yet (a Confirm tap, a purchase message, a PIN): ' +
    'Telegram does not send them again, and without the file nobody can tell which were handled',
  [balancesFileName]: 'the provider balances the bot saw (the balance movements /laporan shows)',
  [broadcastsFileName]: 'the broadcasts and their progress (a running broadcast would not be finished)',
  [priceWatchFileName]: 'the last price list seen of each watched account (changes until its next check would go unreported)',
  [ledgerFileName]: "the downlines' wallets: every deposit, purchase hold, refund and adjustment, so every balance",
};

/** What losing users' shard file `index` loses, in words. */
function shardLoss(index: number): string {
  return (
    `the users whose Telegram id leaves ${index} when divided by ${userShardCount}: their settings, their connected provider ` +
    'accounts (each would have to connect again, and their Pending purchases could not be checked meanwhile) and their flows in progress'
  );
}

/** The users' shard files (by index) and side files of a data directory: what the hot file records (`meta`). */
export interface DataFiles {
  userShards: number[];
  sideFiles: string[];
}

/** The shard and side files in `dataDir` (a file, or its `.bak` alone: opening it reports that one). */
async function dataFilesIn(dataDir: string): Promise<DataFiles> {
  const names = new Set(await fs.readdir(path.join(dataDir, usersDirName)).catch(() => [] as string[]));
  const userShards = Array.from({ length: userShardCount }, (_, index) => index).filter((index) => {
    const name = path.basename(userShardFileName(index));
    return names.has(name) || names.has(`${name}.bak`);
  });
  const sideFiles: string[] = [];
  for (const name of Object.keys(sideFileLosses)) {
    const file = path.join(dataDir, name);
    if ((await exists(file)) || (await exists(`${file}.bak`))) sideFiles.push(name);
  }
  // The inbox file of before is the inbox until the store's open migrates it into the log.
  const legacyInbox = path.join(dataDir, legacyInboxFileName);
  if (!sideFiles.includes(inboxFileName) && ((await exists(legacyInbox)) || (await exists(`${legacyInbox}.bak`)))) {
    sideFiles.push(inboxFileName);
  }
  return { userShards, sideFiles: sideFiles.sort() };
}

/** The side files a hot file lists, under today's names (the inbox file of before is the inbox log now). */
function currentNames(listed: readonly string[] | undefined): string[] {
  return [...new Set((listed ?? []).map((name) => (name === legacyInboxFileName ? inboxFileName : name)))];
}

/**
 * After the hot file is read: StoreMissingError if a shard or side file it lists is gone with its
 * `.bak`; with `accept`, what is lost. `present`: the files there now, the record from here on.
 */
export async function checkDataFilesPresent(options: {
  dataDir: string;
  listed: Partial<DataFiles>;
  accept: boolean;
}): Promise<{ lost: string[]; present: DataFiles }> {
  const present = await dataFilesIn(options.dataDir);
  const gone = [
    ...(options.listed.userShards ?? [])
      .filter((index) => !present.userShards.includes(index))
      .map((index) => ({ name: userShardFileName(index), loses: shardLoss(index) })),
    ...currentNames(options.listed.sideFiles)
      .filter((name) => !present.sideFiles.includes(name))
      .map((name) => ({ name, loses: sideFileLosses[name] ?? 'what it held' })),
  ];
  if (gone.length === 0) return { lost: [], present };
  if (!options.accept) {
    throw new StoreMissingError(options.dataDir, {
      missing: gone.map((file) => file.name).join(', '),
      found: `kiosbot.json, which lists ${gone.length === 1 ? 'it' : 'them'},`,
      loses: gone.map((file) => (gone.length === 1 ? file.loses : `${file.name}: ${file.loses}`)).join('; '),
    });
  }
  return { lost: gone.map((file) => `${file.name}: ${file.loses}`), present };
}

/** Whether the hot file's record of the data files is `files`. */
export function recordsDataFiles(meta: HotData['meta'], files: DataFiles): boolean {
  return JSON.stringify([meta.userShards, meta.sideFiles]) === JSON.stringify([files.userShards, files.sideFiles]);
}

/** How long the record of a file written for the first time may wait to go with another write of the hot file. */
const recordWithinMs = 5_000;

export interface DataFilesRecorder {
  attach(hot: DurableFile<HotData>): void;
  /** A data file was written (a store's `onWrite`). */
  wrote(file: string): void;
}

/**
 * Records each shard and side file written for the first time with the hot file's next write
 * (after the file is on disk: the record never names a file not written). A record lost costs
 * nothing: the next open records what it finds. Before `attach` (the open) it does nothing.
 */
export function createDataFilesRecorder(dataDir: string): DataFilesRecorder {
  let hot: DurableFile<HotData> | undefined;
  const sideFiles = new Set(Object.keys(sideFileLosses));
  return {
    attach: (file) => void (hot = file),
    wrote(file) {
      const name = path.relative(dataDir, file).split(path.sep).join('/');
      const shard = isUserShardFileName(name) ? Number(name.slice(usersDirName.length + 1, -'.json'.length)) : undefined;
      if (!hot || (shard === undefined && !sideFiles.has(name))) return;
      const meta = hot.data.meta;
      if (shard === undefined ? meta.sideFiles?.includes(name) : meta.userShards?.includes(shard)) return;
      try {
        hot
          .updateDeferred(({ meta: current }) => {
            if (shard === undefined) current.sideFiles = [...new Set([...(current.sideFiles ?? []), name])].sort();
            else current.userShards = [...new Set([...(current.userShards ?? []), shard])].sort((a, b) => a - b);
          }, recordWithinMs)
          .written.catch(noop);
      } catch {
        // The hot file is closed: the next open records the file.
      }
    },
  };
}
