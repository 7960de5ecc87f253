import path from 'node:path';
import { expect } from 'vitest';
import { createClock, readJson, storeTest as it, testVault } from './helpers.ts';
import { balancesFileName } from '../../src/store/balances.ts';
import { balancesKeptPerUser } from '../../src/store/records/balances.ts';
import { restoreBackup, writeBackup } from '../../src/store/backup.ts';
import { hotFileName } from '../../src/store/store.ts';

const account = 'DEMO…LER';

it('records a balance only when it differs from the last one seen for the account, in its own file', async ({ stores }) => {
  const dir = stores.dir();
  const clock = createClock('2026-11-01T03:00:00.000Z');
  const { store, writes } = await stores.open(dir, { now: clock.now });
  const before = writes.length;

  expect(await store.balances.record(1, account, 500_000)).toBe(true);
  clock.advance(60_000);
  expect(await store.balances.record(1, account, 500_000)).toBe(false);
  clock.advance(60_000);
  expect(await store.balances.record(1, account, 489_500)).toBe(true);
  expect(await store.balances.record(2, 'OTHE…ACC', 100)).toBe(true);

  expect(store.balances.list(1)).toEqual([
    { at: '2026-11-01T03:00:00.000Z', balance: 500_000, account },
    { at: '2026-11-01T03:02:00.000Z', balance: 489_500, account },
  ]);
  // Another account of the same user starts its own run of values.
  expect(await store.balances.record(1, 'NEWA…CCT', 489_500)).toBe(true);
  // The hot file is never rewritten for a balance.
  expect(writes.slice(before).map((write) => path.basename(write.file))).not.toContain(hotFileName);
  expect(JSON.stringify(readJson(path.join(dir, hotFileName)))).not.toContain('489500');

  await store.close();
  const reopened = (await stores.open(dir, { now: clock.now })).store;
  expect(reopened.balances.list(1)).toHaveLength(3);
  expect(await reopened.balances.record(1, 'NEWA…CCT', 489_500)).toBe(false);
});

it('lists the movements of a period and keeps the last ones per user only', async ({ stores }) => {
  const clock = createClock('2026-11-01T00:00:00.000Z');
  const { store } = await stores.open(stores.dir(), { now: clock.now });
  for (let i = 0; i < balancesKeptPerUser + 20; i++) {
    clock.advance(3600_000);
    await store.balances.record(7, account, 1_000 + i);
  }
  const kept = store.balances.list(7);
  expect(kept).toHaveLength(balancesKeptPerUser);
  expect(kept[0]?.balance).toBe(1_020);
  expect(kept.at(-1)?.balance).toBe(1_000 + balancesKeptPerUser + 19);
  const day = store.balances.list(7, { from: new Date('2026-11-10T00:00:00.000Z'), to: new Date('2026-11-11T00:00:00.000Z') });
  expect(day).toHaveLength(24);
  expect(day.every((entry) => entry.at >= '2026-11-10' && entry.at < '2026-11-11')).toBe(true);
});

it('are kept in backups and come back with a restore', async ({ stores }) => {
  const dir = stores.dir();
  const { store } = await stores.open(dir);
  await store.balances.record(1, account, 250_000);
  await store.close();
  const file = path.join(stores.dir(), 'kiosbot-backup.json.gz');
  const backup = await writeBackup(dir, file);
  expect(backup.files.map((entry) => entry.name)).toContain(balancesFileName);
  const target = stores.dir();
  await restoreBackup(file, target, testVault());
  const restored = (await stores.open(target)).store;
  expect(restored.balances.list(1).map((entry) => entry.balance)).toEqual([250_000]);
});
