/**
 * Two app instances on one PostgreSQL database (issue 31): each with its own pool, catalogue,
 * purchase service and jobs (as two processes of a fleet have), pointed at one provider. Ten
 * downlines of one upline, each with a wallet of room for exactly one purchase, each confirm
 * two purchases at the same instant, one on each instance: exactly one per wallet is held and
 * bought, the other refused with the shortfall; no wallet goes negative; every purchase bought
 * reaches the provider once, sent by whichever instance's watcher claimed it.
 * (The same race through the bot, on a fleet of processes: test/e2e/fleet-downlines.suite.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { eventually } from '../helpers/buy.ts';
import { onPostgres } from '../helpers/test-store.ts';
import { expectWalletReconciles, seedDownlines, tsel10Cost } from '../helpers/downline-seed.ts';
import { PurchaseRefusedError } from '../../src/services/purchases.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';

const markup = 500;
const levelPrice = tsel10Cost + markup;
const wallet = 15_000;
const downlineCount = 10;

/** Two instances need one database: on lowdb one process owns the data directory. */
const itOnPostgres = onPostgres() ? it : it.skip;
if (!onPostgres()) console.warn('PostgreSQL only (skipped on lowdb): two app instances on one database');

describe('downline wallets across two app instances on one PostgreSQL database', () => {
  const worlds: TestWorld[] = [];
  afterEach(async () => {
    // The second first: the first empties the database it brought.
    for (const world of worlds.splice(0).reverse()) await world.stop();
  });

  itOnPostgres(
    'two confirms of one wallet at once, one per instance, for ten wallets: one bought each, one refused with the shortfall, none negative, each bought once',
    async () => {
      const env = { DOWNLINES: 'true', RECHECK_FIRST_SECONDS: '1' };
      const first = await startWorld({ jobs: true, env, sandbox: { reseller: { settleAfterChecks: 1 } } });
      worlds.push(first);
      const second = await startWorld({
        jobs: true,
        env: {
          ...env,
          DATABASE_URL: first.config.databaseUrl!,
          DATABASE_POOL_SIZE: '8',
          WEBHOOK_URL: 'https://bot.example/telegram',
          WEBHOOK_SECRET: 'second-instance-webhook-secret',
          // One provider for both.
          RESELLER_API_URL: first.sandbox.urls.reseller,
        },
      });
      worlds.push(second);
      first.sandbox.reseller.setBalance(resellerDemoAccounts.main.apiId, 100_000_000);
      const budi = first.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
      const downlines = Array.from({ length: downlineCount }, (_, i) =>
        first.telegram.createUser({ firstName: `Downline ${i}`, languageCode: 'id' }),
      );
      await seedDownlines(first.app.db, budi, downlines, { markup, wallet });

      const line = (i: number, n: number) => ({
        code: 'TSEL10',
        productName: 'Telkomsel 10.000',
        target: `0812${70_000_000 + i * 10 + n + 1}`,
        price: levelPrice,
      });
      // Both instances read the upline's price list before the burst (as a summary would have).
      await Promise.all([first, second].map((world) => world.app.services.catalogue.priceList(budi.id, { maxAgeMs: 0 })));
      // Half the wallets asked of the first instance first, half of the second first.
      const attempts = downlines.flatMap((user, i) => {
        const pair = [first, second].map((world, n) => ({ user, i, n, world, lines: [line(i, n)] }));
        return i % 2 === 0 ? pair : pair.reverse();
      });
      const results = await Promise.allSettled(
        attempts.map(({ user, i, n, world, lines }) =>
          world.app.services.purchases.confirm({ confirmationId: `c-${i}-${n}`, userId: user.id, chatId: user.id, lines }),
        ),
      );
      const byWallet = downlines.map((_, i) => results.filter((_, index) => attempts[index]!.i === i));
      for (const [i, outcomes] of byWallet.entries()) {
        expect(
          outcomes.filter((r) => r.status === 'fulfilled'),
          `downline ${i}: bought`,
        ).toHaveLength(1);
        const refused = outcomes.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
        expect(refused, `downline ${i}: refused`).toHaveLength(1);
        expect(refused[0]).toBeInstanceOf(PurchaseRefusedError);
        expect((refused[0] as PurchaseRefusedError).refusal).toEqual({
          reason: 'wallet-short',
          balance: wallet - levelPrice,
          shortBy: 2 * levelPrice - wallet,
        });
      }
      // Which instance won each race varies from run to run (logged below); one won each.
      const wonBy = [first, second].map(
        (world) => results.filter((r, index) => r.status === 'fulfilled' && attempts[index]!.world === world).length,
      );
      expect(wonBy.reduce((a, b) => a + b)).toBe(downlineCount);

      // The watchers of both instances send what was held and settle it.
      const db = first.app.db;
      const txsOf = (userId: number) => db.transactions.listByUser(userId, { limit: 10 });
      const statuses = async () =>
        (await Promise.all(downlines.map((u) => txsOf(u.id))))
          .flat()
          .map((tx) => `${tx.target} ${tx.status} ${tx.providerStatus ?? ''} ${tx.message ?? ''}`);
      await eventually(async () => (await statuses()).every((line) => line.includes(' Sukses')), 30_000).catch(async (error: unknown) => {
        const provider = first.sandbox.reseller.transactions().map((tx) => `${tx.target} ${tx.status} checks ${tx.checks}`);
        throw new Error(`${String(error)}\n${(await statuses()).join('\n')}\nprovider:\n${provider.join('\n')}`);
      });
      const onProvider = first.sandbox.reseller.transactions();
      for (const [i, user] of downlines.entries()) {
        const txs = await txsOf(user.id);
        expect(txs, `downline ${i}`).toHaveLength(1);
        expect(
          onProvider.filter((tx) => tx.refId === txs[0]!.refId),
          `downline ${i}: on the provider once`,
        ).toHaveLength(1);
        expect(await expectWalletReconciles(db, user.id, txs, `downline ${i}`)).toBe(wallet - levelPrice);
      }
      expect(onProvider).toHaveLength(downlineCount);
      console.info(`two instances: ${downlineCount} wallets, confirmations won per instance ${JSON.stringify(wonBy)}`);
    },
  );
});
