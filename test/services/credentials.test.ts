import { describe, expect } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import type { Providers } from '../../src/providers/factory.ts';
import type { ResellerClient } from '../../src/providers/reseller/client.ts';
import { createCredentialService } from '../../src/services/credentials.ts';
import { sealCredential } from '../../src/store/records/credentials.ts';
import { createVault, VaultError } from '../../src/store/vault.ts';
import { storeTest } from '../store/helpers.ts';

/** No provider is called: these tests only store credentials and read them back. */
const noProviders = {} as Providers;
const logger = createLogger({ level: 'error', write: () => undefined });

describe('account keys', () => {
  storeTest('name the provider account: the same for its users, another after a reconnect to another key', async ({ stores }) => {
    const { store, db } = await stores.open(stores.dir());
    const credentials = createCredentialService(db, noProviders, logger);
    const shop = { apiId: 'SHOP-1', apiKey: 'key-1' };
    await store.credentials.save(1, 'reseller', shop, 'SHOP…P-1');
    await store.credentials.save(2, 'reseller', shop, 'SHOP…P-1');
    await store.credentials.save(3, 'reseller', { apiId: 'SHOP-2', apiKey: 'key-1' }, 'SHOP…P-2');

    const first = await credentials.accountKey(1, 'reseller');
    expect(first).toBeDefined();
    expect(await credentials.accountKey(2, 'reseller')).toBe(first);
    expect(await credentials.accountKey(3, 'reseller')).not.toBe(first);
    expect(await credentials.accountKey(1, 'marketplace')).toBeUndefined();
    // No secret readable in it.
    expect(first).not.toContain('key-1');

    await store.credentials.save(1, 'reseller', { apiId: 'SHOP-1', apiKey: 'key-2' }, 'SHOP…P-1');
    expect(await credentials.accountKey(1, 'reseller')).not.toBe(first);
    await store.credentials.remove(1, 'reseller');
    expect(await credentials.accountKey(1, 'reseller')).toBeUndefined();
  });
});

/** Providers whose reseller client answers, as its balance, the number in the key it was made with (`key-2`: 2). */
const keyTellingProviders = {
  reseller: ({ apiKey }: { apiKey: string }) =>
    ({ balance: () => Promise.resolve(Number(apiKey.replace('key-', ''))) }) as unknown as ResellerClient,
} as unknown as Providers;

describe('clients of stored accounts', () => {
  storeTest('follow the stored record: a save past the service, a reseal and a removal are seen at the next use', async ({ stores }) => {
    const { store, db } = await stores.open(stores.dir());
    const credentials = createCredentialService(db, keyTellingProviders, logger);
    const balance = async () => (await credentials.client(1, 'reseller'))?.balance();
    await store.credentials.save(1, 'reseller', { apiId: 'SHOP-1', apiKey: 'key-1' }, 'SHOP…P-1');
    expect(await balance()).toBe(1);
    expect(await balance()).toBe(1);

    // Saved by another writer (another instance of a fleet, not this service).
    await store.credentials.save(1, 'reseller', { apiId: 'SHOP-1', apiKey: 'key-2' }, 'SHOP…P-1');
    expect(await balance()).toBe(2);
    expect((await credentials.load(1, 'reseller'))?.apiKey).toBe('key-2');
    const account = await credentials.accountKey(1, 'reseller');

    // Sealed again with a key this instance does not have: nothing opened earlier stands in for it.
    const otherKey = createVault({ key: Buffer.alloc(32, 9) });
    const resealed = sealCredential(otherKey, 1, 'reseller', { apiId: 'SHOP-1', apiKey: 'key-2' }, { label: 'SHOP…P-1', at: new Date() });
    await store.credentials.saveSealed(1, resealed);
    await expect(balance()).rejects.toBeInstanceOf(VaultError);
    await expect(credentials.accountKey(1, 'reseller')).rejects.toBeInstanceOf(VaultError);

    await store.credentials.save(1, 'reseller', { apiId: 'SHOP-1', apiKey: 'key-2' }, 'SHOP…P-1');
    expect(await credentials.accountKey(1, 'reseller')).toBe(account);
    await store.credentials.remove(1, 'reseller');
    expect(await credentials.client(1, 'reseller')).toBeUndefined();
    expect(await credentials.load(1, 'reseller')).toBeUndefined();
    expect(await credentials.accountKey(1, 'reseller')).toBeUndefined();
  });
});
