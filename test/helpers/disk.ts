/**
 * A disk the test controls, plugged into the store as its file writer (`StoreOptions.writeFile`,
 * `AppOptions.storeWriteFile`): it can be full (every write fails with ENOSPC, as a real full disk
 * does), fail the next few writes only, or hold writes in flight until the test releases them.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, promises as fs, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileMode, writeFileAtomic, type AtomicWriter } from '../../src/store/durable-file.ts';

export interface TestDisk {
  /** The writer to give the store. */
  write: AtomicWriter;
  /** While full, every write fails with ENOSPC. */
  setFull(full: boolean): void;
  /** While read-only (a remount, or the kernel after disk errors), every write fails with EROFS. */
  setReadOnly(readOnly: boolean): void;
  /** The next `count` writes fail with ENOSPC, then the disk works again. */
  failNext(count: number): void;
  /** From now on writes wait (in flight) until `release`. */
  hold(): void;
  /** Lets the held writes go on (and stops holding new ones). */
  release(): void;
  /** How many writes are held right now. */
  held(): number;
  /**
   * Resolves once `count` writes are held (told by the writes themselves, however slowly the
   * machine gets there); rejects after `timeoutMs` of real time.
   */
  whenHeld(count: number, timeoutMs?: number): Promise<void>;
  /** Files whose write failed, in order. */
  readonly failed: string[];
}

/**
 * A history appender for tests that fail some appends (`HistoryOptions.appendFile`): opens,
 * writes (O_APPEND), fdatasyncs and closes the file per call, so it holds no file open.
 */
export async function appendDurably(file: string, bytes: Buffer): Promise<void> {
  const handle = await fs.open(file, 'a', fileMode);
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** The error Node gives when the file system is mounted read-only. */
export function erofs(file: string): NodeJS.ErrnoException {
  // Where the atomic writer opens its temp file (writeFileAtomic), the first thing a write does.
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  return Object.assign(new Error(`EROFS: read-only file system, open '${temp}'`), {
    code: 'EROFS',
    errno: -30,
    syscall: 'open',
    path: temp,
  });
}

/** The error Node gives when the disk is full. */
export function enospc(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

/**
 * A test disk; `spare` names files it never fails or holds (a disk that fills up between two
 * writes, say the update inbox's and the confirmation's).
 */
export function createTestDisk(options: { spare?: (file: string) => boolean } = {}): TestDisk {
  let full = false;
  let readOnly = false;
  let failures = 0;
  let holding = false;
  const waiting: Array<() => void> = [];
  const watchers = new Set<() => void>();
  const failed: string[] = [];
  return {
    async write(file, content, writeOptions) {
      if (options.spare?.(file)) return writeFileAtomic(file, content, writeOptions);
      if (holding) {
        const held = new Promise<void>((resolve) => waiting.push(resolve));
        for (const watcher of watchers) watcher();
        await held;
      }
      if (readOnly) {
        failed.push(file);
        throw erofs(file);
      }
      if (full || failures > 0) {
        if (failures > 0) failures -= 1;
        failed.push(file);
        throw enospc(file);
      }
      await writeFileAtomic(file, content, writeOptions);
    },
    setFull: (value) => void (full = value),
    setReadOnly: (value) => void (readOnly = value),
    failNext: (count) => void (failures = count),
    hold: () => void (holding = true),
    release() {
      holding = false;
      for (const resume of waiting.splice(0)) resume();
    },
    held: () => waiting.length,
    whenHeld(count, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (waiting.length < count) return;
          watchers.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`${waiting.length} writes held after ${timeoutMs} ms, not ${count}`));
        }, timeoutMs);
        watchers.add(check);
        check();
      });
    },
    failed,
  };
}

/** A real, tiny tmpfs mounted for one test, or why there is none. */
export type TinyDisk = { dir: string; fill(): void; unfill(): void; unmount(): void } | { reason: string };

/**
 * Mounts a `size`-byte tmpfs on a fresh directory (needs root, or CAP_SYS_ADMIN, on Linux).
 * `fill()` takes all its free space with a filler file, so the next write fails with a real
 * ENOSPC, and keeps taking what is freed (every 2 ms) until `unfill()` frees it again: a write
 * that fails removes its partial file, and a replaced file frees its old copy, so a disk filled
 * once has room again moments later (a loaded CI run's bot recorded its progress in that room).
 */
export function mountTinyTmpfs(size = 64 * 1024): TinyDisk {
  if (process.platform !== 'linux') return { reason: `tmpfs needs Linux (this is ${process.platform})` };
  const dir = mkdtempSync(path.join(tmpdir(), 'kiosbot-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { reason: `cannot mount a tmpfs (${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()})` };
  }
  const filler = path.join(dir, 'filler');
  const chunk = Buffer.alloc(4096, 1);
  const topUp = () => {
    const fd = openSync(filler, 'a');
    try {
      for (;;) writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      closeSync(fd);
    }
  };
  let keeper: NodeJS.Timeout | undefined;
  const stopKeeping = () => {
    clearInterval(keeper);
    keeper = undefined;
  };
  return {
    dir,
    fill() {
      topUp();
      keeper ??= setInterval(topUp, 2);
      keeper.unref();
    },
    unfill() {
      stopKeeping();
      rmSync(filler, { force: true });
    },
    unmount() {
      stopKeeping();
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
