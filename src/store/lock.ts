import { promises as fs } from 'node:fs';
import path from 'node:path';
import { StoreLockedError } from './errors.ts';
import { fileMode } from './durable-file.ts';

/** Name of the lock file inside the data directory. */
export const lockFileName = 'kiosbot.lock';

/** Lock files this process holds, so a lock naming our own pid is told apart from a stale one. */
const heldHere = new Set<string>();

/** A held data-directory lock. */
export interface DirLock {
  readonly file: string;
  /** Deletes the lock file (if it is still ours). Safe to call twice. */
  release(): Promise<void>;
}

/**
 * Takes the data directory's lock: creates `kiosbot.lock` exclusively (O_EXCL) with our pid.
 * A lock left by a process that no longer runs is taken over; a lock held by a live process (or
 * by another store in this process) fails with StoreLockedError.
 */
export async function acquireDirLock(dataDir: string): Promise<DirLock> {
  const file = path.resolve(dataDir, lockFileName);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await fs.writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: fileMode });
      heldHere.add(file);
      return createHandle(file);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
    const holder = await readHolder(file);
    if (holder === 'gone') continue;
    if (holder !== undefined && isAlive(holder)) {
      if (holder !== process.pid || heldHere.has(file)) throw new StoreLockedError(file, holder, path.dirname(file));
    }
    // Stale: its process is gone (or the file never got a pid). Remove it and try again.
    await fs.rm(file, { force: true });
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing. Is another kiosbot starting at the same time?`);
}

function createHandle(file: string): DirLock {
  let released = false;
  return {
    file,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      const holder = await readHolder(file);
      if (holder === process.pid) await fs.rm(file, { force: true });
    },
  };
}

/** The pid in the lock file; undefined if it has none (retried briefly: its writer may be mid-write). */
async function readHolder(file: string): Promise<number | 'gone' | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return 'gone';
      throw error;
    }
    const match = /^\s*(\d+)\s*$/.exec(text);
    if (match?.[1]) return Number(match[1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to someone else). */
function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
