import { describe, expect } from 'vitest';
import { type StoreKit, storeTest } from './helpers.ts';

async function setup(stores: StoreKit) {
  const { store } = await stores.open(stores.dir(), { now: () => new Date('2025-01-31T06:00:00Z') });
  await store.users.upsert({ id: 1, firstName: 'Siti' });
  await store.users.upsert({ id: 2, firstName: 'Budi' });
  return store;
}

describe('groups', () => {
  storeTest('links a group to its owner and records it on the user', async ({ stores }) => {
    const store = await setup(stores);
    expect(await store.groups.link({ chatId: -100, ownerId: 1, title: 'Toko' })).toEqual({
      chatId: -100,
      ownerId: 1,
      title: 'Toko',
      linkedAt: '2025-01-31T06:00:00.000Z',
    });
    expect(store.users.get(1)?.linkedGroupId).toBe(-100);
    expect(store.groups.byOwner(1).map((g) => g.chatId)).toEqual([-100]);
    expect(store.groups.get(-100)?.ownerId).toBe(1);
  });

  storeTest('keeps one group per owner and one owner per group', async ({ stores }) => {
    const store = await setup(stores);
    await store.groups.link({ chatId: -100, ownerId: 1 });
    await store.groups.link({ chatId: -200, ownerId: 1 });
    expect(store.groups.get(-100)).toBeUndefined();
    expect(store.users.get(1)?.linkedGroupId).toBe(-200);
    await store.groups.link({ chatId: -200, ownerId: 2 });
    expect(store.users.get(1)?.linkedGroupId).toBeUndefined();
    expect(store.users.get(2)?.linkedGroupId).toBe(-200);
    expect(store.groups.byOwner(1)).toEqual([]);
  });

  storeTest('unlinks and clears the owner', async ({ stores }) => {
    const store = await setup(stores);
    await store.groups.link({ chatId: -100, ownerId: 1 });
    expect(await store.groups.unlink(-100)).toBe(true);
    expect(await store.groups.unlink(-100)).toBe(false);
    expect(store.users.get(1)?.linkedGroupId).toBeUndefined();
    expect(store.groups.get(-100)).toBeUndefined();
  });

  storeTest(
    'moves a link to the supergroup a group became, keeping owner and title; a group never linked stays unlinked',
    async ({ stores }) => {
      const store = await setup(stores);
      await store.groups.link({ chatId: -100, ownerId: 1, title: 'Toko' });
      // Budi had linked the supergroup meanwhile: the migrated link takes it over.
      await store.groups.link({ chatId: -1001, ownerId: 2 });
      expect(await store.groups.migrate(-100, -1001)).toBe(true);
      expect(store.groups.get(-100)).toBeUndefined();
      expect(store.groups.get(-1001)).toMatchObject({ ownerId: 1, title: 'Toko' });
      expect(store.users.get(1)?.linkedGroupId).toBe(-1001);
      expect(store.users.get(2)?.linkedGroupId).toBeUndefined();
      expect(store.groups.byOwner(1).map((g) => g.chatId)).toEqual([-1001]);

      expect(await store.groups.migrate(-100, -1001)).toBe(false);
      expect(await store.groups.migrate(-300, -1003)).toBe(false);
      expect(store.groups.get(-1003)).toBeUndefined();
      expect(store.groups.get(-1001)?.ownerId).toBe(1);
    },
  );
});
