/**
 * Settlement watcher benchmark (issue 15): 10,000 Pending transactions due at once, time until
 * each was checked once, at the default bounds (8 calls at once, 2 per account) with a purchase
 * service that answers at once and one that answers in 50 ms, each storing "still Pending" as the
 * real purchase service does (a deferred write: in effect at once, on disk with the next write or
 * within a second); and answering at once but waiting for each durable write, as answers that must
 * be on disk first do (the store's pace, for information); and the CPU of an idle tick with
 * 10,000 Pending not yet due, beside what the tick did before the due-time index (copy + sort +
 * filter of every open transaction). Prints one JSON line per figure. Run: npx tsx bench/watcher.ts
 */
import { createDb } from '../src/store/db.ts';
import { createLowdbEngine } from '../src/store/lowdb-engine.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSettlementWatcher } from '../src/jobs/settlement.ts';
import { createLogger } from '../src/logger.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { createVault } from '../src/store/vault.ts';
import { fakePurchases } from '../test/helpers/fake-purchases.ts';

const pendingCount = 10_000;
/** 10 per account: the per-account bound (2) never leaves a slot idle. */
const accounts = 1_000;
const concurrency = 8;
const idleTicks = 200;
const vault = createVault({ key: Buffer.alloc(32, 7) });
const logger = createLogger({ level: 'error', write: () => undefined });
const round = (n: number) => Math.round(n * 100) / 100;

function emit(figures: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'watcher', ...figures }));
}

async function withStore<T>(dueInMs: number, run: (store: Store) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kiosbot-bench-'));
  const store = await openStore({ dataDir, vault });
  try {
    const nextCheckAt = new Date(Date.now() + dueInMs).toISOString();
    await store.transactions.createMany(
      Array.from({ length: pendingCount }, (_, i) => ({
        refId: `bench-${i.toString().padStart(8, '0')}`,
        userId: 100_000 + (i % accounts),
        chatId: 100_000 + (i % accounts),
        code: 'TSEL10',
        productName: 'Telkomsel 10.000',
        target: '081234567890',
        price: 10_250,
        status: 'Pending' as const,
        nextCheckAt,
      })),
    );
    return await run(store);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** 10k due at once: seconds until the last was checked once. */
async function dueAtOnce(answerMs: number, awaitWrites: boolean): Promise<void> {
  await withStore(-1000, async (store) => {
    const answer = answerMs > 0 ? () => new Promise<void>((resolve) => setTimeout(resolve, answerMs)) : undefined;
    // Still Pending after being Pending: the real purchase service defers that write (deferWrite).
    const fake = fakePurchases(store, { now: () => new Date(), awaitWrites, deferWrites: !awaitWrites, ...(answer ? { answer } : {}) });
    const watcher = watcherOver(store, fake, {
      concurrency,
    });
    const started = performance.now();
    const cpu = process.cpuUsage();
    watcher.start();
    await fake.checked(pendingCount);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await watcher.stop();
    const floor = answerMs > 0 ? (pendingCount * answerMs) / concurrency / 1000 : undefined;
    emit({
      figure: 'due-10k',
      answer_ms: answerMs,
      store_writes_awaited: awaitWrites,
      concurrency,
      per_account: 2,
      seconds_until_all_checked: round(seconds),
      checks_per_s: Math.round(pendingCount / seconds),
      cpu_s: round((used.user + used.system) / 1e6),
      max_in_flight: fake.maxInFlight.overall,
      max_in_flight_per_account: fake.maxInFlight.perAccount,
      ...(floor !== undefined ? { floor_s: floor, floor_of: 'pending × answer time / concurrency' } : {}),
      ...(awaitWrites
        ? {
            // Not the scenario (10k re-checks of Pending purchases: their writes are
            // deferred, rows above); what answers that must be on disk first cost (a first answer,
            // a settlement): the store's pace.
            what: 'every answer waits for its durable write (the hot file, 10k open transactions): the store pace for answers that must be on disk first',
          }
        : {
            target: 'every due check within 2 s of its due time at 10k, or limited by concurrency × answer time only',
            ...(floor !== undefined
              ? {
                  ofFloor: round(seconds / floor),
                  ...(seconds > floor * 1.1 ? { missed: 'more than 10% over concurrency × answer time' } : {}),
                }
              : seconds > 2
                ? { missed: 'over 2 s with instant answers' }
                : {}),
          }),
    });
  });
}

/** CPU per tick with 10k Pending not yet due, beside the tick before the index. */
async function idle(): Promise<void> {
  await withStore(3600_000, async (store) => {
    const fake = fakePurchases(store, { now: () => new Date() });
    const watcher = watcherOver(store, fake);
    const perTick = async (tick: () => unknown): Promise<number> => {
      await tick();
      const cpu = process.cpuUsage();
      for (let i = 0; i < idleTicks; i++) await tick();
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / idleTicks / 1000;
    };
    const now = Date.now();
    const before = await perTick(() => store.transactions.listOpen().filter((tx) => Date.parse(tx.nextCheckAt ?? tx.createdAt) <= now));
    const after = await perTick(() => watcher.runOnce());
    emit({
      figure: 'idle-tick-10k',
      pending_not_due: pendingCount,
      ticks: idleTicks,
      cpu_ms_per_tick: round(after),
      before_index_cpu_ms_per_tick: round(before),
      checks: fake.calls.size,
      target: 'idle CPU near zero',
      ...(after > 1 ? { missed: true } : {}),
    });
  });
}

await idle();
await dueAtOnce(0, false);
await dueAtOnce(50, false);
await dueAtOnce(0, true);

/** The store contract over the benchmark's lowdb store, as the outbox and the watcher take it. */
function dbOf(store: Store) {
  return createDb(createLowdbEngine(store), vault);
}

/** The watcher over the benchmark's store and fake purchases, on the wall clock. */
function watcherOver(
  store: Store,
  fake: ReturnType<typeof fakePurchases>,
  options: Partial<Parameters<typeof createSettlementWatcher>[0]> = {},
) {
  return createSettlementWatcher({
    db: dbOf(store),
    purchases: fake.service,
    logger,
    now: () => new Date(),
    horizonMs: 48 * 3600_000,
    ...options,
  });
}
