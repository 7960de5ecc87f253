import { describe, expect } from 'vitest';
import { createClock, storeTest, type StoreKit } from './helpers.ts';

async function setup(stores: StoreKit) {
  const clock = createClock('2025-01-31T06:00:00Z');
  const { store } = await stores.open(stores.dir(), { now: clock.now });
  return { store, clock };
}

describe('outbox', () => {
  storeTest('queues notifications with ids in queue order and JSON payloads', async ({ stores }) => {
    const { store } = await setup(stores);
    const a = await store.outbox.enqueue({ chatId: 1, kind: 'text', payload: { at: new Date('2025-01-01T00:00:00Z'), n: 1 } });
    const b = await store.outbox.enqueue({ chatId: 2, kind: 'text', payload: undefined });
    expect(a).toMatchObject({
      chatId: 1,
      kind: 'text',
      attempts: 0,
      createdAt: '2025-01-31T06:00:00.000Z',
      payload: { at: '2025-01-01T00:00:00.000Z', n: 1 },
    });
    expect(b.payload).toBeNull();
    expect(a.id < b.id).toBe(true);
    expect(store.outbox.list().map((item) => item.id)).toEqual([a.id, b.id]);
    expect(store.outbox.size()).toBe(2);
  });

  storeTest('does not queue a second pending item with the same dedupeKey', async ({ stores }) => {
    const { store } = await setup(stores);
    const first = await store.outbox.enqueue({ chatId: 1, kind: 'settled', payload: 1, dedupeKey: 'settled:r1' });
    const second = await store.outbox.enqueue({ chatId: 1, kind: 'settled', payload: 2, dedupeKey: 'settled:r1' });
    expect(second).toEqual(first);
    expect(store.outbox.size()).toBe(1);
  });

  storeTest('lists due items, oldest due first, and honours notBefore', async ({ stores }) => {
    const { store, clock } = await setup(stores);
    const later = await store.outbox.enqueue({ chatId: 1, kind: 'reminder', payload: null, notBefore: '2025-01-31T06:10:00.000Z' });
    clock.advance(1000);
    const now = await store.outbox.enqueue({ chatId: 2, kind: 'text', payload: null });
    expect(store.outbox.listDue().map((item) => item.id)).toEqual([now.id]);
    clock.set('2025-01-31T06:10:00Z');
    expect(store.outbox.listDue().map((item) => item.id)).toEqual([now.id, later.id]);
  });

  storeTest('updates attempts and back-off, and removes sent items', async ({ stores }) => {
    const { store } = await setup(stores);
    const item = await store.outbox.enqueue({ chatId: 1, kind: 'text', payload: null });
    const updated = await store.outbox.update(item.id, { attempts: 1, notBefore: '2025-01-31T06:00:30.000Z', chatId: 99 } as never);
    expect(updated).toMatchObject({ attempts: 1, notBefore: '2025-01-31T06:00:30.000Z', chatId: 1 });
    expect(store.outbox.listDue()).toEqual([]);
    expect((await store.outbox.update(item.id, { notBefore: undefined }))?.notBefore).toBeUndefined();
    expect(await store.outbox.remove(item.id)).toBe(true);
    expect(await store.outbox.remove(item.id)).toBe(false);
    expect(await store.outbox.update(item.id, { attempts: 2 })).toBeUndefined();
    await expect(store.outbox.update('x', { attempts: -1 })).resolves.toBeUndefined();
  });
});
