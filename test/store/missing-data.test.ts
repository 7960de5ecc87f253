/**
 * A data directory with a piece missing never starts as if that piece had never existed: the hot
 * file gone (with its .bak) beside the users' files and the history, or a history month gone. The
 * operator is told what is missing and what starting without it loses; ACCEPT_MISSING_DATA=true
 * starts anyway, and says what was lost. A new, empty directory still starts empty.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreMissingError } from '../../src/store/errors.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import { createClock, createTempDirs, openTestStore, purchase, testVault } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

/** A data directory in use: a user, a month of settled history, a Pending purchase. Closed. */
async function usedDataDir(): Promise<string> {
  const dataDir = dirs.make();
  const clock = createClock('2026-10-20T08:00:00Z');
  const { store } = await openTestStore(dataDir, { now: clock.now });
  await store.users.upsert({ id: 42, firstName: 'Budi' });
  await store.credentials.save(42, 'reseller', { apiId: 'RS-1', apiKey: 'secret-key-1' });
  await store.transactions.create(purchase('ref-october', { status: 'Pending' }));
  await store.transactions.settle('ref-october', { status: 'Sukses', sn: 'SN-1' });
  clock.set('2026-11-02T08:00:00Z');
  await store.transactions.create(purchase('ref-november', { status: 'Pending' }));
  await store.transactions.settle('ref-november', { status: 'Sukses', sn: 'SN-2' });
  await store.transactions.create(purchase('ref-pending', { status: 'Pending' }));
  await store.close();
  return dataDir;
}

/** Every file under `dir` with its content, to show that a refused start changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => !name.endsWith('.lock'));
  return Object.fromEntries(
    files.filter((name) => !existsSync(path.join(dir, name, '.'))).map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]),
  );
}

const open = (dataDir: string, acceptMissingData?: boolean): Promise<Store> =>
  openStore({ dataDir, vault: testVault(), ...(acceptMissingData === undefined ? {} : { acceptMissingData }) });

describe('opening a data directory with a piece missing', () => {
  it('refuses to start without kiosbot.json and its .bak while users and history are there, naming what it would lose and the flag', async () => {
    const dataDir = await usedDataDir();
    rmSync(path.join(dataDir, 'kiosbot.json'));
    rmSync(path.join(dataDir, 'kiosbot.json.bak'));
    const before = snapshot(dataDir);

    const refused = await open(dataDir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreMissingError);
    const message = (refused as Error).message;
    expect(message).toContain('kiosbot.json is missing');
    expect(message).toMatch(/users' file/);
    expect(message).toContain('history of 2026-10, 2026-11');
    expect(message).toContain('every open purchase');
    expect(message).toContain('ACCEPT_MISSING_DATA=true');
    expect(snapshot(dataDir)).toEqual(before);
  });

  it('refuses to start when a month of history is gone, naming the month', async () => {
    const dataDir = await usedDataDir();
    rmSync(path.join(dataDir, 'history', '2026-10.jsonl'));
    const before = snapshot(dataDir);

    await expect(open(dataDir)).rejects.toThrow(
      /history\/2026-10\.jsonl is missing.*settled purchases of 2026-10.*ACCEPT_MISSING_DATA=true/,
    );
    expect(snapshot(dataDir)).toEqual(before);
  });

  it('notices a lost month in a data directory from before the month list, once it has been opened', async () => {
    const dataDir = await usedDataDir();
    const hotFile = path.join(dataDir, 'kiosbot.json');
    const hot = JSON.parse(readFileSync(hotFile, 'utf8')) as { meta: { historyMonths?: string[] } };
    delete hot.meta.historyMonths;
    writeFileSync(hotFile, JSON.stringify(hot));
    await (await open(dataDir)).close();
    rmSync(path.join(dataDir, 'history', '2026-11.jsonl'));
    await expect(open(dataDir)).rejects.toThrow(/2026-11\.jsonl is missing/);
  });

  it('with ACCEPT_MISSING_DATA starts, says what was lost, and the next start needs it no more', async () => {
    const dataDir = await usedDataDir();
    rmSync(path.join(dataDir, 'kiosbot.json'));
    rmSync(path.join(dataDir, 'kiosbot.json.bak'));
    const store = await open(dataDir, true);
    expect(store.lostData).toEqual([expect.stringMatching(/^kiosbot\.json: every open purchase/)]);
    // What the hot file held is gone; the users and the history are not.
    expect(store.transactions.get('ref-pending')).toBeUndefined();
    expect(store.credentials.load(42, 'reseller')).toEqual({ apiId: 'RS-1', apiKey: 'secret-key-1' });
    expect((await store.transactions.find('ref-october'))?.sn).toBe('SN-1');
    await store.close();

    rmSync(path.join(dataDir, 'history', '2026-10.jsonl'));
    const again = await open(dataDir, true);
    expect(again.lostData).toEqual([expect.stringMatching(/^history\/2026-10\.jsonl: the settled purchases of 2026-10/)]);
    await again.close();
    const plain = await open(dataDir);
    expect(plain.lostData).toEqual([]);
    await plain.close();
  });

  it('a new, empty data directory starts empty as always', async () => {
    const dataDir = dirs.make();
    const store = await open(dataDir);
    expect(store.lostData).toEqual([]);
    await store.close();
    const reopened = await open(dataDir);
    expect(reopened.lostData).toEqual([]);
    await reopened.close();
  });
});

describe('the bot started with ACCEPT_MISSING_DATA=true', () => {
  let world: TestWorld;
  afterEach(() => world.stop());

  it('logs as an error what it started without', async () => {
    world = await startWorld({ env: { ACCEPT_MISSING_DATA: 'true' } });
    await buyer(world);
    await world.restart(() => {
      rmSync(path.join(world.dataDir, 'kiosbot.json'));
      rmSync(path.join(world.dataDir, 'kiosbot.json.bak'), { force: true });
      return Promise.resolve();
    });
    const line = world.logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.level === 'error');
    expect(line?.msg ?? line?.message).toMatch(/started WITHOUT missing data/);
    expect(JSON.stringify(line)).toContain('every open purchase');
  });
});
