/**
 * Edges of the settlement watcher and the balance-alert job, end to end (sandbox + Bot API
 * emulator + the real app): account pauses on 403, provider statuses the spec does not name,
 * 5xx on create, a restart honouring the stored next check time, the per-account bound on calls
 * in flight, `/alert off` and the periodic alert job.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestWorld, TestWorldOptions } from '../helpers/app.ts';
import { buyPending, recheck, repliesTo, startSettlementWorld, testClock, waitForSettled, type TestClock } from '../helpers/settlement.ts';
import { buyer, eventually, sandboxTransactions, waitForSummary } from '../helpers/buy.ts';
import { seedConnectedUser, seedPurchase, transactionRequests } from '../helpers/seed-transactions.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';
import type { ReceivedRequest } from '../../tools/sandbox/server.ts';

const finalNotice = /Transaksi sukses|Transaksi gagal|Status belum pasti|Transaksi ditolak/;

/**
 * Resolves once the periodic alert job has completed at least `passes` more passes from now: each
 * pass reads the balance, so `passes + 1` new /cek-saldo requests mean `passes` finished ones.
 */
async function balanceChecksAfter(world: TestWorld, passes: number): Promise<void> {
  const from = world.sandbox.received.length;
  const checks = () => world.sandbox.received.slice(from).filter((r) => r.service === 'reseller' && r.path === '/cek-saldo').length;
  await eventually(() => checks() > passes, 5000);
}

const refOf = (request: ReceivedRequest): string | undefined => (request.body as { ref_id?: string } | undefined)?.ref_id;
const apiIdOf = (request: ReceivedRequest): string | undefined => (request.body as { api_id?: string } | undefined)?.api_id;

describe('settlement watcher edges', () => {
  let world: TestWorld;
  let clock: TestClock;
  const start = async (options: TestWorldOptions = {}) => {
    clock = testClock();
    world = await startSettlementWorld(clock, options);
    return world;
  };
  afterEach(async () => {
    await world.stop();
  });

  /** Bot messages to `user` other than `except` whose text matches. */
  const messagesMatching = (user: EmulatedUser, pattern: string | RegExp, except?: number) =>
    world.telegram
      .botMessages(user)
      .filter((m) => m.messageId !== except && (typeof pattern === 'string' ? m.text?.includes(pattern) : pattern.test(m.text ?? '')));

  it('a 403 (IP blocked) on a re-check pauses the account: one notice about the IP whitelist, no more re-checks, the purchase stays open', async () => {
    await start();
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const [sent] = sandboxTransactions(world);
    const refId = sent?.refId ?? 'missing';
    world.sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times: Infinity,
      fault: { kind: 'status', status: 403, body: { success: false, message: 'IP tidak terdaftar' } },
    });

    await recheck(world, clock, 3);
    const notice = await world.telegram.waitForBotMessage(budi, { after: pending, textIncludes: 'memblokir IP' });
    expect(notice.text).toContain('whitelist');
    expect(notice.text).toContain('/connect');
    const checks = transactionRequests(world, refId);
    // The first refused re-check paused the account: the later passes sent nothing.
    expect(checks).toBe(2);

    await recheck(world, clock, 5);
    await world.app.outbox.drain();
    expect(transactionRequests(world, refId)).toBe(checks);
    expect(messagesMatching(budi, 'memblokir IP')).toHaveLength(1);
    // A refused account says nothing about the transaction: still open, never announced as final.
    expect((await world.app.db.transactions.find(refId))?.status).toBe('Pending');
    expect(messagesMatching(budi, finalNotice)).toHaveLength(0);
    expect(pending.text).toContain('Sedang diproses');
  });

  it('an unknown provider status on a re-check keeps the purchase open; a later normal answer settles it with one notice', async () => {
    await start();
    const budi = await buyer(world);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    const refId = sandboxTransactions(world)[0]?.refId ?? 'missing';
    // The spec's status-check body, `{ status }`, with statuses the spec does not list.
    world.sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times: 1,
      fault: { kind: 'status', status: 200, body: { status: 'Diproses' } },
    });
    world.sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times: 1,
      fault: { kind: 'status', status: 200, body: { status: 'Waiting' } },
    });

    await recheck(world, clock, 1);
    let stored = await world.app.db.transactions.find(refId);
    expect(stored?.status).toBe('Pending');
    expect(stored?.providerStatus).toBe('Diproses');
    await recheck(world, clock, 1);
    stored = await world.app.db.transactions.find(refId);
    expect(stored?.status).toBe('Pending');
    expect(stored?.providerStatus).toBe('Waiting');
    expect((await world.app.db.transactions.listOpen()).map((tx) => tx.refId)).toContain(refId);
    await world.app.outbox.drain();
    expect(messagesMatching(budi, finalNotice)).toHaveLength(0);
    expect(pending.text).toContain('Sedang diproses');
    expect((await world.app.db.users.get(budi.id))?.recheckPause).toBeUndefined();

    // The provider answers normally again: Pending, then Sukses on its second real check.
    await recheck(world, clock, 3);
    await waitForSettled(world, budi, pending, 'Transaksi sukses');
    expect(pending.text).toContain(sandboxTransactions(world)[0]?.sn ?? 'missing sn');
    await recheck(world, clock, 2);
    await world.app.outbox.drain();
    expect(messagesMatching(budi, 'Transaksi sukses', pending.messageId)).toHaveLength(0);
    expect(repliesTo(world, budi, pending)).toHaveLength(1);
    expect(sandboxTransactions(world)).toHaveLength(1);
  });

  it('a 5xx on create: stored as an open unknown outcome, shown as in process (never failed), settled later with one notice and one provider transaction', async () => {
    await start();
    const budi = await buyer(world);
    world.sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times: 1,
      fault: { kind: 'status', status: 502, body: { message: 'Bad Gateway' } },
    });
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    expect(pending.text).not.toMatch(/Gagal|Ditolak/);
    expect(pending.text).toContain('Belum pasti');
    const [open] = await world.app.db.transactions.listOpen();
    expect(open?.status).toBe('Pending');
    expect(open?.message).toBe('unknown_outcome');
    const refId = open?.refId ?? 'missing';
    expect(sandboxTransactions(world)).toHaveLength(0);

    await recheck(world, clock, 4);
    await waitForSettled(world, budi, pending, 'Transaksi sukses');
    expect(pending.text).toContain(refId);
    await recheck(world, clock, 2);
    await world.app.outbox.drain();
    expect(messagesMatching(budi, 'Transaksi sukses', pending.messageId)).toHaveLength(0);
    expect(repliesTo(world, budi, pending)).toHaveLength(1);
    expect(sandboxTransactions(world).filter((tx) => tx.refId === refId)).toHaveLength(1);
    expect(sandboxTransactions(world)).toHaveLength(1);
  });

  it('a 5xx on create after the provider acted: the re-checks find that transaction; never a second one', async () => {
    await start();
    const budi = await buyer(world);
    // A gateway that lets the create through to the provider but answers 502.
    const sim = world.sandbox.reseller;
    const original = sim.handle.bind(sim);
    let gatewayErrors = 1;
    sim.handle = async (request) => {
      const answer = await original(request);
      if (request.path === '/transaction' && gatewayErrors > 0) {
        gatewayErrors -= 1;
        return { status: 502, body: { message: 'Bad Gateway' } };
      }
      return answer;
    };
    const before = sim.balanceOf(resellerDemoAccounts.main.apiId);
    const pending = await buyPending(world, budi, 'TSEL10', '081234567890');
    expect(sandboxTransactions(world)).toHaveLength(1);
    const refId = sandboxTransactions(world)[0]?.refId ?? 'missing';
    expect((await world.app.db.transactions.find(refId))?.message).toBe('unknown_outcome');

    await recheck(world, clock, 4);
    await waitForSettled(world, budi, pending, 'Transaksi sukses');
    await recheck(world, clock, 2);
    await world.app.outbox.drain();
    expect(messagesMatching(budi, 'Transaksi sukses', pending.messageId)).toHaveLength(0);
    expect(repliesTo(world, budi, pending)).toHaveLength(1);
    expect(sandboxTransactions(world)).toHaveLength(1);
    // Debited once.
    expect(before - sim.balanceOf(resellerDemoAccounts.main.apiId)).toBe(sandboxTransactions(world)[0]?.price);
  });

  it('a purchase being sent by its buyer is left to the buyer: watcher ticks during a slow first send neither send nor wait on it', async () => {
    await start();
    const budi = await seedConnectedUser(world, 'Budi');
    const submits = vi.spyOn(world.app.services.purchases, 'submit');
    // The create outlasts several watcher ticks (50 ms), as on a loaded machine.
    world.sandbox.inject({ service: 'reseller', path: '/transaction', times: 1, fault: { kind: 'latency', ms: 200 } });
    const refId = await seedPurchase(world, budi, { target: '081299999999' });

    // Only the seeding's own submit: a watcher pass that had joined it would still be in flight
    // and make the next runOnce skip the transaction.
    expect(submits).toHaveBeenCalledTimes(1);
    clock.advance(11 * 60_000);
    await world.app.watcher.runOnce();
    expect(transactionRequests(world, refId)).toBe(2);
  });

  it('after a restart, a transaction is not re-checked before its stored next check time', async () => {
    await start();
    const budi = await seedConnectedUser(world, 'Budi');
    const refId = await seedPurchase(world, budi, { target: '081299999999' });
    // Old enough for the 5-minute step: its next check is 4–6 minutes away.
    clock.advance(11 * 60_000);
    // Measured from before the check, so time the machine takes afterwards cannot shrink it.
    const checkedFrom = clock.now().getTime();
    await world.app.watcher.runOnce();
    expect(transactionRequests(world, refId)).toBe(2);
    const nextCheckAt = (await world.app.db.transactions.find(refId))?.nextCheckAt ?? '';
    const waitMs = Date.parse(nextCheckAt) - checkedFrom;
    expect(waitMs).toBeGreaterThanOrEqual(4 * 60_000 - 1000);

    await world.restart();
    expect((await world.app.db.transactions.find(refId))?.nextCheckAt).toBe(nextCheckAt);
    await world.app.watcher.runOnce();
    clock.advance(waitMs - 30_000);
    await world.app.watcher.runOnce();
    // More passes, as the restarted watcher's own timer would make them.
    await world.app.watcher.runOnce();
    await world.app.watcher.runOnce();
    expect(transactionRequests(world, refId)).toBe(2);

    clock.advance(31_000);
    await world.app.watcher.runOnce();
    expect(transactionRequests(world, refId)).toBe(3);
  });

  it('at most 2 re-checks of one account are in flight at once (another account is not held back)', async () => {
    await start();
    const budi = await seedConnectedUser(world, 'Budi');
    const sari = await seedConnectedUser(world, 'Sari', { account: resellerDemoAccounts.second });
    const refs = new Set<string>();
    for (let i = 0; i < 6; i += 1) refs.add(await seedPurchase(world, budi, { target: `0812000${i}9999` }));
    for (let i = 0; i < 4; i += 1) refs.add(await seedPurchase(world, sari, { target: `0813000${i}9999` }));
    const latencyMs = 200;
    world.sandbox.inject({ service: 'reseller', path: '/transaction', times: Infinity, fault: { kind: 'latency', ms: latencyMs } });
    const from = world.sandbox.received.length;

    // Everything is due at once; the watcher's own timer (50 ms) picks them up.
    clock.advance(60_000);
    const checks = () => world.sandbox.received.slice(from).filter((r) => r.path === '/transaction' && refs.has(refOf(r) ?? ''));
    await eventually(() => checks().length >= 10, 8000);
    await world.app.watcher.runOnce();

    const all = checks();
    expect(new Set(all.map(refOf)).size).toBe(10);
    // A request that arrived less than `latencyMs` before another is still in flight when it arrives.
    const window = latencyMs - 20;
    const inFlightAt = (request: ReceivedRequest, sameAccount: boolean) =>
      all.filter(
        (other) => other.at <= request.at && other.at > request.at - window && (!sameAccount || apiIdOf(other) === apiIdOf(request)),
      ).length;
    const perAccount = (apiId: string) => Math.max(...all.filter((r) => apiIdOf(r) === apiId).map((r) => inFlightAt(r, true)));
    expect(perAccount(resellerDemoAccounts.main.apiId)).toBe(2);
    expect(perAccount(resellerDemoAccounts.second.apiId)).toBe(2);
    expect(Math.max(...all.map((r) => inFlightAt(r, false)))).toBeGreaterThanOrEqual(3);
  });

  it('a freed slot starts the next due check at once, not at the next tick: 40 due checks within one tick of an hour', async () => {
    // The tick never comes again during the test: only the start pass and freed slots can launch checks.
    await start({ app: { watcherTickMs: 3_600_000 } });
    const accounts = [resellerDemoAccounts.main, resellerDemoAccounts.second];
    const users = [await seedConnectedUser(world, 'Budi'), await seedConnectedUser(world, 'Sari', { account: accounts[1] })];
    const refs = new Set<string>();
    for (let i = 0; i < 40; i += 1) refs.add(await seedPurchase(world, users[i % 2]!, { target: `0812${String(i).padStart(4, '0')}9999` }));
    await world.app.watcher.stop();
    clock.advance(60_000);
    const from = world.sandbox.received.length;
    const checked = () =>
      new Set(
        world.sandbox.received
          .slice(from)
          .filter((r) => r.path === '/transaction' && refs.has(refOf(r) ?? ''))
          .map(refOf),
      ).size;
    world.app.watcher.start();
    await eventually(() => checked() === 40, 5000);
    expect(checked()).toBe(40);
  });

  it('/alert off removes the threshold: a crossing afterwards alerts nobody', async () => {
    await start({ sandbox: { reseller: { instant: true } }, app: { alertIntervalMs: 50 } });
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert 995000'), textIncludes: 'Rp 995.000' });
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert off'), textIncludes: 'Peringatan saldo dimatikan' });
    expect((await world.app.db.users.get(budi.id))?.alertThreshold).toBeUndefined();
    const shown = await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert') });
    expect(shown.text).toContain('belum diatur');

    const summary = await waitForSummary(world, budi, budi.send('/beli TSEL10 081234567890'));
    budi.tap(summary, '✅ Konfirmasi');
    await world.telegram.waitForBotMessage(budi, { after: summary, textIncludes: 'Sukses' });
    expect(world.sandbox.reseller.balanceOf(resellerDemoAccounts.main.apiId)).toBeLessThan(995_000);
    // The after-purchase check and the periodic passes, made here rather than waited for.
    await world.app.services.alerts.check(budi.id);
    await world.app.services.alerts.checkAll();
    await world.app.services.alerts.checkAll();
    await world.app.outbox.drain();
    expect(messagesMatching(budi, 'Saldo deposit Anda tinggal')).toHaveLength(0);
  });

  it('the periodic alert job tells a user whose balance dropped below the threshold, once', async () => {
    await start({ app: { alertIntervalMs: 50 } });
    const budi = await buyer(world);
    await world.telegram.waitForBotMessage(budi, { after: budi.send('/alert 500000'), textIncludes: 'Rp 500.000' });
    await balanceChecksAfter(world, 2);
    await world.app.outbox.drain();
    expect(messagesMatching(budi, 'Saldo deposit Anda tinggal')).toHaveLength(0);

    // The balance drops outside the bot (another channel of the reseller's account).
    world.sandbox.reseller.setBalance(resellerDemoAccounts.main.apiId, 120_000);
    const alert = await world.telegram.waitForBotMessage(budi, { textIncludes: 'Saldo deposit Anda tinggal' });
    expect(alert.text).toContain('Rp 120.000');
    expect(alert.text).toContain('Rp 500.000');
    await balanceChecksAfter(world, 3);
    await world.app.outbox.drain();
    expect(messagesMatching(budi, 'Saldo deposit Anda tinggal')).toHaveLength(1);
  });
});
