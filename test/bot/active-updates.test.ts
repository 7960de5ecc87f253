/**
 * The bot handles a bounded number of updates at once (src/server/active-updates.ts),
 * and a provider that is slow to answer does not hold everybody else up: an update waiting on it
 * stops counting once its park timer fires (here fired by the test), and the next user is served.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { seedConnectedUser } from '../helpers/seed-transactions.ts';

describe('updates handled at once', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('a user is answered while others wait on a slow provider, once their updates are parked', async () => {
    const parks: Array<() => void> = [];
    let waiting = 0;
    world = await startWorld({
      app: {
        activeUpdates: {
          maxActive: 2,
          setTimer: (task) => {
            parks.push(task);
            return { clear: () => undefined };
          },
          onWait: () => (waiting += 1),
        },
      },
    });
    const budi = await seedConnectedUser(world, 'Budi');
    const siti = await seedConnectedUser(world, 'Siti');
    const andi = world.telegram.createUser({ firstName: 'Andi', languageCode: 'id' });
    // The provider takes 2 s to give the balance: Budi's and Siti's /saldo hold both slots.
    world.sandbox.inject({ service: 'reseller', path: '/cek-saldo', times: 1, fault: { kind: 'latency', ms: 2_000 } });
    budi.send('/saldo');
    siti.send('/saldo');
    await world.telegram.waitFor(() => parks.length === 2);
    const asked = andi.send('/start');
    // Andi's update reaches the bot but waits: no third slot, so no third park timer either.
    await world.telegram.waitFor(() => waiting === 1);
    expect(parks).toHaveLength(2);
    // 50 ms later (here: now) the two waiting on the provider are parked, and Andi is served.
    for (const park of parks.splice(0)) park();
    const welcome = await world.telegram.waitForBotMessage(andi, { after: asked });
    expect(welcome.text).toBeTruthy();
    const balances = (user: typeof budi) => world.telegram.botMessages(user).filter((m) => /Rp /.test(m.text ?? ''));
    expect(balances(budi)).toEqual([]);
    expect(balances(siti)).toEqual([]);
    // The provider answers in the end: both get their balance.
    await world.telegram.waitFor(() => balances(budi).length === 1 && balances(siti).length === 1, { timeoutMs: 5_000 });
  });
});
