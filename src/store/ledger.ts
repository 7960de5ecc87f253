/**
 * The downlines' wallets of the lowdb store (the contract's LedgerStore), in `ledger.json`.
 *
 * Where the entries live: a purchase's hold must be written in the same write as the purchase,
 * and open purchases live in the hot file (`kiosbot.json`), not in their owner's shard. So every
 * entry (a deposit too: one path, one order) is first written into the hot file's `ledger` with
 * the change it goes with, and the rules are checked inside that write's mutator, where all
 * appends are serialised: of two holds on one wallet in one instant the second sees the first.
 * Once that write is on disk the entries are copied into `ledger.json` (all wallets, by wallet
 * in `seq` order), then dropped from the hot file with its next write, so the hot file keeps only
 * entries on their way. A crash between the two leaves them in the hot file, which the next open
 * copies (an entry whose `seq` the wallet has already is not copied twice). Reads join the two:
 * ledger.json's entries, then the wallet's in the hot file after them.
 *
 * ledger.json is rewritten whole at each copy (like balances.json): fine for the entries of a
 * reseller's downlines; a wallet history that grows past that would move to append-only segments
 * as the transaction history did.
 */
import path from 'node:path';
import { z } from 'zod';
import { noop } from './atomic-file.ts';
import { copy } from './context.ts';
import type { AnsweredAtOnce, FileRepo, LedgerStore } from './contract.ts';
import { insertOutboxItem } from './outbox.ts';
import { buildOutboxItem } from './records/outbox.ts';
import { DurableFile, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import {
  appendEntries,
  ledgerEntrySchema,
  walletStateOf,
  walletSummaryOf,
  type LedgerAppend,
  type LedgerEntry,
  type NewLedgerEntry,
  type StatementOptions,
} from './records/ledger.ts';
import type { HotData } from './schema.ts';
import { versionedDecoder } from './versioned.ts';

export const ledgerFileName = 'ledger.json';
const fileVersion = 1;

/** How long dropping copied entries from the hot file may wait for its next write (a loss costs nothing: the next open skips them). */
const dropWithinMs = 1000;

const fileSchema = z
  .object({ version: z.literal(fileVersion), wallets: z.record(z.string(), z.array(ledgerEntrySchema)) })
  .superRefine((data, ctx) => {
    for (const [wallet, entries] of Object.entries(data.wallets)) {
      entries.forEach((entry, index) => {
        if (String(entry.wallet) !== wallet || entry.seq !== index + 1) {
          ctx.addIssue({ code: 'custom', path: ['wallets', wallet, index], message: `not entry ${index + 1} of wallet ${wallet}` });
        }
      });
    }
  });
type LedgerData = z.infer<typeof fileSchema>;

/** Decodes `ledger.json` (also for backups); a newer version is refused with StoreVersionError. */
export const decodeLedgerFile = versionedDecoder(fileSchema, fileVersion);

/** An entry's key in the hot file's `ledger`. */
const carriedKey = (entry: LedgerEntry) => `${entry.wallet}:${entry.seq}`;

/** The contract's LedgerStore, reads answered at once, and what the transactions write with. */
export type LedgerRepo = AnsweredAtOnce<LedgerStore, 'balance' | 'statement' | 'byRef' | 'summary'> &
  FileRepo & {
    /** The wallet's entries in seq order. */
    entries(wallet: number): LedgerEntry[];
    /** Every wallet with an entry, by id. */
    wallets(): number[];
    /** Inside a hot-file mutator: applies `inputs` (new entries into `data.ledger`); a refusal throws before anything changes. */
    appendIn(data: HotData, inputs: readonly NewLedgerEntry[], at: Date): LedgerAppend[];
    /** After the hot write that carried `appends` is on disk: copies them into ledger.json (not waited for: they are durable). */
    carried(appends: readonly LedgerAppend[]): void;
  };

export async function openLedger(options: {
  dataDir: string;
  hot: DurableFile<HotData>;
  now: () => Date;
  onWrite?: ((event: WriteEvent) => void) | undefined;
  writeFile?: AtomicWriter | undefined;
}): Promise<LedgerRepo> {
  const { hot, now } = options;
  const file = await DurableFile.open<LedgerData>({
    path: path.join(options.dataDir, ledgerFileName),
    decode: decodeLedgerFile,
    defaultData: () => ({ version: fileVersion, wallets: {} }),
    onWrite: options.onWrite,
    writeFile: options.writeFile,
  });
  /** Entries whose hot write is on disk and that ledger.json may not have yet, by carriedKey. */
  const durable = new Map<string, LedgerEntry>();

  const entries = (wallet: number): LedgerEntry[] => {
    const stored = file.data.wallets[String(wallet)] ?? [];
    const carried = Object.values(hot.data.ledger ?? {})
      .filter((entry) => entry.wallet === wallet && entry.seq > stored.length)
      .sort((a, b) => a.seq - b.seq);
    return carried.length > 0 ? [...stored, ...carried] : stored;
  };

  const dropFromHot = (copied: readonly LedgerEntry[]) => {
    try {
      hot
        .updateDeferred((data) => {
          for (const entry of copied) if (data.ledger?.[carriedKey(entry)]?.key === entry.key) delete data.ledger[carriedKey(entry)];
          if (data.ledger && Object.keys(data.ledger).length === 0) delete data.ledger;
        }, dropWithinMs)
        .written.catch(noop);
    } catch {
      // The hot file is closed: the next open drops them.
    }
  };

  /** Copies the durable entries that follow their wallet's last one in ledger.json; a failure leaves them for the next copy or open. */
  const copyDurable = async (): Promise<void> => {
    if (durable.size === 0) return;
    let written: Promise<LedgerEntry[]>;
    try {
      written = file.update((data) => {
        const copied: LedgerEntry[] = [];
        const waiting = [...durable.values()].sort((a, b) => a.wallet - b.wallet || a.seq - b.seq);
        for (const entry of waiting) {
          const list = data.wallets[String(entry.wallet)] ?? [];
          if (entry.seq === list.length + 1) {
            data.wallets[String(entry.wallet)] = list;
            list.push(entry);
          }
          // There already (an earlier copy, or one before a crash): done with it.
          if (list[entry.seq - 1]?.key === entry.key) copied.push(entry);
        }
        return copied;
      });
    } catch {
      return; // ledger.json is closed: the hot file keeps them for the next open.
    }
    const copied = await written.catch(() => [] as LedgerEntry[]);
    for (const entry of copied) if (durable.get(carriedKey(entry)) === entry) durable.delete(carriedKey(entry));
    if (copied.length > 0) dropFromHot(copied);
  };

  // Entries a crash (or a failed copy) left in the hot file.
  for (const entry of Object.values(hot.data.ledger ?? {})) durable.set(carriedKey(entry), entry);
  await copyDurable();

  const appendIn = (data: HotData, inputs: readonly NewLedgerEntry[], at: Date): LedgerAppend[] => {
    if (inputs.length === 0) return [];
    // `entries` reads hot.data, which is `data` inside its mutator.
    const appends = appendEntries((wallet) => walletStateOf(wallet, entries(wallet)), inputs, at);
    const created = appends.filter((append) => append.created);
    if (created.length > 0) {
      const carried = (data.ledger ??= {});
      for (const { entry } of created) carried[carriedKey(entry)] = entry;
    }
    return appends;
  };

  const carried = (appends: readonly LedgerAppend[]) => {
    const created = appends.filter((append) => append.created);
    if (created.length === 0) return;
    for (const { entry } of created) durable.set(carriedKey(entry), entry);
    void copyDurable();
  };

  return {
    entries: (wallet) => entries(wallet).map(copy),
    wallets() {
      const ids = new Set(Object.keys(file.data.wallets).map(Number));
      for (const entry of Object.values(hot.data.ledger ?? {})) ids.add(entry.wallet);
      return [...ids].sort((a, b) => a - b);
    },
    appendIn,
    carried,
    async append(inputs, options = {}) {
      const appends = await hot.update((data) => {
        const at = now();
        const made = appendIn(data, inputs, at);
        const created = made.filter((append) => append.created).map((append) => append.entry);
        // The messages go into the same hot-file write as the entries they tell of.
        if (created.length > 0 && options.notify)
          for (const item of options.notify(created)) insertOutboxItem(data, buildOutboxItem(item, at));
        return made;
      });
      carried(appends);
      return appends.map(copy);
    },
    balance: (wallet) => entries(wallet).at(-1)?.balance ?? 0,
    statement(wallet, options: StatementOptions = {}) {
      const all = entries(wallet);
      const limit = Math.max(0, options.limit ?? 10);
      const offset = Math.max(0, options.offset ?? 0);
      const end = Math.max(0, all.length - offset);
      return all
        .slice(Math.max(0, end - limit), end)
        .reverse()
        .map(copy);
    },
    summary: (wallet) => walletSummaryOf(wallet, entries(wallet)),
    byRef: (wallet, refId) =>
      entries(wallet)
        .filter((entry) => entry.refId === refId)
        .map(copy),
    flush: () => file.flush(),
    async close() {
      await copyDurable();
      await file.close();
    },
  };
}
