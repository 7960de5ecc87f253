import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { credentialsAad } from '../../src/store/records/credentials.ts';
import { StoreError } from '../../src/store/errors.ts';
import { VaultError } from '../../src/store/vault.ts';
import { type StoreKit, editShard, shardOnDisk, shardPathOf, storeTest } from './helpers.ts';

async function setup(stores: StoreKit) {
  const dataDir = stores.dir();
  const { store } = await stores.open(dataDir, { now: () => new Date('2025-01-31T06:00:00Z') });
  return { store, dataDir };
}

describe('credentials', () => {
  storeTest('seals secrets per user and service, and opens them again', async ({ stores }) => {
    const { store, dataDir } = await setup(stores);
    await store.credentials.save(1, 'reseller', { apiId: 'RS-1', apiKey: 'SECRET-abc123' }, 'RS-*');
    const record = shardOnDisk(dataDir, 1).credentials['1:reseller'];
    expect(record).toMatchObject({ service: 'reseller', label: 'RS-*', connectedAt: '2025-01-31T06:00:00.000Z' });
    expect(record?.sealed).toMatch(/^v1\.f[0-9a-f]{12}\./);
    expect(readFileSync(shardPathOf(dataDir, 1), 'utf8')).not.toContain('SECRET-abc123');
    expect(store.credentials.load(1, 'reseller')).toEqual({ apiId: 'RS-1', apiKey: 'SECRET-abc123' });
    expect(store.credentials.has(1, 'reseller')).toBe(true);
    expect(store.credentials.info(1, 'reseller')).toEqual({ service: 'reseller', label: 'RS-*', connectedAt: '2025-01-31T06:00:00.000Z' });
    expect(store.credentials.load(1, 'gameshop')).toBeUndefined();
    expect(store.credentials.load(2, 'reseller')).toBeUndefined();
  });

  storeTest('lists and removes services per user', async ({ stores }) => {
    const { store } = await setup(stores);
    await store.credentials.save(1, 'reseller', { apiId: 'a', apiKey: 'b' });
    await store.credentials.save(1, 'gameshop', { apiKey: 'c' });
    await store.credentials.save(12, 'marketplace', { apiKey: 'd' });
    expect(store.credentials.listServices(1).sort()).toEqual(['gameshop', 'reseller']);
    expect(store.credentials.listServices(12)).toEqual(['marketplace']);
    expect(await store.credentials.remove(1, 'reseller')).toBe(true);
    expect(await store.credentials.remove(1, 'reseller')).toBe(false);
    expect(store.credentials.listServices(1)).toEqual(['gameshop']);
  });

  storeTest('does not open sealed credentials moved to another user or service', async ({ stores }) => {
    const { store, dataDir } = await setup(stores);
    await store.credentials.save(1, 'gameshop', { apiKey: 'SECRET-abc123' });
    await store.close();
    const sealed = shardOnDisk(dataDir, 1).credentials['1:gameshop']!;
    editShard(dataDir, 2, (shard) => (shard.credentials['2:gameshop'] = sealed));
    editShard(dataDir, 1, (shard) => (shard.credentials['1:marketplace'] = { ...sealed, service: 'marketplace' }));
    const again = (await stores.open(dataDir)).store;
    expect(() => again.credentials.load(2, 'gameshop')).toThrow(VaultError);
    expect(() => again.credentials.load(1, 'marketplace')).toThrow(/another owner or field/);
    expect(again.credentials.load(1, 'gameshop')).toEqual({ apiKey: 'SECRET-abc123' });
    expect(credentialsAad(2, 'gameshop')).toBe('user:2:credentials:gameshop');
  });

  storeTest('refuses empty or non-text secrets', async ({ stores }) => {
    const { store } = await setup(stores);
    await expect(store.credentials.save(1, 'gameshop', {})).rejects.toThrow(StoreError);
    await expect(store.credentials.save(1, 'gameshop', { apiKey: 5 as never })).rejects.toThrow(StoreError);
    await expect(store.credentials.save(1, 'other' as never, { apiKey: 'x' })).rejects.toThrow(/invalid service/);
    expect(store.credentials.listServices(1)).toEqual([]);
  });
});
