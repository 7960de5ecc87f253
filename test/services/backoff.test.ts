/**
 * The re-check back-off: about every 10 s for the first 2 minutes, every 30 s up to 10 minutes,
 * then every 5 minutes, with ±20 % jitter — as the schedule function says and as the next check
 * times stored after real checks against the sandbox show.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser, seedPurchase } from '../helpers/seed-transactions.ts';
import { nextCheckDelayMs } from '../../src/services/purchase-records.ts';

describe('re-check back-off', () => {
  it('the schedule steps from 10 s to 30 s at 2 minutes and to 5 minutes at 10 minutes', () => {
    expect(nextCheckDelayMs(0)).toBe(10_000);
    expect(nextCheckDelayMs(60_000)).toBe(10_000);
    expect(nextCheckDelayMs(2 * 60_000 - 1)).toBe(10_000);
    expect(nextCheckDelayMs(2 * 60_000)).toBe(30_000);
    expect(nextCheckDelayMs(5 * 60_000)).toBe(30_000);
    expect(nextCheckDelayMs(10 * 60_000 - 1)).toBe(30_000);
    expect(nextCheckDelayMs(10 * 60_000)).toBe(5 * 60_000);
    expect(nextCheckDelayMs(23 * 3600_000)).toBe(5 * 60_000);
  });

  it('RECHECK_FIRST_SECONDS sets the first 2 minutes only; the later steps stay', () => {
    expect(nextCheckDelayMs(0, 2000)).toBe(2000);
    expect(nextCheckDelayMs(2 * 60_000 - 1, 2000)).toBe(2000);
    expect(nextCheckDelayMs(2 * 60_000, 2000)).toBe(30_000);
    expect(nextCheckDelayMs(10 * 60_000, 2000)).toBe(5 * 60_000);
  });

  describe('stored next check times', () => {
    let world: TestWorld;
    afterEach(async () => {
      await world.stop();
    });

    it('follow the schedule by the age of the purchase, each within ±20 % jitter, and the jitter spreads them', async () => {
      // A clock that moves only when the test moves it: the delays read back are exact.
      let clockMs = Date.now();
      const now = () => new Date(clockMs);
      world = await startWorld({ app: { now } });
      const budi = await seedConnectedUser(world, 'Budi');
      const start = now().getTime();
      const refs: string[] = [];
      // Targets ending in 9999 stay Pending at the sandbox forever.
      for (let i = 0; i < 10; i += 1) refs.push(await seedPurchase(world, budi, { target: `0812000${i}9999` }));

      /** Delays (ms from now) of the stored next checks. */
      const delays = async () => {
        const at = now().getTime();
        const stored = await Promise.all(refs.map((refId) => world.app.db.transactions.find(refId)));
        return stored.map((tx) => Date.parse(tx?.nextCheckAt ?? 'missing') - at);
      };
      const expectWithin = (values: number[], base: number) => {
        for (const value of values) {
          expect(value).toBeGreaterThanOrEqual(0.8 * base);
          expect(value).toBeLessThanOrEqual(1.2 * base);
        }
        // Jitter: not all at the same moment (10 uniform draws within 5 % of each other is ~1e-7).
        expect(Math.max(...values) - Math.min(...values)).toBeGreaterThan(0.05 * base);
      };

      // Right after the create.
      expectWithin(await delays(), 10_000);
      const steps: Array<[ageMs: number, base: number]> = [
        [60_000, 10_000],
        [115_000, 10_000],
        [125_000, 30_000],
        [9 * 60_000 + 50_000, 30_000],
        [10 * 60_000 + 10_000, 5 * 60_000],
        [3 * 3600_000, 5 * 60_000],
      ];
      for (const [age, base] of steps) {
        clockMs = start + age;
        for (const refId of refs) await world.app.services.purchases.check(refId, { notifyOwner: true });
        expectWithin(await delays(), base);
      }
      for (const refId of refs) expect((await world.app.db.transactions.find(refId))?.checks).toBe(steps.length);
    });

    it('RECHECK_FIRST_SECONDS=2: a new purchase is re-checked about 2 s later', async () => {
      const clockMs = Date.now();
      const now = () => new Date(clockMs);
      world = await startWorld({ app: { now }, env: { RECHECK_FIRST_SECONDS: '2' } });
      const budi = await seedConnectedUser(world, 'Budi');
      const refId = await seedPurchase(world, budi, { target: '081200009999' });
      const delay = Date.parse((await world.app.db.transactions.find(refId))?.nextCheckAt ?? 'missing') - clockMs;
      expect(delay).toBeGreaterThanOrEqual(1600);
      expect(delay).toBeLessThanOrEqual(2400);
    });
  });
});
