/**
 * Slow is not dead (DESIGN invariant 9): one instance of a fleet of two is paused with SIGSTOP in
 * the middle of purchases, for three times the claim lease, then woken. To the other instance it is
 * only slow: its database connections stay open, so the locks it holds (a chat's, a ref's send
 * claim) stay its own, while the claims it renews by heartbeat (stored updates, due checks,
 * notices) run out and move. Checked as a user and the provider would see it.
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

  it('SIGSTOP for three leases in the middle of purchases: every purchase bought once and shown settled (never two notices), never two requests of a ref at once; woken, the instance gives up what it lost', async () => {
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
    // One sender per ref: each request about a ref arrived after the previous one was answered.
    const byRef = new Map<string, number[]>();
    for (const request of sandbox.received.filter((r) => r.path === '/transaction')) {
      const refId = (request.body as { ref_id?: string } | undefined)?.ref_id ?? '?';
      byRef.set(refId, [...(byRef.get(refId) ?? []), request.at]);
    }
    const overlapping = [...byRef].filter(([, at]) => at.some((time, i) => i > 0 && time - at[i - 1]! < answerMs - 100));
    expect(overlapping, 'refs with two requests in flight at once').toEqual([]);
    // Woken, the paused instance knew its claims had run out.
    expect(fleet.instances[0]?.output).toContain('claims not renewed for a whole lease');
    expect(fleet.output()).not.toContain('kiosbot crashed');
    console.info(`pause: ${creates()} requests at the provider, ${byRef.size} refs`);
  }, 420_000);

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
