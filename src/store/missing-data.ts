/**
 * Start-up's check that no piece of the data directory is missing while the rest is there. A
 * data directory with nothing in it is new and starts empty; one whose hot file is gone (with its
 * `.bak`) beside the users' files or the history, or whose hot file lists a history month that is
 * gone, would start as if that piece had never existed: every open purchase forgotten, or a month
 * of history silently missing. The store refuses that unless the operator accepts it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { exists } from './atomic-file.ts';
import { StoreMissingError } from './errors.ts';
import { inboxFileName } from './inbox.ts';
import { balancesFileName } from './balances.ts';
import { broadcastsFileName } from './broadcasts.ts';
import { priceWatchFileName } from './price-watch.ts';
import { isUserShardFileName, usersDirName } from './user-shards.ts';

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
  for (const name of [inboxFileName, balancesFileName, broadcastsFileName, priceWatchFileName]) {
    if (await exists(path.join(dataDir, name))) found.push(name);
  }
  return found;
}

/** What the hot file holds, in words: what starting without it loses. */
const hotFileLoss =
  'every open purchase (Pending ones would no longer be checked or settled, and /cek would show none), ' +
  'the queued notifications, the linked groups and the game orders';

/**
 * Before the hot file is opened: refuses (StoreMissingError) when it is missing, with no `.bak`,
 * while other data is there. With `accept`, returns what is lost instead.
 */
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

/**
 * After the hot file is read: refuses (StoreMissingError) when a history month it lists has no
 * file any more. With `accept`, returns what is lost instead.
 */
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
