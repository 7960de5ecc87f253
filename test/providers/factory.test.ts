import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProviders, type AccountProblem } from '../../src/providers/factory.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';

const { main, poor, blocked } = resellerDemoAccounts;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.received.length = 0;
  sandbox.clearFaults();
});

const balanceCalls = () => sandbox.received.filter((r) => r.service === 'reseller' && r.path === '/cek-saldo').length;
const providersWith = (onAccountProblem?: (problem: AccountProblem) => void) =>
  createProviders(
    { resellerUrl: sandbox.urls.reseller, marketplaceUrl: sandbox.urls.marketplace, gameshopUrl: sandbox.urls.gameshop, timeoutMs: 2000 },
    { onAccountProblem },
  );

describe('reseller balance reads', () => {
  it('are shared while one is under way for the same account: one provider call, one answer for all', async () => {
    const providers = providersWith();
    // Three users of one account (pasted with stray spaces by one of them) and one other account, all at once.
    const reads = [
      providers.reseller(main, { userId: 1 }).balance(),
      providers.reseller({ apiId: ` ${main.apiId}`, apiKey: `${main.apiKey} ` }, { userId: 2 }).balance(),
      providers.reseller(main, { userId: 3 }).balance(),
      providers.reseller(poor, { userId: 4 }).balance(),
    ];
    const [a, b, c, other] = await Promise.all(reads);
    expect([a, b, c]).toEqual([1_000_000, 1_000_000, 1_000_000]);
    expect(other).not.toBe(1_000_000);
    expect(balanceCalls()).toBe(2);

    // Nothing is kept once the read settled: the next read asks the provider again.
    sandbox.reseller.setBalance(main.apiId, 750_000);
    expect(await providers.reseller(main, { userId: 1 }).balance()).toBe(750_000);
    expect(balanceCalls()).toBe(3);
    sandbox.reseller.setBalance(main.apiId, 1_000_000);
  });

  it('share a refusal too, and each stored account that met it is reported', async () => {
    const problems: AccountProblem[] = [];
    const providers = providersWith((problem) => problems.push(problem));
    const reads = [1, 2].map((userId) =>
      providers
        .reseller(blocked, { userId })
        .balance()
        .catch((error: unknown) => error),
    );
    const [first, second] = await Promise.all(reads);
    expect(first).toBeInstanceOf(Error);
    expect(second).toBe(first);
    expect(balanceCalls()).toBe(1);
    expect(problems.map((p) => p.userId).sort()).toEqual([1, 2]);
  });
});
