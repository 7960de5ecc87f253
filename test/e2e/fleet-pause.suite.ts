/**
 * Slow is not dead (DESIGN invariant 9): one instance of a fleet of two is paused with SIGSTOP in
 * the middle of purchases, for three times the claim lease, then woken. To the other instance it is
 * only slow: its database sessions stay open, so everything it claimed stays its own (a chat's
 * lock, a ref's send claim, and, through its liveness lock, the stored updates, due checks and
 * notices whose heartbeat stopped), and woken it carries on. Only when the server ends its sessions
 * (a machine that vanished) does its work move; woken, it then acts on none of it. Checked as a
 * user and the provider would see it.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { until } from './fixture.ts';
import {
  confirm,
  confirmPurchases,
  everyoneToldSettled,
  expectOnePurchaseEach,
  expectSettledOnceEach,
  firstText,
  openSeededFleet,
  settlesOnFirstCheck,
  postgres,
  purchaseRequests,
  quiet,
  settlementNotices,
  targetOf,
} from './fleet-lab.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One busy-loop process per core beside the test (the machine's two), stopped when the test ends. */
function busyCpu(cores = 2): void {
  const hogs = Array.from({ length: cores }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  onTestFinished(() => hogs.forEach((hog) => hog.kill('SIGKILL')));
}

describe('a fleet instance paused past its lease', () => {
  if (postgres !== true) {
    it.skip(`skipped: ${postgres}`, () => undefined);
    return;
  }

  it('SIGSTOP for three leases in the middle of purchases: nothing it claimed moves, every purchase bought once and shown settled (never two notices), never two requests of a ref at once; woken, the instance carries on', async () => {
    const { fleet, pausedOutput } = await pauseInPurchases({ endSessions: false });
    // Nobody took its work: no stored update was replayed, and woken it found its claims its own.
    expect(await fleet.sql('SELECT count(*)::int AS replayed FROM inbox WHERE attempts > 0')).toEqual([{ replayed: 0 }]);
    await fleet.instances[0]?.waitForOutput((output) => output.includes('the database session kept them'), 30_000);
    expect(pausedOutput()).not.toContain('given up here');
  }, 420_000);

  it('SIGSTOP for three leases and the server ends its sessions meanwhile (its machine looked gone): the other instance takes its work, every purchase bought once and shown settled; woken, the instance gives up what it lost', async () => {
    const { fleet, pausedOutput } = await pauseInPurchases({ endSessions: true });
    // Its first heartbeat awake finds the session gone (or cannot renew on a lost connection): a new token.
    await fleet.instances[0]?.waitForOutput((output) => output.includes('given up here'), 30_000);
    expect(pausedOutput()).not.toContain('the database session kept them');
  }, 420_000);

  /** Pauses instance 0 of two for three leases while purchases are on their way, then checks what users and the provider saw. */
  async function pauseInPurchases(options: { endSessions: boolean }) {
    const leaseSeconds = 5;
    const { fleet, users } = await openSeededFleet(12, {
      instances: 2,
      sandbox: settlesOnFirstCheck,
      env: { CLAIM_LEASE_SECONDS: String(leaseSeconds) },
    });
    const { telegram, sandbox } = fleet;
    // The provider takes 3 s to answer about a purchase: the pause comes while requests are on their way.
    const answerMs = 3000;
    sandbox.inject({ service: 'reseller', path: '/transaction', times: Infinity, fault: { kind: 'latency', ms: answerMs } });

    const tapped = confirmPurchases(fleet, users);
    const creates = () => purchaseRequests(fleet);
    await until(
      () => creates() >= 4,
      60_000,
      () => `purchases at the provider ${creates()}\n${fleet.output().slice(-20_000)}`,
    );

    // The pause itself is the scenario: three leases of wall-clock time with the instance stopped.
    fleet.pause(0);
    if (options.endSessions) expect(await fleet.endSessions(0)).toBeGreaterThan(0);
    await sleep(3 * leaseSeconds * 1000);
    fleet.resume(0);
    await tapped;

    await everyoneToldSettled(fleet, users, 120_000);
    await quiet(fleet, 60_000);

    await expectSettledOnceEach(fleet, users, 'atMost');
    // No summary was refused, no purchase reported twice as sent.
    const confused = users.flatMap((user, index) => {
      const texts = telegram.botMessages(user).map(firstText);
      const refused = texts.filter((text) => text.includes('tidak berlaku')).length;
      const sending = texts.filter((text) => text.startsWith('⏳ Mengirim')).length;
      return refused === 0 && sending <= 1 ? [] : [`user ${index}: ${refused} refused, ${sending} "sending" messages`];
    });
    expect(confused).toEqual([]);
    // One sender per ref: each request about a ref arrived after the previous one was answered. Not
    // where the server ended the paused instance's sessions: its send claims went with them while
    // its requests were at the provider, which cannot be unsent (the next sender's request under the
    // same ref id is a status check; bought once each, as checked above).
    const byRef = new Map<string, number[]>();
    for (const request of sandbox.received.filter((r) => r.path === '/transaction')) {
      const refId = (request.body as { ref_id?: string } | undefined)?.ref_id ?? '?';
      byRef.set(refId, [...(byRef.get(refId) ?? []), request.at]);
    }
    const overlapping = [...byRef].filter(([, at]) => at.some((time, i) => i > 0 && time - at[i - 1]! < answerMs - 100));
    if (!options.endSessions) expect(overlapping, 'refs with two requests in flight at once').toEqual([]);
    expect(fleet.output()).not.toContain('kiosbot crashed');
    console.info(`pause: ${creates()} requests at the provider, ${byRef.size} refs`);
    return { fleet, pausedOutput: () => fleet.instances[0]?.output ?? '' };
  }

  it('a busy CPU and a provider slower than the lease: no update handled twice, no summary refused, no duplicate message, one purchase and one notice each', async () => {
    const { fleet, users } = await openSeededFleet(30, { sandbox: settlesOnFirstCheck });
    const { telegram, sandbox } = fleet;
    busyCpu();
    // 8 s per answer about a purchase, longer than the fleet's 5 s claim lease.
    sandbox.inject({ service: 'reseller', path: '/transaction', times: Infinity, fault: { kind: 'latency', ms: 8000 } });

    await Promise.all(
      users.map(async (user, index) => {
        await sleep(index * 200);
        const balance = user.send('/saldo');
        await telegram.waitForBotMessage(user, {
          after: balance,
          textIncludes: 'Saldo',
          timeoutMs: 90_000,
          message: `no balance for user ${index}`,
        });
        const summary = await telegram.waitForBotMessage(user, {
          after: user.send(`/beli TSEL10 ${targetOf(index)}`),
          where: (m) => m.buttons.flat().includes(confirm),
          timeoutMs: 90_000,
          message: `no purchase summary for user ${index}`,
        });
        user.tap(summary, confirm);
        const firstTap = telegram.updates.at(-1)!;
        user.tap(summary, confirm);
        // Telegram delivering the first tap again, as after an answer it did not get.
        telegram.redeliver(firstTap);
      }),
    );
    await everyoneToldSettled(fleet, users, 150_000);
    await quiet(fleet, 60_000);

    await expectOnePurchaseEach(fleet, users);
    // Nobody died: nothing was replayed, so no update ran twice.
    expect(await fleet.sql('SELECT count(*)::int AS replayed FROM inbox WHERE attempts > 0')).toEqual([{ replayed: 0 }]);
    const seen = users.flatMap((user, index) => {
      const texts = telegram.botMessages(user).map(firstText);
      const count = (pattern: RegExp) => texts.filter((text) => pattern.test(text)).length;
      const got = {
        balance: count(/^💰 Saldo/),
        summary: count(/^🛒 Ringkasan/),
        sending: count(/^⏳ Mengirim/),
        again: count(/sudah tercatat/),
        refused: count(/tidak berlaku/),
        notices: settlementNotices(fleet, user).length,
      };
      const expected = { balance: 1, summary: 1, sending: 1, again: 0, refused: 0, notices: 1 };
      return JSON.stringify(got) === JSON.stringify(expected) ? [] : [`user ${index}: ${JSON.stringify(got)}`];
    });
    expect(seen).toEqual([]);
  }, 420_000);
});
