/**
 * One sender per ref at a time across a fleet (DESIGN invariant 8): two instances on one
 * PostgreSQL database re-check the same Pending purchases at the same moment, the provider slow.
 * The provider never has two requests of one ref in flight at once (the second instance waits for
 * the first one's answer and takes it from the store), and each purchase settles once, with one
 * notice to its owner.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../src/app.ts';
import { createLogger } from '../../../src/logger.ts';
import type { TestWorld } from '../../helpers/app.ts';
import { startSettlementWorld, testClock } from '../../helpers/settlement.ts';
import { seedConnectedUser, transactionRequests } from '../../helpers/seed-transactions.ts';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../../helpers/pg-database.ts';
import type { SandboxRequest } from '../../../tools/sandbox/types.ts';

const available = await postgresAvailable();
const refOf = (request: SandboxRequest): string | undefined => (request.body as { ref_id?: string } | undefined)?.ref_id;

/** Slows every /transaction request at the sandbox by `delayMs`; tracks how many of one ref are in flight at once. */
function slowReseller(world: TestWorld, delayMs: number) {
  const sim = world.sandbox.reseller;
  const original = sim.handle.bind(sim);
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  sim.handle = async (request) => {
    const ref = refOf(request);
    if (request.path !== '/transaction' || ref === undefined) return original(request);
    const now = (inFlight.get(ref) ?? 0) + 1;
    inFlight.set(ref, now);
    most.set(ref, Math.max(now, most.get(ref) ?? 0));
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return await original(request);
    } finally {
      inFlight.set(ref, (inFlight.get(ref) ?? 1) - 1);
    }
  };
  return { mostAtOnce: (ref: string) => most.get(ref) ?? 0 };
}

describe.skipIf(available !== true)('one sender per ref across instances sharing PostgreSQL', () => {
  let database: TestDatabase;
  let world: TestWorld | undefined;
  let second: App | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await second?.close();
    second = undefined;
    await world?.stop();
    world = undefined;
    await database.empty();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('both instances re-check 6 refs at once, the provider slow: never two requests of a ref in flight, each settles once with one notice', async () => {
    const clock = testClock();
    const w = await startSettlementWorld(clock, {
      env: {
        DATABASE_URL: database.url,
        WEBHOOK_URL: 'https://bot.example/telegram',
        WEBHOOK_SECRET: 'a-secret-of-sixteen-chars',
        PROVIDER_TIMEOUT_MS: '15000',
      },
      // Pending at the create; the first status check settles it (Sukses).
      sandbox: { reseller: { settleAfterChecks: 1, settleAfterMs: Infinity } },
    });
    world = w;
    second = await createApp(w.config, {
      logger: createLogger({ level: 'warn', write: () => undefined }),
      botConfig: { botInfo: w.telegram.botInfo },
      now: clock.now,
    });
    const budi = await seedConnectedUser(w, 'Budi');
    const txs = await w.app.services.purchases.confirm({
      confirmationId: 'fleet-one-sender',
      userId: budi.id,
      chatId: budi.id,
      lines: Array.from({ length: 6 }, (_, i) => ({
        code: 'TSEL10',
        productName: 'Telkomsel 10.000',
        target: `08123456780${i}`,
        price: 10_450,
      })),
      // Sent below by the test itself: the watcher leaves them alone meanwhile.
      holdMs: 120_000,
    });
    const refIds = txs.map((tx) => tx.refId);
    for (const refId of refIds) expect((await w.app.services.purchases.submit(refId)).status).toBe('Pending');

    const provider = slowReseller(w, 400);
    const checkedBy = (app: App) => Promise.all(refIds.map((refId) => app.services.purchases.check(refId, { notifyOwner: true })));
    const [first, other] = await Promise.all([checkedBy(w.app), checkedBy(second)]);

    for (const [i, refId] of refIds.entries()) {
      expect(provider.mostAtOnce(refId), `requests of ${refId} in flight at once`).toBe(1);
      // The create, then one status check: the instance that waited took the other's answer.
      expect(transactionRequests(w, refId), refId).toBe(2);
      expect([first[i]?.status, other[i]?.status], refId).toContain('Sukses');
      expect((await w.app.db.transactions.find(refId))?.status, refId).toBe('Sukses');
    }
    await w.app.outbox.drain();
    const notices = w.telegram.botMessages(budi).filter((m) => m.text?.includes('Sukses'));
    expect(notices).toHaveLength(refIds.length);
  }, 30_000);
});
