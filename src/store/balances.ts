/**
 * The reseller balances the bot saw (for /laporan), in `balances.json`: read on every /saldo,
 * alert check and Sukses purchase, so not in the hot file. Only changes are kept, as
 * `[unix seconds, rupiah, account]`, the newest `balancesKeptPerUser` per user.
 */
import path from 'node:path';
import { z } from 'zod';
import { DurableFile, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { versionedDecoder } from './versioned.ts';
import type { AnsweredAtOnce, BalanceStore, FileRepo } from './contract.ts';
import { balancesKeptPerUser } from './records/balances.ts';

export const balancesFileName = 'balances.json';
const fileVersion = 1;

/** `[unix seconds, balance in rupiah, account label]`. */
const entrySchema = z.tuple([z.number().int(), z.number().int(), z.string()]);
const fileSchema = z.object({ version: z.literal(fileVersion), users: z.record(z.string(), z.array(entrySchema)) });
type BalancesData = z.infer<typeof fileSchema>;

/** Decodes `balances.json` (also for backups); a newer version is refused with StoreVersionError. */
export const decodeBalancesFile = versionedDecoder(fileSchema, fileVersion);

/** The contract's BalanceStore over `balances.json`. */
export type BalancesRepo = AnsweredAtOnce<BalanceStore, 'list'> & FileRepo;

export async function openBalances(options: {
  dataDir: string;
  now: () => Date;
  onWrite?: (event: WriteEvent) => void;
  writeFile?: AtomicWriter;
}): Promise<BalancesRepo> {
  const file = await DurableFile.open<BalancesData>({
    path: path.join(options.dataDir, balancesFileName),
    decode: decodeBalancesFile,
    defaultData: () => ({ version: fileVersion, users: {} }),
    onWrite: options.onWrite,
    writeFile: options.writeFile,
  });
  const lastFor = (userId: number, account: string) => file.data.users[String(userId)]?.findLast((entry) => entry[2] === account);

  return {
    async record(userId, account, balance) {
      if (lastFor(userId, account)?.[1] === balance) return false;
      const at = Math.floor(options.now().getTime() / 1000);
      return file.update((data) => {
        const entries = (data.users[String(userId)] ??= []);
        // Two reads racing: the second sees the first one's value in the data it writes.
        if (entries.findLast((entry) => entry[2] === account)?.[1] === balance) return false;
        entries.push([at, balance, account]);
        if (entries.length > balancesKeptPerUser) entries.splice(0, entries.length - balancesKeptPerUser);
        return true;
      });
    },
    list(userId, range) {
      const from = range ? range.from.getTime() / 1000 : -Infinity;
      const to = range ? range.to.getTime() / 1000 : Infinity;
      return (file.data.users[String(userId)] ?? [])
        .filter(([at]) => at >= from && at < to)
        .map(([at, balance, account]) => ({ at: new Date(at * 1000).toISOString(), balance, account }));
    },
    flush: () => file.flush(),
    close: () => file.close(),
  };
}
