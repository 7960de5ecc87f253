import { describe, expect } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import type { Providers } from '../../src/providers/factory.ts';
import { createCredentialService } from '../../src/services/credentials.ts';
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
