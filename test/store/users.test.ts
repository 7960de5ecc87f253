import { describe, expect, vi } from 'vitest';
import { StoreError } from '../../src/store/errors.ts';
import { userDeferredWriteMs } from '../../src/store/users.ts';
import { userShardCount } from '../../src/store/user-shards.ts';
import { createClock, shardOnDisk, storeTest, type StoreKit } from './helpers.ts';

async function setup(stores: StoreKit) {
  const clock = createClock('2025-01-31T06:00:00Z');
  const { store, writes } = await stores.open(stores.dir(), { now: clock.now });
  return { store, writes, clock };
}

describe('users', () => {
  storeTest('creates an active user on first contact and refreshes names later', async ({ stores }) => {
    const { store, clock } = await setup(stores);
    const first = await store.users.upsert({ id: 5, firstName: 'Siti', username: 'siti' });
    expect(first).toEqual({
      created: true,
      user: { id: 5, firstName: 'Siti', username: 'siti', active: true, createdAt: '2025-01-31T06:00:00.000Z' },
    });
    clock.advance(1000);
    const again = await store.users.upsert({ id: 5, firstName: 'Siti A', locale: 'en' });
    expect(again.created).toBe(false);
    // No username any more: it is removed; createdAt stays.
    expect(again.user).toEqual({ id: 5, firstName: 'Siti A', locale: 'en', active: true, createdAt: '2025-01-31T06:00:00.000Z' });
  });

  storeTest('applies patches, removing fields set to undefined, and skips writes that change nothing', async ({ stores }) => {
    const { store, writes } = await setup(stores);
    await store.users.upsert({ id: 5, firstName: 'Siti' });
    await store.users.update(5, {
      pin: { hash: 'h', salt: 's', failedAttempts: 2, lockedUntil: '2025-01-31T07:00:00.000Z' },
      alertThreshold: 50000,
    });
    expect(store.users.get(5)?.pin?.failedAttempts).toBe(2);
    const updated = await store.users.update(5, { pin: undefined, id: 9, createdAt: 'x' } as never);
    expect(updated?.pin).toBeUndefined();
    expect(updated?.id).toBe(5);
    // The hot file's record of the shard just created goes with the next flush; then nothing more.
    await store.flush();
    const before = writes.length;
    await store.users.update(5, { alertThreshold: 50000 });
    expect(writes.length).toBe(before);
    expect(await store.users.update(404, { firstName: 'x' })).toBeUndefined();
  });

  storeTest('refuses invalid values and keeps the user as it was', async ({ stores }) => {
    const { store } = await setup(stores);
    await store.users.upsert({ id: 5, firstName: 'Siti' });
    await expect(store.users.update(5, { locale: 'fr' as never })).rejects.toThrow(StoreError);
    await expect(store.users.upsert({ id: 1.5, firstName: 'x' })).rejects.toThrow(/invalid user: id/);
    expect(store.users.get(5)?.locale).toBeUndefined();
  });

  storeTest('marks users inactive and active, and lists and counts them', async ({ stores }) => {
    const { store } = await setup(stores);
    await Promise.all([1, 2, 3].map((id) => store.users.upsert({ id, firstName: `U${id}` })));
    await store.users.setActive(2, false);
    expect(store.users.count()).toBe(3);
    expect(store.users.count({ active: true })).toBe(2);
    expect(store.users.list({ active: false }).map((u) => u.id)).toEqual([2]);
    expect(store.users.list().map((u) => u.id)).toEqual([1, 2, 3]);
    await store.users.setActive(2, true);
    expect(store.users.count({ active: false })).toBe(0);
  });

  storeTest('stores a ban on disk (who and when), keeps it across a reopen, and lifts it', async ({ stores }) => {
    const dataDir = stores.dir();
    const clock = createClock('2025-01-31T06:00:00Z');
    const first = (await stores.open(dataDir, { now: clock.now })).store;
    await first.users.upsert({ id: 5, firstName: 'Siti' });
    await first.users.update(5, { ban: { at: clock.now().toISOString(), by: 1 } });
    await first.close();
    const again = (await stores.open(dataDir, { now: clock.now })).store;
    expect(again.users.get(5)?.ban).toEqual({ at: '2025-01-31T06:00:00.000Z', by: 1 });
    await expect(again.users.update(5, { ban: { at: 'yesterday', by: 1 } })).rejects.toThrow(StoreError);
    await again.users.update(5, { ban: undefined });
    expect(again.users.get(5)).not.toHaveProperty('ban');
  });

  storeTest("writes a deferred change with its shard's next write, or once its time is up", async ({ stores }) => {
    const dataDir = stores.dir();
    const { store, writes } = await stores.open(dataDir);
    const neighbour = 5 + userShardCount;
    await Promise.all([5, neighbour].map((id) => store.users.upsert({ id, firstName: 'Siti' })));
    await store.flush();
    const before = writes.length;
    // In effect at once, on disk with the next write of the shard (another user's change).
    expect((await store.users.update(5, { telegramLocale: 'en' }, { deferWrite: true }))?.telegramLocale).toBe('en');
    expect(store.users.get(5)?.telegramLocale).toBe('en');
    expect(writes.length).toBe(before);
    await store.users.update(neighbour, { firstName: 'Ani' });
    expect(writes.length).toBe(before + 1);
    expect(shardOnDisk(dataDir, 5).users['5']?.telegramLocale).toBe('en');
    // Alone, it is written when its time is up.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await store.users.update(5, { firstName: 'Siti A' }, { deferWrite: true });
      vi.advanceTimersByTime(userDeferredWriteMs - 1);
      expect(writes.length).toBe(before + 1);
      vi.advanceTimersByTime(1);
    } finally {
      vi.useRealTimers();
    }
    await store.flush();
    expect(writes.length).toBe(before + 2);
    expect(shardOnDisk(dataDir, 5).users['5']?.firstName).toBe('Siti A');
  });

  storeTest('hands out copies', async ({ stores }) => {
    const { store } = await setup(stores);
    const { user } = await store.users.upsert({ id: 5, firstName: 'Siti' });
    user.firstName = 'changed';
    store.users.get(5)!.active = false;
    expect(store.users.get(5)).toMatchObject({ firstName: 'Siti', active: true });
  });
});
