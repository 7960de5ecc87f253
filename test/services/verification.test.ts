import { describe, expect } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import type { Providers } from '../../src/providers/factory.ts';
import { MarketplaceError, type MarketplaceClient } from '../../src/providers/marketplace/client.ts';
import type { Purchase } from '../../src/providers/marketplace/schemas.ts';
import { createCredentialService } from '../../src/services/credentials.ts';
import {
  VerificationService,
  verifyCacheMs,
  verifyRateLimit,
  type VerifyRequest,
  type VerifyResult,
} from '../../src/services/verification.ts';
import { createClock, storeTest, type StoreKit } from '../store/helpers.ts';

// Fixtures: two sellers' marketplace keys, a buyer with none, a group, and codes.
const sellerKey = 'market-key-seller-one';
const otherKey = 'market-key-seller-two';
const seller = 1001;
const other = 1002;
const buyer = 2001;
const group = -100500;
const goodCode = '86781236-23d0-4b3c-7dfa-c1c147e0dece';
const otherCode = 'c5f2f0d1-5a52-4b6b-9b3a-0cbd1f6f3a10';
const unknownCode = '00000000-0000-4000-8000-000000000000';

const purchase = (code: string): Purchase => ({
  purchase_code: code,
  license_type: 'Regular',
  price: 59,
  currency: 'USD',
  item: { id: 17, name: 'Kopi theme', url: 'https://market.example.com/items/17', media: {} },
  supported_until: '2030-01-01T00:00:00+07:00',
  downloaded: true,
  date: '2024-04-11T10:00:00+07:00',
});

/** A fake marketplace: each key sells `codes`; records every code it was asked about, by key. */
function fakeMarketplace(sales: Record<string, string[]>) {
  const asked: Array<{ apiKey: string; code: string }> = [];
  let failure: MarketplaceError | undefined;
  const notUsed = (): never => {
    throw new Error('not used by verification');
  };
  const client = (apiKey: string): MarketplaceClient => ({
    accountDetails: notUsed,
    items: notUsed,
    item: notUsed,
    validatePurchase(code) {
      asked.push({ apiKey, code });
      if (failure) return Promise.reject(failure);
      if (sales[apiKey]?.includes(code)) return Promise.resolve(purchase(code));
      return Promise.reject(
        new MarketplaceError({
          kind: 'not_found',
          endpoint: '/api/purchases/validation',
          providerMessage: 'Invalid purchase code',
          httpStatus: 404,
        }),
      );
    },
  });
  const providers: Providers = { reseller: notUsed, gameshop: notUsed, marketplace: ({ apiKey }) => client(apiKey) };
  return {
    providers,
    asked,
    failWith(error: MarketplaceError | undefined) {
      failure = error;
    },
  };
}

async function setup(stores: StoreKit) {
  const clock = createClock('2025-03-01T03:00:00Z');
  const { store, db } = await stores.open(stores.dir(), { now: clock.now });
  const marketplace = fakeMarketplace({ [sellerKey]: [goodCode], [otherKey]: [otherCode] });
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => void lines.push(line) });
  const credentials = createCredentialService(db, marketplace.providers, logger);
  const service = new VerificationService({ db, credentials, logger, now: clock.now });
  await store.credentials.save(seller, 'marketplace', { apiKey: sellerKey }, 'nusantara-studio');
  await store.credentials.save(other, 'marketplace', { apiKey: otherKey }, 'lombok-audio');
  return { store, clock, marketplace, lines, service };
}

const privateCheck = (userId: number, code: string): VerifyRequest => ({ chatId: userId, isPrivate: true, senderId: userId, code });
const groupCheck = (senderId: number | undefined, code: string): VerifyRequest => ({ chatId: group, isPrivate: false, senderId, code });

/** The outcome of an answered check (fails the test for any other result). */
function answered(result: VerifyResult) {
  if (result.kind !== 'answered') throw new Error(`expected an answer, got ${JSON.stringify(result)}`);
  return result;
}

async function checkMany(service: VerificationService, request: VerifyRequest, times: number): Promise<VerifyResult[]> {
  const results: VerifyResult[] = [];
  for (let i = 0; i < times; i += 1) results.push(await service.verify(request));
  return results;
}

describe('purchase-code verification', () => {
  storeTest(
    'answers the same code for the same account from memory within the window, and asks again when it expires',
    async ({ stores }) => {
      const { clock, marketplace, service } = await setup(stores);
      const first = answered(await service.verify(privateCheck(seller, goodCode)));
      expect(first).toMatchObject({
        cached: false,
        account: 'nusantara-studio',
        outcome: { valid: true, purchase: { purchase_code: goodCode } },
      });

      clock.advance(verifyCacheMs - 1);
      const second = answered(await service.verify(privateCheck(seller, ` ${goodCode} `)));
      expect(second).toMatchObject({ cached: true, outcome: { valid: true } });
      expect(marketplace.asked).toHaveLength(1);

      clock.advance(1);
      const third = answered(await service.verify(privateCheck(seller, goodCode)));
      expect(third.cached).toBe(false);
      expect(marketplace.asked).toHaveLength(2);
    },
  );

  storeTest(
    'remembers a refused code too, but never an outage; and says "typing" only when it asks the marketplace',
    async ({ stores }) => {
      const { marketplace, service } = await setup(stores);
      let asking = 0;
      const hooks = {
        beforeAsking: () => {
          asking += 1;
          return Promise.resolve();
        },
      };
      const refused = answered(await service.verify(privateCheck(seller, unknownCode), hooks));
      expect(refused.outcome).toEqual({ valid: false, message: 'Invalid purchase code' });
      expect(answered(await service.verify(privateCheck(seller, unknownCode), hooks)).cached).toBe(true);
      expect(asking).toBe(1);

      marketplace.failWith(new MarketplaceError({ kind: 'unknown_outcome', endpoint: '/api/purchases/validation', httpStatus: 503 }));
      expect(await service.verify(privateCheck(seller, goodCode), hooks)).toMatchObject({
        kind: 'failed',
        ownAccount: true,
        error: { kind: 'unknown_outcome' },
      });
      marketplace.failWith(undefined);
      expect(answered(await service.verify(privateCheck(seller, goodCode), hooks)).cached).toBe(false);
      expect(asking).toBe(3);
    },
  );

  storeTest('limits each chat to its checks per window, counting cached answers, without touching other chats', async ({ stores }) => {
    const { clock, marketplace, service } = await setup(stores);
    const allowed = await checkMany(service, privateCheck(seller, goodCode), verifyRateLimit.checks);
    expect(allowed.map((result) => result.kind)).toEqual(Array(verifyRateLimit.checks).fill('answered'));

    clock.advance(10_000);
    expect(await service.verify(privateCheck(seller, goodCode))).toEqual({
      kind: 'too-many',
      waitMs: verifyRateLimit.windowMs - 10_000,
      tell: true,
    });
    // Another chat is not affected.
    expect((await service.verify(privateCheck(other, otherCode))).kind).toBe('answered');

    clock.advance(verifyRateLimit.windowMs - 10_000);
    expect((await service.verify(privateCheck(seller, goodCode))).kind).toBe('answered');
    expect(marketplace.asked.map((request) => request.apiKey)).toEqual([sellerKey, otherKey, sellerKey]);
  });

  storeTest('tells a group it checks too much once per window, and a private chat every time', async ({ stores }) => {
    const { clock, store, service } = await setup(stores);
    await store.groups.link({ chatId: group, ownerId: seller });
    await checkMany(service, groupCheck(buyer, goodCode), verifyRateLimit.checks);
    expect(await service.verify(groupCheck(buyer, goodCode))).toMatchObject({ kind: 'too-many', tell: true });
    expect(await service.verify(groupCheck(buyer, goodCode))).toMatchObject({ kind: 'too-many', tell: false });

    await checkMany(service, privateCheck(seller, goodCode), verifyRateLimit.checks);
    expect(await service.verify(privateCheck(seller, goodCode))).toMatchObject({ kind: 'too-many', tell: true });
    expect(await service.verify(privateCheck(seller, goodCode))).toMatchObject({ kind: 'too-many', tell: true });

    clock.advance(verifyRateLimit.windowMs);
    await checkMany(service, groupCheck(buyer, goodCode), verifyRateLimit.checks);
    expect(await service.verify(groupCheck(buyer, goodCode))).toMatchObject({ kind: 'too-many', tell: true });
  });

  storeTest('forgets the answers of an account that was reconnected', async ({ stores }) => {
    const { clock, store, marketplace, service } = await setup(stores);
    answered(await service.verify(privateCheck(seller, goodCode)));
    clock.advance(1000);
    await store.credentials.save(seller, 'marketplace', { apiKey: sellerKey }, 'nusantara-studio');
    expect(answered(await service.verify(privateCheck(seller, goodCode))).cached).toBe(false);
    expect(marketplace.asked).toHaveLength(2);
  });

  storeTest("answers with the sender's account in private, the linker's in a linked group, else the sender's", async ({ stores }) => {
    const { store, marketplace, service } = await setup(stores);
    expect(await service.verify(privateCheck(buyer, goodCode))).toEqual({ kind: 'not-connected', who: 'sender' });
    expect(await service.verify(groupCheck(buyer, goodCode))).toEqual({ kind: 'not-connected', who: 'group' });
    expect(await service.verify(groupCheck(undefined, goodCode))).toEqual({ kind: 'not-connected', who: 'group' });

    // Unlinked group: a member with an account checks with it.
    expect(answered(await service.verify(groupCheck(other, otherCode))).account).toBe('lombok-audio');

    // Linked group: the linker's account, whoever asks (even a member with an account of their own).
    await store.groups.link({ chatId: group, ownerId: seller });
    expect(answered(await service.verify(groupCheck(buyer, goodCode)))).toMatchObject({
      account: 'nusantara-studio',
      outcome: { valid: true },
    });
    expect(answered(await service.verify(groupCheck(other, otherCode)))).toMatchObject({
      account: 'nusantara-studio',
      outcome: { valid: false },
    });
    expect(marketplace.asked.map((request) => request.apiKey)).toEqual([otherKey, sellerKey, sellerKey]);

    // A credentials refusal says whether it was the asker's own account.
    marketplace.failWith(
      new MarketplaceError({ kind: 'credentials', endpoint: '/api/purchases/validation', providerMessage: 'Invalid request' }),
    );
    expect(await service.verify(groupCheck(buyer, unknownCode))).toMatchObject({ kind: 'failed', ownAccount: false });
    expect(await service.verify(groupCheck(seller, unknownCode))).toMatchObject({ kind: 'failed', ownAccount: true });

    // A group linked by someone without a marketplace account: nobody answers, nothing is counted.
    await store.groups.link({ chatId: group, ownerId: buyer });
    expect(await service.verify(groupCheck(other, otherCode))).toEqual({ kind: 'not-connected', who: 'group-owner' });
    expect(marketplace.asked).toHaveLength(5);
  });

  storeTest('refuses an empty or overlong code without asking or counting it', async ({ stores }) => {
    const { marketplace, service } = await setup(stores);
    for (let i = 0; i < verifyRateLimit.checks + 1; i += 1) {
      expect(await service.verify(privateCheck(seller, '  '))).toEqual({ kind: 'bad-code' });
      expect(await service.verify(privateCheck(seller, 'x'.repeat(101)))).toEqual({ kind: 'bad-code' });
    }
    expect(marketplace.asked).toEqual([]);
    expect((await service.verify(privateCheck(seller, goodCode))).kind).toBe('answered');
  });

  storeTest('never logs a purchase code', async ({ stores }) => {
    const { marketplace, lines, service } = await setup(stores);
    await service.verify(privateCheck(seller, unknownCode));
    marketplace.failWith(
      new MarketplaceError({
        kind: 'rejected',
        endpoint: '/api/purchases/validation',
        providerMessage: `No such code ${goodCode}`,
        httpStatus: 400,
      }),
    );
    await service.verify(privateCheck(seller, goodCode));
    expect(lines.some((line) => line.includes('marketplace purchase check failed'))).toBe(true);
    expect(lines.filter((line) => line.includes(goodCode) || line.includes(unknownCode))).toEqual([]);
  });
});
