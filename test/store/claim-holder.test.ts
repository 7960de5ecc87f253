/**
 * The claim holder's heartbeat (DESIGN invariant 9, slow is not dead): a heartbeat that comes a
 * lease late keeps the claims when the store says the token's liveness held meanwhile, and gives
 * them up (a new token, the old one's liveness released) only when it did not, or when nothing can
 * say. The store side is test/store/pg/liveness.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createClaimHolder } from '../../src/store/claim-holder.ts';
import type { Liveness } from '../../src/store/contract.ts';

const leaseMs = 30_000;

/** A store's liveness that records what was held and released; `lose` ends a token's as a lost session would. */
function fakeLiveness() {
  const held = new Set<string>();
  const released: string[] = [];
  const liveness: Liveness = {
    hold: (token) => Promise.resolve(void held.add(token)),
    held: (token) => Promise.resolve(held.has(token)),
    release: (token) => Promise.resolve(void (held.delete(token) && released.push(token))),
  };
  return { liveness, held, released, lose: (token: string) => held.delete(token) };
}

function holderWith(options: { renew?: () => Promise<void> } = {}) {
  const store = fakeLiveness();
  let elapsed = 0;
  const problems: string[] = [];
  let renewals = 0;
  const holder = createClaimHolder({
    instanceId: 'a',
    leaseMs,
    liveness: store.liveness,
    renew: () => {
      renewals += 1;
      return options.renew?.() ?? Promise.resolve();
    },
    elapsed: () => elapsed,
    onProblem: (message) => problems.push(message),
  });
  return { holder, store, problems, renewals: () => renewals, pass: (ms: number) => void (elapsed += ms) };
}

describe('the claim holder', () => {
  it('a lease without a heartbeat (starved, paused) while the liveness held: the claims are still its own when it asks, under the same token', async () => {
    const { holder, store, problems, renewals, pass } = holderWith();
    await holder.beat();
    const owner = holder.lease().owner;
    expect(store.held).toEqual(new Set([owner]));
    pass(3 * leaseMs);
    // Asked before the late heartbeat ran: it runs the heartbeat and answers from it, not from the gap.
    expect(await holder.holds(owner)).toBe(true);
    expect(renewals()).toBe(2);
    expect(holder.lease().owner).toBe(owner);
    expect(store.released).toEqual([]);
    expect(problems).toEqual([
      "claims not renewed for a whole lease (paused, or the event loop starved): the database session kept them this instance's; carried on",
    ]);
  });

  it('a liveness that went (its session ended): the next heartbeat gives the token up and takes a new one, however recent the renewal', async () => {
    const { holder, store, problems, pass } = holderWith();
    await holder.beat();
    const owner = holder.lease().owner;
    store.lose(owner);
    pass(leaseMs / 3);
    await holder.beat();
    expect(await holder.holds(owner)).toBe(false);
    const next = holder.lease().owner;
    expect(next).not.toBe(owner);
    expect(store.held).toEqual(new Set([next]));
    expect(problems).toEqual(['the database session holding the claims ended (a lost connection, or a long pause): given up here']);
  });

  it('a lease late and the renewal failing: nothing can say the claims are still its own, so the token is given up and its liveness released', async () => {
    let failing = false;
    const { holder, store, problems, pass } = holderWith({
      renew: () => (failing ? Promise.reject(new Error('database unreachable')) : Promise.resolve()),
    });
    await holder.beat();
    const owner = holder.lease().owner;
    failing = true;
    // Within the lease a failed renewal is only reported; the claims hold by time.
    pass(leaseMs / 3);
    await holder.beat();
    expect(await holder.holds(owner)).toBe(true);
    pass(leaseMs);
    expect(await holder.holds(owner)).toBe(false);
    expect(store.released).toEqual([owner]);
    expect(problems).toEqual([
      'renewing the claims failed; tried again at the next heartbeat',
      'renewing the claims failed; tried again at the next heartbeat',
      "claims not renewed for a whole lease, and the database cannot say they are still this instance's: given up here",
    ]);
  });

  it('without a liveness (a store that has none) a heartbeat a lease late cannot tell slow from lost: the claims are given up', async () => {
    let elapsed = 0;
    const holder = createClaimHolder({ instanceId: 'a', leaseMs, renew: () => Promise.resolve(), elapsed: () => elapsed });
    await holder.beat();
    const owner = holder.lease().owner;
    elapsed += leaseMs;
    expect(await holder.holds(owner)).toBe(false);
    expect(holder.lease().owner).not.toBe(owner);
  });
});
