/**
 * DESIGN invariant 8, last sentence: one sender per ref at a time. The conversation sends a new
 * purchase itself and the watcher leaves it alone for a hold; when the hold runs out while that
 * send is still in flight (a slow provider), the watcher must not send the same ref again at the
 * same time: it waits for the send in flight and takes its answer.
 *
 * The provider is slowed by a gate the test opens, not by a timer: requests for /transaction are
 * held at the sandbox until the test lets them through, so "in flight" is certain, not timed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorld } from '../helpers/app.ts';
import { startSettlementWorld, testClock, type TestClock } from '../helpers/settlement.ts';
import { buyer, eventually, sandboxTransactions, waitForResult, waitForSummary } from '../helpers/buy.ts';
import { seedConnectedUser, transactionRequests } from '../helpers/seed-transactions.ts';
import type { SandboxRequest } from '../../tools/sandbox/types.ts';

const refOf = (request: SandboxRequest): string | undefined => (request.body as { ref_id?: string } | undefined)?.ref_id;

/** Holds every /transaction request at the sandbox until `open()`; tracks how many of one ref are in flight at once. */
function gateReseller(world: TestWorld) {
  const sim = world.sandbox.reseller;
  const original = sim.handle.bind(sim);
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (release = resolve));
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  sim.handle = async (request) => {
    const ref = refOf(request);
    if (request.path !== '/transaction' || ref === undefined) return original(request);
    const now = (inFlight.get(ref) ?? 0) + 1;
    inFlight.set(ref, now);
    most.set(ref, Math.max(now, most.get(ref) ?? 0));
    try {
      await opened;
      return await original(request);
    } finally {
      inFlight.set(ref, (inFlight.get(ref) ?? 1) - 1);
    }
  };
  return {
    open: () => release(),
    /** Requests held at the gate right now. */
    held: () => [...inFlight.values()].reduce((sum, n) => sum + n, 0),
    /** The most requests for `ref` the provider ever had in flight at once. */
    mostAtOnce: (ref: string) => most.get(ref) ?? 0,
  };
}

describe('one sender per ref at a time', () => {
  let world: TestWorld;
  let clock: TestClock;
  const start = async () => {
    clock = testClock();
    // A generous provider timeout: the gate holds requests for a moment, never for this long.
    world = await startSettlementWorld(clock, { env: { PROVIDER_TIMEOUT_MS: '15000' } });
    return world;
  };
  afterEach(async () => {
    await world.stop();
  });

  it('service: a check, a watcher pass and a replayed submit during a slow first send send nothing of their own and get its answer', async () => {
    await start();
    const budi = await seedConnectedUser(world, 'Budi');
    const purchases = world.app.services.purchases;
    const gate = gateReseller(world);
    const [tx] = await purchases.confirm({
      confirmationId: 'one-sender-service',
      userId: budi.id,
      chatId: budi.id,
      lines: [{ code: 'TSEL10', productName: 'Telkomsel 10.000', target: '081234567890', price: 10_450 }],
      holdMs: 120_000,
    });
    const refId = tx?.refId ?? 'missing';

    const sending = purchases.submit(refId);
    await eventually(() => gate.held() === 1);
    // The hold runs out while the first send is still at the provider.
    clock.advance(3 * 60_000);
    const checking = purchases.check(refId, { notifyOwner: true });
    const watching = world.app.watcher.runOnce();
    const replayed = purchases.submit(refId);
    gate.open();
    const [sent, checked, , again] = await Promise.all([sending, checking, watching, replayed]);

    expect(transactionRequests(world, refId)).toBe(1);
    expect(gate.mostAtOnce(refId)).toBe(1);
    expect(sandboxTransactions(world)).toHaveLength(1);
    expect(sent.status).toBe('Pending');
    expect(sent.trxId).toBe(sandboxTransactions(world)[0]?.trxId);
    expect(checked).toMatchObject({ status: 'Pending', trxId: sent.trxId });
    expect(again).toMatchObject({ status: 'Pending', trxId: sent.trxId });

    // Afterwards the watcher re-checks on its schedule, one request per pass.
    clock.advance(6 * 60_000);
    await world.app.watcher.runOnce();
    expect(transactionRequests(world, refId)).toBe(2);
    expect(gate.mostAtOnce(refId)).toBe(1);
  });

  it('through the bot: 8 lines, the provider slow, the hold runs out mid-send — every ref is sent exactly once, never twice at a time', async () => {
    await start();
    const budi = await buyer(world);
    const targets = Array.from({ length: 8 }, (_, i) => `08123456701${i}`);
    const summary = await waitForSummary(world, budi, budi.send(targets.map((target) => `TSEL10.${target}`).join('\n')));
    const gate = gateReseller(world);
    budi.tap(summary, '✅ Konfirmasi');
    // The conversation sends four at a time; all four are now held at the provider.
    await eventually(() => gate.held() === 4, 10_000);
    clock.advance(3 * 60_000);
    const watching = world.app.watcher.runOnce();
    gate.open();
    const result = await waitForResult(world, budi, summary, 'Hasil 8 transaksi');
    await watching;
    // Let the ticking watcher look at everything once more; nothing is due any more.
    await world.app.watcher.runOnce();

    const sent = sandboxTransactions(world);
    expect(sent.map((tx) => tx.target).sort()).toEqual([...targets].sort());
    for (const tx of sent) {
      expect(transactionRequests(world, tx.refId), tx.target).toBe(1);
      expect(gate.mostAtOnce(tx.refId), tx.target).toBe(1);
    }
    expect(result.text).not.toMatch(/Ditolak|Gagal/);
    expect(await world.app.db.transactions.listOpen()).toHaveLength(8);
  });
});
