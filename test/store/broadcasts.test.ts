/**
 * A broadcast's end is committed by the hot file's write (with its final report); until the copy to
 * broadcasts.json lands, every status read already sees the job ended.
 */
import { afterEach, expect, it } from 'vitest';
import { createTestDisk } from '../helpers/disk.ts';
import { createTempDirs, openTestStore } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

const report = [{ chatId: 1, kind: 'broadcast-report', payload: { type: 'send' as const, text: 'Siaran selesai' } }];

it('a job whose end reached the hot file but not broadcasts.json reads as ended, its report queued once', async () => {
  const dataDir = dirs.make();
  const disk = createTestDisk({ spare: (file) => !file.endsWith('broadcasts.json') });
  const { store, db } = await openTestStore(dataDir, { writeFile: disk.write });
  await db.broadcasts.create({ id: 'B1', adminId: 1, fromChatId: 1, messageId: 5, audience: { kind: 'all' }, recipients: [10, 11] });
  await db.broadcasts.record('B1', 0, 'sent');

  disk.setFull(true);
  await expect(db.broadcasts.finish('B1', 'done', report)).rejects.toMatchObject({ code: 'ENOSPC' });
  expect(await db.broadcasts.running()).toBeUndefined();
  expect(await db.broadcasts.runningProgress()).toBeUndefined();
  expect(await db.broadcasts.progress('B1')).toMatchObject({ status: 'done', sent: 1 });
  expect(await db.broadcasts.get('B1')).toMatchObject({ status: 'done' });
  expect(await db.broadcasts.unreported()).toBeUndefined();
  // A second job may start: the first one ended.
  disk.setFull(false);
  await db.broadcasts.create({ id: 'B2', adminId: 1, fromChatId: 1, messageId: 6, audience: { kind: 'all' }, recipients: [10] });
  // A retry of the end queues no second report.
  expect(await db.broadcasts.finish('B1', 'done', report)).toMatchObject({ status: 'done' });
  expect((await db.outbox.list()).map((item) => item.kind)).toEqual(['broadcast-report']);
  await store.close();
});
