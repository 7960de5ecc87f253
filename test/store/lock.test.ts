import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreLockedError } from '../../src/store/errors.ts';
import { acquireDirLock, lockFileName } from '../../src/store/lock.ts';
import { createTempDirs, modeOf } from './helpers.ts';

const dirs = createTempDirs();
afterEach(() => dirs.cleanup());

describe('acquireDirLock', () => {
  it('creates the lock (0600) with our pid and deletes it on release', async () => {
    const dir = dirs.make();
    const lock = await acquireDirLock(dir);
    expect(readFileSync(lock.file, 'utf8')).toBe(`${process.pid}\n`);
    expect(modeOf(lock.file)).toBe(0o600);
    await expect(acquireDirLock(dir)).rejects.toThrow(StoreLockedError);
    await lock.release();
    await lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('refuses a lock held by another live process', async () => {
    const dir = dirs.make();
    writeFileSync(path.join(dir, lockFileName), `${process.ppid}\n`);
    const error = await acquireDirLock(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreLockedError);
    expect((error as StoreLockedError).pid).toBe(process.ppid);
  });

  it('takes over a lock whose process is gone, or that has no pid, or names us after a restart', async () => {
    for (const content of [`${spawnSync(process.execPath, ['-e', '0']).pid}\n`, '', `${process.pid}\n`]) {
      const dir = dirs.make();
      writeFileSync(path.join(dir, lockFileName), content);
      const lock = await acquireDirLock(dir);
      expect(readFileSync(lock.file, 'utf8')).toBe(`${process.pid}\n`);
      await lock.release();
    }
  });

  it('does not delete a lock another process took over meanwhile', async () => {
    const dir = dirs.make();
    const lock = await acquireDirLock(dir);
    writeFileSync(lock.file, `${process.ppid}\n`);
    await lock.release();
    expect(readFileSync(lock.file, 'utf8')).toBe(`${process.ppid}\n`);
  });
});
