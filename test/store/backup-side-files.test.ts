/**
 * A backup holds every file the bot keeps, not only the hot file and history: a broadcast stopped
 * by a restore resumes where it stopped, and the watched price lists need no new baseline.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { storeTest as it, testVault } from './helpers.ts';
import { restoreBackup, writeBackup } from '../../src/store/backup.ts';
import { broadcastsFileName } from '../../src/store/broadcasts.ts';
import { priceWatchFileName } from '../../src/store/price-watch.ts';

it('carries the broadcast job (with what was already sent) and the price-watch copies through a restore', async ({ stores }) => {
  const dir = stores.dir();
  const { store } = await stores.open(dir);
  const recipients = [11, 12, 13];
  await store.broadcasts.create({ id: 'job1', adminId: 1, fromChatId: 1, messageId: 5, audience: { kind: 'all' }, recipients });
  await store.broadcasts.record('job1', 0, 'sent');
  const snapshot = {
    at: '2026-11-23T01:00:00.000Z',
    products: [{ code: 'TSEL10', name: 'Telkomsel 10.000', price: 10_450, status: 'active' }],
  };
  await store.priceWatch.save('acc1', snapshot);
  await store.close();

  const file = path.join(stores.dir(), 'kiosbot-backup.json.gz');
  const backup = await writeBackup(dir, file);
  expect(backup.files.map((entry) => entry.name)).toEqual(expect.arrayContaining([broadcastsFileName, priceWatchFileName]));
  const target = stores.dir();
  await restoreBackup(file, target, testVault());
  const restored = (await stores.open(target)).store;
  expect(restored.broadcasts.running()?.id).toBe('job1');
  expect(restored.broadcasts.isDone('job1', 0)).toBe(true);
  expect(restored.broadcasts.isDone('job1', 1)).toBe(false);
  expect(restored.priceWatch.get('acc1')).toEqual(snapshot);
});
