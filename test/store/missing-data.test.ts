/**
 * A data directory with a piece missing never starts as if that piece had never existed: the hot
 * file gone (with its .bak) beside the users' files and the history, a history month, a users'
 * shard file or a side file (inbox, balances, broadcasts, price watch) the hot file lists gone, or
 * a data file that cannot be read. The operator is told what is missing and what starting without
 * it loses; ACCEPT_MISSING_DATA=true starts anyway, and says what was lost. A new, empty directory
 * still starts empty.
 */
import { existsSync, mkdirSync, promises as fs, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreCorruptError, StoreMissingError } from '../../src/store/errors.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { readInboxLog } from '../../src/store/inbox-log.ts';
import { startWorld, type TestWorld } from '../helpers/app.ts';
import { buyer } from '../helpers/buy.ts';
import { shardOfUser, userShardFileName } from '../../src/store/user-shards.ts';
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
  // Another user in another shard, and every side file.
  await store.users.upsert({ id: 7, firstName: 'Sari' });
  await store.balances.record(42, 'RS-1', 500_000);
  await store.broadcasts.create({ id: 'job1', adminId: 1, fromChatId: 1, messageId: 5, audience: { kind: 'all' }, recipients: [42, 7] });
  await store.priceWatch.save('acc1', { at: '2026-11-02T08:00:00.000Z', products: [] });
  await store.inbox.add([{ update_id: 900, message: tapMessage }]);
  await store.close();
  return dataDir;
}

/** A private message (an update the inbox keeps). */
const tapMessage = {
  message_id: 1,
  date: 0,
  chat: { id: 42, type: 'private' as const, first_name: 'Budi' },
  from: { id: 42, is_bot: false, first_name: 'Budi' },
  text: 'TSEL10.081234567890',
};

/** Removes `name` (relative to the data directory) and its `.bak`, as a lost file with no copy. */
function lose(dataDir: string, name: string): void {
  rmSync(path.join(dataDir, name), { force: true });
  rmSync(path.join(dataDir, `${name}.bak`), { force: true });
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

/** A start without ACCEPT_MISSING_DATA finds nothing missing (after an accepted loss: it needs the flag no more). */
async function expectNothingLost(dataDir: string): Promise<void> {
  const plain = await open(dataDir);
  expect(plain.lostData).toEqual([]);
  await plain.close();
}

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
    await expectNothingLost(dataDir);
  });

  it("refuses to start when a user's shard file is gone (with its .bak), naming it and what it held", async () => {
    const dataDir = await usedDataDir();
    lose(dataDir, 'users/042.json');
    const before = snapshot(dataDir);

    const refused = await open(dataDir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreMissingError);
    const message = (refused as Error).message;
    expect(message).toContain('users/042.json is missing');
    expect(message).toMatch(/connected provider accounts/);
    expect(message).toContain('ACCEPT_MISSING_DATA=true');
    expect(snapshot(dataDir)).toEqual(before);
  });

  it('refuses to start when the update inbox is gone: the updates it held may not have been handled', async () => {
    const dataDir = await usedDataDir();
    lose(dataDir, 'inbox.jsonl');
    await expect(open(dataDir)).rejects.toThrow(/inbox\.jsonl is missing.*not have been handled.*ACCEPT_MISSING_DATA=true/);
  });

  it('a data directory from before the inbox log starts: its inbox.json becomes the log, and losing the log then refuses the start', async () => {
    const dataDir = await usedDataDir();
    // As kiosbot before the log left it: the inbox in inbox.json, and kiosbot.json listing that name.
    const log = (await readInboxLog(path.join(dataDir, 'inbox.jsonl')))?.entries;
    writeFileSync(path.join(dataDir, 'inbox.json'), JSON.stringify({ version: 1, entries: [...(log?.values() ?? [])] }));
    rmSync(path.join(dataDir, 'inbox.jsonl'));
    const hotFile = path.join(dataDir, 'kiosbot.json');
    const hot = JSON.parse(readFileSync(hotFile, 'utf8')) as { sum?: string; meta: { sideFiles: string[] } };
    delete hot.sum;
    hot.meta.sideFiles = hot.meta.sideFiles.map((name) => (name === 'inbox.jsonl' ? 'inbox.json' : name));
    writeFileSync(hotFile, JSON.stringify(hot));

    const store = await open(dataDir);
    expect(store.inbox.pendingIds()).toEqual([900]);
    await store.close();
    expect(existsSync(path.join(dataDir, 'inbox.json'))).toBe(false);
    lose(dataDir, 'inbox.jsonl');
    await expect(open(dataDir)).rejects.toThrow(/inbox\.jsonl is missing.*not have been handled/);
  });

  it.each([
    ['balances.json', /balances/],
    ['broadcasts.json', /broadcast/],
    ['price-watch.json', /price list/],
  ])('refuses to start when %s is gone', async (name, loses) => {
    const dataDir = await usedDataDir();
    lose(dataDir, name);
    const before = snapshot(dataDir);
    const refused = await open(dataDir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreMissingError);
    expect((refused as Error).message).toContain(`${name} is missing`);
    expect((refused as Error).message).toMatch(loses);
    expect(snapshot(dataDir)).toEqual(before);
  });

  it('names every missing file at once', async () => {
    const dataDir = await usedDataDir();
    lose(dataDir, 'users/007.json');
    lose(dataDir, 'balances.json');
    await expect(open(dataDir)).rejects.toThrow(
      /users\/007\.json, balances\.json are missing.*users\/007\.json: the users.*; balances\.json: the provider balances/,
    );
  });

  it('notices a shard created while the bot ran and lost before the next start', async () => {
    const dataDir = await usedDataDir();
    const store = await open(dataDir);
    await store.users.upsert({ id: 300, firstName: 'Joko' });
    await store.close();
    lose(dataDir, 'users/044.json');
    await expect(open(dataDir)).rejects.toThrow(/users\/044\.json is missing/);
  });

  it('with ACCEPT_MISSING_DATA starts without a lost shard and side file, says so, and the next start needs it no more', async () => {
    const dataDir = await usedDataDir();
    lose(dataDir, 'users/042.json');
    lose(dataDir, 'inbox.jsonl');
    const store = await open(dataDir, true);
    expect(store.lostData).toEqual([expect.stringMatching(/^users\/042\.json: /), expect.stringMatching(/^inbox\.jsonl: /)]);
    expect(store.users.get(42)).toBeUndefined();
    expect(store.users.get(7)?.firstName).toBe('Sari');
    await store.close();
    await expectNothingLost(dataDir);
  });

  it('a data directory from before the record of its files records them at its first start, and notices a loss after', async () => {
    const dataDir = await usedDataDir();
    const hotFile = path.join(dataDir, 'kiosbot.json');
    const hot = JSON.parse(readFileSync(hotFile, 'utf8')) as { meta: Record<string, unknown> };
    delete hot.meta.userShards;
    delete hot.meta.sideFiles;
    writeFileSync(hotFile, JSON.stringify(hot));
    await (await open(dataDir)).close();
    lose(dataDir, 'broadcasts.json');
    await expect(open(dataDir)).rejects.toThrow(/broadcasts\.json is missing/);
  });

  it('a data file that cannot be read (not JSON) stops the start, naming the file', async () => {
    const dataDir = await usedDataDir();
    writeFileSync(path.join(dataDir, 'balances.json'), '{"version":1,');
    await expect(open(dataDir)).rejects.toThrow(/balances\.json is unreadable: it is not valid JSON/);
  });

  it('a data file the process may not read stops the start, naming the file, the errno and what to do', async () => {
    const dataDir = await usedDataDir();
    const shard = path.join(dataDir, 'users', '042.json');
    const readFile = fs.readFile.bind(fs);
    const denied = vi.spyOn(fs, 'readFile').mockImplementation((file, ...rest) => {
      if (file === shard) return Promise.reject(Object.assign(new Error(`EACCES: permission denied, open '${shard}'`), { code: 'EACCES' }));
      return readFile(file, ...(rest as []));
    });
    try {
      const refused = await open(dataDir).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StoreCorruptError);
      expect((refused as Error).message).toMatch(/users\/042\.json is unreadable: it cannot be read \(EACCES\).*permission/);
    } finally {
      denied.mockRestore();
    }
  });

  it('a directory where a data file belongs stops the start, naming it', async () => {
    const dataDir = await usedDataDir();
    lose(dataDir, 'price-watch.json');
    mkdirSync(path.join(dataDir, 'price-watch.json'));
    await expect(open(dataDir)).rejects.toThrow(/price-watch\.json is unreadable: it cannot be read \(EISDIR\)/);
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

  it("logs a lost user's file and update inbox by name, and the user starts over", async () => {
    world = await startWorld({ env: { ACCEPT_MISSING_DATA: 'true' } });
    const budi = await buyer(world);
    const shard = userShardFileName(shardOfUser(budi.id));
    await world.restart(() => {
      for (const name of [shard, 'inbox.jsonl']) {
        rmSync(path.join(world.dataDir, name));
        rmSync(path.join(world.dataDir, `${name}.bak`), { force: true });
      }
      return Promise.resolve();
    });
    const line = world.logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.level === 'error');
    expect(line?.msg ?? line?.message).toMatch(/started WITHOUT missing data/);
    expect(line?.lost).toEqual([
      expect.stringMatching(new RegExp(`^${shard}: the users`)),
      expect.stringMatching(/^inbox\.jsonl: the updates/),
    ]);
    expect(await world.app.db.credentials.has(budi.id, 'reseller')).toBe(false);
  });
});
