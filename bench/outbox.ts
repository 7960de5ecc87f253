/**
 * Outbox benchmark against the loopback Bot API emulator with a real store:
 * - `unpaced`: limits lifted, how many messages per second the outbox itself can push
 *   (scheduler, store removal writes, HTTP) - the headroom above Telegram's limits;
 * - `paced`: Telegram's real default limits, a broadcast to many users: the achieved rate must
 *   approach but never exceed the global limit, with at most one message per chat per second;
 * - `large-queue`: a broadcast of thousands under the real limits: the rate reached and how busy
 *   the event loop is meanwhile (the outbox makes one scheduling pass over the queue per send).
 * - `paced-rtt`: as `paced`, with every Telegram call delayed (`rttMs`) like a real round trip to
 *   Telegram: the outbox keeps at most `maxUnrecordedDeliveries` sends unrecorded (the crash bound),
 *   so this shows whether that bound still lets it reach the global limit.
 * Prints one JSON line per figure. Run: npx tsx bench/outbox.ts [--quick]
 */
import { createDb } from '../src/store/db.ts';
import { createLowdbEngine } from '../src/store/lowdb-engine.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Api } from 'grammy';
import { createLogger } from '../src/logger.ts';
import { createOutbox, maxUnrecordedDeliveries, type OutboxLimits } from '../src/notify/outbox.ts';
import { startBotApi } from '../tools/playground/bot-api.ts';
import { openStore, type Store } from '../src/store/store.ts';
import { createVault } from '../src/store/vault.ts';

const quick = process.argv.includes('--quick');
const vault = createVault({ key: Buffer.alloc(32, 7) });
const logger = createLogger({ level: 'error' });

function emit(figures: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'outbox', ...figures }));
}

const round = (n: number) => Math.round(n * 100) / 100;

async function withWorld<T>(
  run: (world: { store: Store; api: Api; telegram: Awaited<ReturnType<typeof startBotApi>> }) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kiosbot-bench-outbox-'));
  const telegram = await startBotApi();
  const store = await openStore({ dataDir, vault });
  try {
    return await run({ store, api: new Api(telegram.token, { apiRoot: telegram.apiRoot }), telegram });
  } finally {
    await store.close();
    await telegram.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function enqueueBroadcast(store: Store, userIds: number[], perUser: number): Promise<void> {
  const writes: Array<Promise<unknown>> = [];
  for (let round = 0; round < perUser; round++) {
    for (const chatId of userIds)
      writes.push(store.outbox.enqueue({ chatId, kind: 'bench', payload: { type: 'send', text: `Pengumuman ${round + 1}` } }));
  }
  await Promise.all(writes);
}

async function run(scenario: string, users: number, perUser: number, limits: OutboxLimits, rttMs = 0): Promise<void> {
  await withWorld(async ({ store, api, telegram }) => {
    // A real round trip to Telegram, added before each call (the emulator answers at once).
    if (rttMs > 0)
      api.config.use(
        async (prev, method, payload, signal) => (
          await new Promise((resolve) => setTimeout(resolve, rttMs)),
          prev(method, payload, signal)
        ),
      );
    const ids = Array.from({ length: users }, (_, i) => telegram.createUser({ firstName: `User ${i}` }).id);
    await enqueueBroadcast(store, ids, perUser);
    const outbox = createOutbox({ api, db: dbOf(store), logger, limits });
    const started = performance.now();
    outbox.start();
    await outbox.drain({ timeoutMs: 600_000 });
    const seconds = (performance.now() - started) / 1000;
    await outbox.stop();
    const messages = users * perUser;
    const delivered = telegram.sendTimes('all').length;
    const perChatMax = Math.max(...ids.map((id) => telegram.maxSendsInWindow(id, 1000)));
    emit({
      scenario,
      users,
      messages,
      delivered,
      seconds: round(seconds),
      messagesPerSecond: round(messages / seconds),
      maxGlobalPerSecond: telegram.maxSendsInWindow('all', 1000),
      maxPerChatPerSecond: perChatMax,
      ...(rttMs > 0 ? { rttMs } : {}),
      maxUnrecorded: maxUnrecordedDeliveries,
      limits,
    });
  });
}

/** A big broadcast under the real limits: how busy the event loop is while the outbox works through it. */
async function largeQueue(queued: number, seconds: number): Promise<void> {
  await withWorld(async ({ store, api, telegram }) => {
    const ids = Array.from({ length: queued }, (_, i) => telegram.createUser({ firstName: `User ${i}` }).id);
    await enqueueBroadcast(store, ids, 1);
    const rounds = 50;
    let started = performance.now();
    for (let i = 0; i < rounds; i++) store.outbox.entries();
    const entriesMs = (performance.now() - started) / rounds;

    const outbox = createOutbox({ api, db: dbOf(store), logger });
    const before = performance.eventLoopUtilization();
    started = performance.now();
    outbox.start();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const utilization = performance.eventLoopUtilization(before).utilization;
    const elapsed = (performance.now() - started) / 1000;
    await outbox.stop();
    const delivered = telegram.sendTimes('all').length;
    emit({
      scenario: 'large-queue',
      queued,
      delivered,
      messagesPerSecond: round(delivered / elapsed),
      maxGlobalPerSecond: telegram.maxSendsInWindow('all', 1000),
      eventLoopUtilization: round(utilization),
      entriesReadMs: round(entriesMs),
    });
  });
}

const lifted: OutboxLimits = { perChatMs: 0, perGroupPerMinute: 1_000_000, globalPerSecond: 1_000_000 };
await run('unpaced', 50, quick ? 4 : 20, lifted);
await run('paced', quick ? 60 : 150, 1, {});
await run('paced-rtt', quick ? 60 : 150, 1, {}, 200);
await run('paced-rtt', quick ? 60 : 150, 1, {}, 300);
await largeQueue(quick ? 2_000 : 10_000, quick ? 2 : 4);

/** The store contract over the benchmark's lowdb store, as the outbox and the watcher take it. */
function dbOf(store: Store) {
  return createDb(createLowdbEngine(store), vault);
}
