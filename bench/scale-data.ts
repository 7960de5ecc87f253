/**
 * Data directories at scale for the store and start-up benchmarks (issue 15), generated through
 * the store's own API and cached under os.tmpdir() between runs (generating 1M transactions takes
 * minutes). Users, sealed reseller credentials and a few open transactions go through
 * `openStore` (users.upsert, credentials.save, transactions.create); the settled history is
 * appended month by month through the store's history archive (`openHistory` → `append`, one
 * append per month: the segment and index format `transactions.settle` writes), then the
 * directory is opened again and a settled transaction looked up, so a format the store does not
 * read fails here.
 */
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { monotonicFactory } from 'ulid';
import { historyDirName, openStore } from '../src/store/store.ts';
import { openHistory } from '../src/store/history.ts';
import { monthOf } from '../src/store/history-lines.ts';
import type { TransactionRecord } from '../src/store/records/transactions.ts';
import { createVault } from '../src/store/vault.ts';

/** The key every generated directory is sealed with (ENCRYPTION_KEY for the bot process). */
export const benchKey = Buffer.alloc(32, 7);
export const benchVault = createVault({ key: benchKey });

export interface ScaleSize {
  /** `1k`, `10k`, `50k`: the name on the command line and in the output. */
  name: string;
  users: number;
  /** Settled transactions in history. */
  transactions: number;
  /** Open (Pending) transactions in the hot file. */
  open: number;
}

export const scaleSizes: readonly ScaleSize[] = [
  { name: '1k', users: 1_000, transactions: 10_000, open: 100 },
  { name: '10k', users: 10_000, transactions: 100_000, open: 100 },
  { name: '50k', users: 50_000, transactions: 1_000_000, open: 100 },
];

/** Reads `--sizes 1k,10k` / `--full` (all sizes); default `quick`. */
export function selectSizes(argv: readonly string[], quick: readonly string[]): ScaleSize[] {
  const at = argv.indexOf('--sizes');
  const names = argv.includes('--full') ? scaleSizes.map((s) => s.name) : at >= 0 ? (argv[at + 1] ?? '').split(',') : quick;
  return names.map((name) => {
    const size = scaleSizes.find((s) => s.name === name.trim());
    if (!size) throw new Error(`Unknown size ${name}: use ${scaleSizes.map((s) => s.name).join(', ')}`);
    return size;
  });
}

/** Months of history: the 12 months before (and including) the generation month. */
const historyMonths = 12;
/** Different targets (phone numbers) each user buys for. */
const targetsPerUser = 5;
const firstUserId = 100_000;

export const userIdOf = (i: number) => firstUserId + i;
export const targetOf = (user: number, k: number) => `0812${String(user % 1_000_000).padStart(6, '0')}${k}`;

/** The i-th settled transaction, deterministic except for its ref id (a ULID of its creation time, as the bot mints). */
export function settledTransaction(i: number, size: ScaleSize, createdMs: number, refId: string): TransactionRecord {
  const user = userIdOf(i % size.users);
  const created = new Date(createdMs).toISOString();
  const settled = new Date(createdMs + 40_000).toISOString();
  const ok = i % 10 !== 0;
  return {
    refId,
    userId: user,
    chatId: user,
    code: 'TSEL10',
    productName: 'Telkomsel 10.000',
    target: targetOf(user, Math.floor(i / size.users) % targetsPerUser),
    price: 10_250,
    sellPrice: 11_000,
    margin: 750,
    status: ok ? 'Sukses' : 'Gagal',
    providerStatus: ok ? 'Sukses' : 'Gagal',
    trxId: `T${String(i).padStart(9, '0')}`,
    ...(ok ? { sn: `SN${String(i * 7919).padStart(12, '0')}` } : { message: 'Nomor tujuan salah' }),
    createdAt: created,
    updatedAt: settled,
    sentAt: created,
    settledAt: settled,
    checks: 2,
    notified: true,
  };
}

export interface ScaleData {
  size: ScaleSize;
  /** The store's data directory. */
  dataDir: string;
  /** The naive single-file lowdb baseline (`db.json`). */
  baselineFile: string;
  /** A settled transaction to look up: its ref id, user and target. */
  probe: { refId: string; userId: number; target: string; trxId: string };
  /** Seconds generation took (0 when taken from the cache). */
  generatedSeconds: number;
}

const cacheRoot = path.join(tmpdir(), 'kiosbot-bench-scale');
/**
 * Part of the cache's name: bump `generatorVersion` when the generated content changes; the hash
 * of the store's sources regenerates the directories whenever the store (and so maybe its file
 * layout) changed.
 */
const generatorVersion = 3;
const storeDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/store');
/** The store's source files, sub-folders (pg/) included, in a stable order. */
const storeSources = readdirSync(storeDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => path.join(entry.parentPath, entry.name))
  .sort();
const cacheVersion = `${generatorVersion}-${createHash('sha256')
  .update(storeSources.map((file) => readFileSync(file, 'utf8')).join('\0'))
  .digest('hex')
  .slice(0, 10)}`;

/** The cached directories of `size`, generated first if missing. Logs progress to stderr. */
export async function scaleData(size: ScaleSize): Promise<ScaleData> {
  const root = path.join(cacheRoot, `v${cacheVersion}-${size.name}`);
  const probeFile = path.join(root, 'probe.json');
  const started = performance.now();
  let generatedSeconds = 0;
  if (!existsSync(probeFile)) {
    // Directories of an older generator or store for this size are stale: remove them (they are big).
    const stale = new RegExp(`^v.*-${size.name}(\\.building-\\d+)?$`);
    if (existsSync(cacheRoot))
      for (const name of readdirSync(cacheRoot)) if (stale.test(name)) rmSync(path.join(cacheRoot, name), { recursive: true, force: true });
    const building = `${root}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    process.stderr.write(`generating ${size.name} (${size.users} users, ${size.transactions} transactions) in ${root}\n`);
    const probe = await generate(size, building);
    writeFileSync(path.join(building, 'probe.json'), JSON.stringify(probe));
    renameSync(building, root);
    generatedSeconds = Math.round((performance.now() - started) / 100) / 10;
  }
  const probe = JSON.parse(readFileSync(probeFile, 'utf8')) as ScaleData['probe'];
  return { size, dataDir: path.join(root, 'store'), baselineFile: path.join(root, 'baseline', 'db.json'), probe, generatedSeconds };
}

async function generate(size: ScaleSize, root: string): Promise<ScaleData['probe']> {
  const dataDir = path.join(root, 'store');
  const nowMs = Date.now();
  const spanMs = historyMonths * 30 * 24 * 3600_000;
  const mint = monotonicFactory();

  // Users, credentials and open transactions through the repositories; each chunk is one write.
  const store = await openStore({ dataDir, vault: benchVault });
  const users = [];
  const credentials = [];
  try {
    for (let from = 0; from < size.users; from += 5_000) {
      const pending: Array<Promise<unknown>> = [];
      for (let i = from; i < Math.min(size.users, from + 5_000); i++) {
        const id = userIdOf(i);
        const user = { id, firstName: `Reseller ${i}`, username: `reseller_${i}`, locale: 'id' as const };
        users.push({ ...user, active: true, createdAt: new Date(nowMs - spanMs).toISOString() });
        const secret = { apiId: `RS-${i}`, apiKey: `key-${i}-0123456789abcdef` };
        credentials.push({ userId: id, service: 'reseller', ...secret });
        pending.push(store.users.upsert(user));
        pending.push(store.credentials.save(id, 'reseller', secret, `RS-${i}`.slice(0, 4)));
      }
      await Promise.all(pending);
    }
    const open: Array<Promise<unknown>> = [];
    for (let i = 0; i < size.open; i++) {
      const user = userIdOf(i % size.users);
      open.push(
        store.transactions.create({
          refId: mint(nowMs - 60_000 + i),
          userId: user,
          chatId: user,
          code: 'TSEL10',
          productName: 'Telkomsel 10.000',
          target: targetOf(user, 0),
          price: 10_250,
          status: 'Pending',
          createdAt: new Date(nowMs - 60_000 + i).toISOString(),
        }),
      );
    }
    await Promise.all(open);
  } finally {
    await store.close();
  }

  // Settled history, oldest first, spread evenly over the months; one write per month.
  const history = await openHistory({ dir: path.join(dataDir, historyDirName) });
  const baselineTransactions = path.join(root, 'baseline-transactions.jsonl');
  const lines = createWriteStream(baselineTransactions);
  let probe: ScaleData['probe'] | undefined;
  let month: string | undefined;
  let batch: TransactionRecord[] = [];
  const writeMonth = async () => {
    if (!month || batch.length === 0) return;
    await history.append(batch);
    batch = [];
  };
  try {
    for (let i = 0; i < size.transactions; i++) {
      const createdMs = nowMs - spanMs + Math.floor((i / size.transactions) * (spanMs - 3_600_000));
      const tx = settledTransaction(i, size, createdMs, mint(createdMs));
      const txMonth = monthOf(tx.createdAt);
      if (txMonth !== month) {
        await writeMonth();
        month = txMonth;
      }
      batch.push(tx);
      // The probe: a transaction half-way through the history (an older month, not the current one).
      if (i === Math.floor(size.transactions / 2)) probe = { refId: tx.refId, userId: tx.userId, target: tx.target, trxId: tx.trxId ?? '' };
      if (!lines.write(`${JSON.stringify(tx)}\n`)) await once(lines, 'drain');
      if (i % 100_000 === 99_999) process.stderr.write(`  ${i + 1} transactions\n`);
    }
    await writeMonth();
  } finally {
    await history.close();
    lines.end();
    await once(lines, 'close');
  }
  if (!probe) throw new Error('no transaction generated');

  // Verify: the store opens the directory and finds the probe in history.
  const check = await openStore({ dataDir, vault: benchVault });
  try {
    const found = await check.transactions.find(probe.refId);
    if (found?.target !== probe.target) throw new Error(`the generated history does not read back: ${probe.refId} not found`);
    if (check.users.count() !== size.users) throw new Error(`expected ${size.users} users, the store has ${check.users.count()}`);
  } finally {
    await check.close();
  }

  await writeBaseline(path.join(root, 'baseline', 'db.json'), users, credentials, baselineTransactions);
  rmSync(baselineTransactions);
  return probe;
}

/**
 * The naive baseline: one lowdb JSON file with every user, credential and transaction, written the
 * way lowdb's JSONFile writes it (`JSON.stringify(data, null, 2)`), but streamed, since at 1M
 * transactions that text is longer than V8's longest string (that is the baseline's crash).
 */
async function writeBaseline(file: string, users: unknown[], credentials: unknown[], transactionLines: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const indent = (value: unknown) => JSON.stringify(value, null, 2).replaceAll('\n', '\n    ');
  const writeArray = async (name: string, items: Iterable<unknown> | AsyncIterable<unknown>, last: boolean) => {
    await write(`  "${name}": [`);
    let first = true;
    for await (const item of items) {
      await write(`${first ? '' : ','}\n    ${indent(item)}`);
      first = false;
    }
    await write(`${first ? '' : '\n  '}]${last ? '' : ','}\n`);
  };
  await write('{\n');
  await writeArray('users', users, false);
  await writeArray('credentials', credentials, false);
  const parsed = async function* () {
    for await (const line of createInterface({ input: createReadStream(transactionLines) })) if (line) yield JSON.parse(line) as unknown;
  };
  await writeArray('transactions', parsed(), true);
  await write('}');
  out.end();
  await once(out, 'close');
}
