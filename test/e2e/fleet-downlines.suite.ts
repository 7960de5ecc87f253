/**
 * Downline wallets on a fleet (issue 31): two bot processes in webhook mode on one PostgreSQL
 * database behind the round-robin proxy (fleet-lab.ts), DOWNLINES=true. Each downline's wallet
 * has room for exactly one purchase; at one instant the downline taps Confirm twice (a double
 * tap) and their upline deducts from that wallet by /saldodl. The downline's taps come in their
 * chat's order (as Telegram keeps it, and a new summary takes the button off the last one, so a
 * chat has one confirmation at a time); the upline's deduction comes in another chat, so it meets
 * the confirmation on the other instance at the same moment — the race the wallet's lock must
 * win. Eight downlines at once buy through the one upline's provider account. (Two confirmations
 * of one wallet at once are proven across two app instances in test/services/wallet-fleet.test.ts.)
 * Then the kill: one of the two instances dies by kill -9 while downlines' purchases are on their
 * way to the provider; the other takes its stored updates and due checks over.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { createDb } from '../../src/store/db.ts';
import { openPgEngine } from '../../src/store/pg/engine.ts';
import { expectWalletReconciles, seedDownlines, testVault, tsel10Cost } from '../helpers/downline-seed.ts';
import { until } from './fixture.ts';
import { confirm, openFleet, postgres, quiet, settlesOnFirstCheck } from './fleet-lab.ts';

const downlineCount = 8;
const markup = 500;
const levelPrice = tsel10Cost + markup;
/** Room for one purchase (Rp 10.950) or one deduction, never two of them. */
const wallet = 15_000;
const deduction = 10_000;

describe('downline wallets on a fleet of two instances on one PostgreSQL database (DOWNLINES=true)', () => {
  if (postgres !== true) {
    it.skip(`skipped: ${postgres}`, () => undefined);
    return;
  }

  it('a double-tapped confirm and the upline’s deduction at once on a wallet with room for one: exactly one happens, the rest refused with the shortfall; nothing negative; each purchase on the provider once', async () => {
    const started = Date.now();
    const fleet = await openFleet({ instances: 2, sandbox: settlesOnFirstCheck, env: { DOWNLINES: 'true' } });
    onTestFinished(() => fleet.close());
    fleet.sandbox.reseller.setBalance(resellerDemoAccounts.main.apiId, 100_000_000);
    const { telegram } = fleet;
    const budi = telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const downlines = Array.from({ length: downlineCount }, (_, i) =>
      telegram.createUser({ firstName: `Downline ${i}`, languageCode: 'id' }),
    );
    const seedDb = createDb(await openPgEngine({ connectionString: fleet.databaseUrl, max: 4 }), testVault());
    await seedDownlines(seedDb, budi, downlines, { markup, wallet }).finally(() => seedDb.close());
    await fleet.start();

    const targetsOf = (i: number) => [`0812${String(80_000_000 + i * 10 + 1)}`];
    // A summary each, shown before anything is tapped.
    const summaries = await Promise.all(
      downlines.map(async (user, i) => {
        const shown: EmulatedMessage[] = [];
        for (const target of targetsOf(i)) {
          shown.push(
            await telegram.waitForBotMessage(user, {
              after: user.send(`TSEL10.${target}`),
              where: (m) => m.buttons.flat().includes(confirm) && (m.text ?? '').includes(target),
              timeoutMs: 30_000,
              message: `no summary for downline ${i}\n${fleet.output().slice(-20_000)}`,
            }),
          );
        }
        return shown;
      }),
    );
    const before = fleet.proxy.counts();
    // At once: both Confirm taps of every downline and the upline's deduction from each wallet.
    downlines.forEach((user, i) => {
      for (const summary of summaries[i]!) for (let tap = 0; tap < 2; tap++) user.tap(summary, confirm);
      budi.send(`/saldodl ${user.id} -${deduction} koreksi ${i}`);
    });

    // Every tap and every deduction answered.
    const answersToBudi = () => telegram.botMessages(budi).filter((m) => /Saldo .* dikurangi|Tidak dikurangi/.test(m.text ?? ''));
    /** What became of each summary: confirmed, or refused ("Tidak dibeli"); undefined while neither. */
    const outcomeOf = (user: EmulatedUser, i: number) =>
      summaries[i]!.map((summary) => {
        const text = telegram.message(user, summary.messageId)?.text ?? '';
        return text.includes('Dikonfirmasi') ? 'confirmed' : text.includes('Tidak dibeli') ? 'refused' : undefined;
      });
    const shortfalls = (user: EmulatedUser) =>
      telegram.botMessages(user).filter((m) => /Saldo dompet Anda Rp [\d.]+, kurang Rp [\d.]+/.test(m.text ?? ''));
    await until(
      () => answersToBudi().length === downlineCount && downlines.every((user, i) => outcomeOf(user, i).every(Boolean)),
      60_000,
      () => `not every tap or deduction answered\n${fleet.output().slice(-20_000)}`,
    );
    await quiet(fleet);
    const after = fleet.proxy.counts();
    // Both instances took part in the burst.
    expect(after.map((n, i) => n - (before[i] ?? 0)).every((n) => n > 0)).toBe(true);

    const db = createDb(await openPgEngine({ connectionString: fleet.databaseUrl, max: 2 }), testVault());
    onTestFinished(() => db.close());
    const bought = fleet.sandbox.reseller.transactions();
    const problems: string[] = [];
    let purchases = 0;
    let deductions = 0;
    for (const [i, user] of downlines.entries()) {
      const txs = await db.transactions.listByUser(user.id, { limit: 10 });
      const entries = await db.ledger.statement(user.id, { limit: 100 });
      const deducted = entries.filter((e) => e.kind === 'adjust' && e.amount < 0);
      const held = txs.length;
      // Exactly one of the three: one purchase, or the deduction.
      if (held + deducted.length !== 1) problems.push(`downline ${i}: ${held} purchases and ${deducted.length} deductions`);
      purchases += held;
      deductions += deducted.length;
      for (const tx of txs) {
        expect(tx).toMatchObject({ status: 'Sukses', price: levelPrice, upline: { id: budi.id, cost: tsel10Cost, margin: markup } });
        expect(
          bought.filter((p) => p.target === tx.target).map((p) => p.refId),
          `downline ${i}: ${tx.target} on the provider once`,
        ).toEqual([tx.refId]);
      }
      // The refused confirmations were told the shortfall; nothing of theirs reached the provider.
      const outcomes = outcomeOf(user, i);
      expect(
        outcomes.filter((o) => o === 'confirmed'),
        `downline ${i}: confirmed summaries`,
      ).toHaveLength(held);
      expect(shortfalls(user), `downline ${i}: told the shortfall`).toHaveLength(1 - held);
      for (const target of targetsOf(i)) {
        if (!txs.some((tx) => tx.target === target)) expect(bought.filter((p) => p.target === target)).toEqual([]);
      }
      const balance = await expectWalletReconciles(db, user.id, txs, `downline ${i}`);
      expect(balance).toBe(held === 1 ? wallet - levelPrice : wallet - deduction);
    }
    expect(problems).toEqual([]);
    // The upline was told each refused deduction with the balance it met.
    expect(telegram.botMessages(budi).filter((m) => (m.text ?? '').includes('Tidak dikurangi'))).toHaveLength(downlineCount - deductions);
    expect(bought).toHaveLength(purchases);
    console.info(
      `fleet downlines: ${downlineCount} wallets, ${purchases} bought, ${deductions} deducted, proxy ${JSON.stringify(after)} in ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }, 420_000);
  it('kill -9 of one instance in the middle of downline purchases: the other settles each once, refunds each Gagal line once, and every wallet reconciles', async () => {
    const started = Date.now();
    const fleet = await openFleet({ instances: 2, sandbox: settlesOnFirstCheck, env: { DOWNLINES: 'true' } });
    onTestFinished(() => fleet.close());
    const { telegram, sandbox } = fleet;
    sandbox.reseller.setBalance(resellerDemoAccounts.main.apiId, 100_000_000);
    const budi = telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    const downlines = Array.from({ length: downlineCount }, (_, i) =>
      telegram.createUser({ firstName: `Downline ${i}`, languageCode: 'id' }),
    );
    const full = 50_000;
    const seedDb = createDb(await openPgEngine({ connectionString: fleet.databaseUrl, max: 4 }), testVault());
    await seedDownlines(seedDb, budi, downlines, { markup, wallet: full }).finally(() => seedDb.close());
    await fleet.start();
    // The provider takes 1.5 s to answer a purchase: when the instance dies, some of its own are on their way.
    sandbox.inject({ service: 'reseller', path: '/transaction', times: Infinity, fault: { kind: 'latency', ms: 1500 } });

    // Each downline: a line that turns Sukses and one that turns Gagal (refunded), in one purchase.
    const targetsOf = (i: number) => [`0812${String(90_000_000 + i * 10 + 1)}`, `081290${String(i).padStart(2, '0')}0000`];
    await Promise.all(
      downlines.map(async (user, i) => {
        const summary = await telegram.waitForBotMessage(user, {
          after: user.send(
            targetsOf(i)
              .map((target) => `TSEL10.${target}`)
              .join('\n'),
          ),
          where: (m) => m.buttons.flat().includes(confirm),
          timeoutMs: 30_000,
          message: `no summary for downline ${i}\n${fleet.output().slice(-20_000)}`,
        });
        user.tap(summary, confirm);
      }),
    );
    // Once some purchases reached the provider, instance 0 dies.
    await until(
      () => fleet.sandbox.received.filter((r) => r.path === '/transaction').length >= 3,
      60_000,
      () => `no purchase reached the provider\n${fleet.output().slice(-20_000)}`,
    );
    const atKill = fleet.proxy.counts();
    await fleet.kill(0);
    sandbox.clearFaults();
    await quiet(fleet, 90_000);

    const db = createDb(await openPgEngine({ connectionString: fleet.databaseUrl, max: 2 }), testVault());
    onTestFinished(() => db.close());
    const onProvider = sandbox.reseller.transactions();
    for (const [i, user] of downlines.entries()) {
      const txs = await db.transactions.listByUser(user.id, { limit: 10 });
      // Every tap was stored before it was answered: the purchase was recorded, and sent once per line.
      expect(txs.map((tx) => `${tx.target} ${tx.status}`).sort(), `downline ${i}`).toEqual(
        [`${targetsOf(i)[0]} Sukses`, `${targetsOf(i)[1]} Gagal`].sort(),
      );
      for (const tx of txs)
        expect(
          onProvider.filter((p) => p.target === tx.target).map((p) => p.refId),
          `downline ${i}: ${tx.target} once`,
        ).toEqual([tx.refId]);
      expect(await expectWalletReconciles(db, user.id, txs, `downline ${i}`)).toBe(full - levelPrice);
    }
    expect(atKill[0], 'updates the killed instance had received').toBeGreaterThan(0);
    console.info(
      `fleet downlines kill: updates per instance at the kill ${atKill.join('/')}; ${downlineCount} purchases settled after the kill in ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }, 420_000);
});
