import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { HotData } from '../../src/store/schema.ts';
import { hotFileName } from '../../src/store/store.ts';
import { readJson, storeTest } from './helpers.ts';

/** Shaped like a conversations v2 state: a version and the updates replayed so far. */
const state = { version: [0, 1], state: { args: [], interrupts: [], replay: [{ message: { text: 'SECRET-typed-key-999' } }] } };

describe('conversations', () => {
  storeTest('stores state sealed, reads it back, and deletes it', async ({ stores }) => {
    const dataDir = stores.dir();
    const { store } = await stores.open(dataDir);
    expect(store.conversations.read('1:1')).toBeUndefined();
    await store.conversations.write('1:1', state);
    expect(readFileSync(path.join(dataDir, hotFileName), 'utf8')).not.toContain('SECRET-typed-key-999');
    expect(store.conversations.read('1:1')).toEqual(state);
    await store.conversations.delete('1:1');
    expect(store.conversations.read('1:1')).toBeUndefined();
    await store.conversations.write('1:1', state);
    await store.conversations.write('1:1', undefined);
    expect((readJson(path.join(dataDir, hotFileName)) as HotData).conversations).toEqual({});
  });

  storeTest('reads state moved to another key, or altered, as empty', async ({ stores }) => {
    const dataDir = stores.dir();
    const { store } = await stores.open(dataDir);
    await store.conversations.write('1:1', state);
    await store.close();
    const file = path.join(dataDir, hotFileName);
    const hot = readJson(file) as HotData;
    hot.conversations['2:2'] = hot.conversations['1:1']!;
    hot.conversations['3:3'] = `${hot.conversations['1:1']!.slice(0, -2)}AA`;
    writeFileSync(file, JSON.stringify(hot));
    const again = (await stores.open(dataDir)).store;
    expect(again.conversations.read('1:1')).toEqual(state);
    expect(again.conversations.read('2:2')).toBeUndefined();
    expect(again.conversations.read('3:3')).toBeUndefined();
  });
});
