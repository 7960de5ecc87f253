/**
 * A write that fails (disk full) must not leave memory ahead of the disk: the change is gone from
 * memory, every caller whose change was lost is told, and what is on disk stays the truth.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DurableFile } from '../../src/store/durable-file.ts';
import { createTestDisk, type TestDisk } from '../helpers/disk.ts';
import { createTempDirs, readJson } from './helpers.ts';

const listSchema = z.object({ version: z.literal(1), items: z.array(z.number()) });
type List = z.infer<typeof listSchema>;

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

function openList(file: string, disk?: TestDisk): Promise<DurableFile<List>> {
  return DurableFile.open<List>({
    path: file,
    decode: (raw) => ({ data: listSchema.parse(raw) }),
    defaultData: () => ({ version: 1, items: [] }),
    ...(disk ? { writeFile: disk.write } : {}),
  });
}

const onDisk = (file: string) => (readJson(file) as List).items;

/** Waits until the test disk holds `count` writes in flight. */
async function writesHeld(disk: TestDisk, count: number): Promise<void> {
  await disk.whenHeld(count);
  expect(disk.held()).toBe(count);
}

describe('DurableFile on a full disk', () => {
  it('rejects the caller of a failed write and leaves memory as it is on disk; later writes work again', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const disk = createTestDisk();
    const list = await openList(file, disk);
    await list.update((data) => data.items.push(1));

    disk.setFull(true);
    await expect(list.update((data) => data.items.push(2))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(list.data.items).toEqual([1]);
    expect(onDisk(file)).toEqual([1]);
    // A flush afterwards has nothing to write: the lost change is not retried behind the caller's back.
    await list.flush();
    expect(onDisk(file)).toEqual([1]);

    disk.setFull(false);
    await list.update((data) => data.items.push(3));
    expect(onDisk(file)).toEqual([1, 3]);
    expect((await openList(file)).data.items).toEqual([1, 3]);
  });

  it('rejects every change queued behind a failing write too, and none of them ever reaches the disk', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const disk = createTestDisk();
    const list = await openList(file, disk);
    await list.update((data) => data.items.push(1));

    disk.hold();
    const first = list.update((data) => data.items.push(2));
    await writesHeld(disk, 1);
    // Made while the first write runs: they belong to the next (coalesced) write.
    const second = list.update((data) => data.items.push(3));
    const third = list.update((data) => data.items.push(4));
    const flushed = list.flush();
    // Only the write in flight fails; the disk works again right after.
    disk.failNext(1);
    disk.release();

    const results = await Promise.allSettled([first, second, third, flushed]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(list.data.items).toEqual([1]);
    expect(onDisk(file)).toEqual([1]);
    expect(disk.failed).toHaveLength(1);

    await list.update((data) => data.items.push(5));
    expect(onDisk(file)).toEqual([1, 5]);
    expect((await openList(file)).data.items).toEqual([1, 5]);
  });

  it('restores the default data when the very first write of a new file fails', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const disk = createTestDisk();
    const list = await openList(file, disk);
    disk.setFull(true);
    await expect(list.update((data) => data.items.push(1))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(list.data.items).toEqual([]);
    disk.setFull(false);
    await list.update((data) => data.items.push(2));
    expect(onDisk(file)).toEqual([2]);
  });

  it('keeps a change made after the failure (on top of the restored data) for the next write', async () => {
    const file = path.join(dirs.make(), 'list.json');
    const disk = createTestDisk();
    const list = await openList(file, disk);
    disk.hold();
    const lost = list.update((data) => data.items.push(1));
    await writesHeld(disk, 1);
    disk.failNext(1);
    disk.release();
    await expect(lost).rejects.toMatchObject({ code: 'ENOSPC' });
    const kept = list.update((data) => data.items.push(2));
    await expect(kept).resolves.toBe(1);
    expect(onDisk(file)).toEqual([2]);
  });
});
