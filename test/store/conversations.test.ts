import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { editShard, shardOnDisk, shardPathOf, storeTest } from './helpers.ts';

/** Shaped like a conversations v2 state: a version and the updates replayed so far. */
const state = { version: [0, 1], state: { args: [], interrupts: [], replay: [{ message: { text: 'SECRET-typed-key-999' } }] } };

describe('conversations', () => {
  storeTest('stores state sealed, reads it back, and deletes it', async ({ stores }) => {
    const dataDir = stores.dir();
    const { store } = await stores.open(dataDir);
    expect(store.conversations.read('1:1')).toBeUndefined();
    await store.conversations.write('1:1', state);
    expect(readFileSync(shardPathOf(dataDir, 1), 'utf8')).not.toContain('SECRET-typed-key-999');
    expect(store.conversations.read('1:1')).toEqual(state);
    await store.conversations.delete('1:1');
    expect(store.conversations.read('1:1')).toBeUndefined();
    await store.conversations.write('1:1', state);
    await store.conversations.write('1:1', undefined);
    expect(shardOnDisk(dataDir, 1).conversations).toEqual({});
  });

  storeTest('reads state moved to another key, or altered, as empty', async ({ stores }) => {
    const dataDir = stores.dir();
    const { store } = await stores.open(dataDir);
    await store.conversations.write('1:1', state);
    await store.close();
    const sealed = shardOnDisk(dataDir, 1).conversations['1:1']!;
    editShard(dataDir, 2, (shard) => (shard.conversations['2:2'] = sealed));
    editShard(dataDir, 3, (shard) => (shard.conversations['3:3'] = `${sealed.slice(0, -2)}AA`));
    const again = (await stores.open(dataDir)).store;
    expect(again.conversations.read('1:1')).toEqual(state);
    expect(again.conversations.read('2:2')).toBeUndefined();
    expect(again.conversations.read('3:3')).toBeUndefined();
  });
});
