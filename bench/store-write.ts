/**
 * Store write benchmark: latency of one durable change to the hot file with N users and N open
 * transactions, and how many changes per second coalescing turns into how many file writes.
 * Prints one JSON line per figure. Run: npx tsx bench/store-write.ts
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { WriteEvent } from '../src/store/durable-file.ts';
import { hotFileName, openStore, type Store } from '../src/store/store.ts';
import { createVault } from '../src/store/vault.ts';

const sizes = [1_000, 10_000];
const latencyRounds = 30;
const coalesceUpdates = 10_000;
const vault = createVault({ key: Buffer.alloc(32, 7) });

function emit(figures: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'store-write', ...figures }));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

const round = (n: number) => Math.round(n * 100) / 100;

async function open(dataDir: string, writes: WriteEvent[]): Promise<Store> {
  return openStore({ dataDir, vault, onWrite: (event) => writes.push(event) });
}

/** N users with sealed reseller credentials and N open transactions. */
async function populate(store: Store, n: number): Promise<void> {
  const created = new Date().toISOString();
  const pending: Array<Promise<unknown>> = [];
  for (let i = 0; i < n; i++) {
    const id = 100_000 + i;
    pending.push(store.users.upsert({ id, firstName: `Reseller ${i}`, username: `reseller_${i}`, locale: 'id' }));
    pending.push(store.credentials.save(id, 'reseller', { apiId: `RS-${i}`, apiKey: `key-${i}-0123456789abcdef` }, `RS-${i}`.slice(0, 4)));
    pending.push(
      store.transactions.create({
        refId: `bench-${i.toString().padStart(8, '0')}`,
        userId: id,
        chatId: id,
        code: 'TSEL10',
        productName: 'Telkomsel 10.000',
        target: '081234567890',
        price: 10_250,
        status: 'Pending',
        createdAt: created,
      }),
    );
  }
  await Promise.all(pending);
}

async function benchSize(n: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kiosbot-bench-'));
  try {
    const writes: WriteEvent[] = [];
    let store = await open(dataDir, writes);
    await populate(store, n);
    await store.close();

    const file = path.join(dataDir, hotFileName);
    const bytes = statSync(file).size;
    const openStarted = performance.now();
    store = await open(dataDir, writes);
    const openMs = performance.now() - openStarted;

    // One awaited change at a time: the latency a user waits for "saved".
    const latencies: number[] = [];
    const writeMs: number[] = [];
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    for (let round = 0; round < latencyRounds; round++) {
      const before = writes.length;
      const started = performance.now();
      await store.users.update(100_000 + round, { alertThreshold: 50_000 + round });
      latencies.push(performance.now() - started);
      for (const event of writes.slice(before)) writeMs.push(event.durationMs);
    }
    delay.disable();
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const stringifyStarted = performance.now();
    JSON.stringify(parsed);
    const stringifyMs = performance.now() - stringifyStarted;
    emit({
      case: 'hot-write-latency',
      users: n,
      openTransactions: n,
      fileBytes: bytes,
      openMs: round(openMs),
      rounds: latencyRounds,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      maxMs: percentile(latencies, 100),
      writeP50Ms: percentile(writeMs, 50),
      stringifyMs: round(stringifyMs),
      eventLoopMaxBlockMs: round(delay.max / 1e6),
    });

    // Many changes arriving over time (100 per event-loop turn), all awaited.
    const before = writes.length;
    const started = performance.now();
    const pending: Array<Promise<unknown>> = [];
    for (let i = 0; i < coalesceUpdates; i++) {
      pending.push(store.users.update(100_000 + (i % n), { alertThreshold: i }));
      if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(pending);
    const elapsed = performance.now() - started;
    const fileWrites = writes.length - before;
    emit({
      case: 'coalescing-throughput',
      users: n,
      openTransactions: n,
      updates: coalesceUpdates,
      fileWrites,
      updatesPerWrite: round(coalesceUpdates / Math.max(1, fileWrites)),
      totalMs: round(elapsed),
      updatesPerSecond: Math.round(coalesceUpdates / (elapsed / 1000)),
    });
    await store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const started = performance.now();
for (const n of sizes) await benchSize(n);
emit({ case: 'total', sizes, totalMs: round(performance.now() - started) });
