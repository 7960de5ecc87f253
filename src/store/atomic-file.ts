/**
 * Whole-file writes that are atomic and durable (temp file, fsync, rename, directory fsync), and
 * the small file-system helpers of the store's files (modes, backups, leftovers of a crash).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Mode of every data file: readable and writable by the owner only. */
export const fileMode = 0o600;
/** Mode of the data directories. */
export const dirMode = 0o700;

/**
 * Writes `content` to `file` atomically and durably (temp file 0600 + fsync + rename + directory
 * fsync). With `backup`, the replaced version stays reachable as `<file>.bak`.
 */
export async function writeFileAtomic(file: string, content: string | Buffer, options: { backup: boolean }): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', fileMode);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.backup) await linkBackup(file);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(noop);
    throw error;
  }
  await syncDir(dir);
}

/**
 * Creates `dir` (and missing parents) with mode 0700. An existing directory keeps its mode: it
 * may be shared with other things, and every data file in it is 0600 anyway.
 */
export async function ensureDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: dirMode });
}

export async function tightenMode(target: string, mode: number): Promise<void> {
  try {
    const stat = await fs.stat(target);
    if ((stat.mode & 0o777) !== mode) await fs.chmod(target, mode);
  } catch {
    // Not ours to change (or a platform without modes): leave it as it is.
  }
}

/** Makes `<file>.bak` the current version (a hard link, then an atomic rename over the old backup). */
async function linkBackup(file: string): Promise<void> {
  const backup = `${file}.bak`;
  const temp = `${path.join(path.dirname(file), `.${path.basename(backup)}`)}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.link(file, temp);
    await fs.rename(temp, backup);
  } catch {
    // No current version yet, or a filesystem without hard links: the write goes on, the old backup stays.
    await fs.rm(temp, { force: true }).catch(noop);
  }
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Fsyncs a directory (a rename in it is durable after this); a platform that cannot is let be. */
export async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close().catch(noop);
  }
}

/** Temp files left by a crash in the middle of a write; safe to delete because we own the directory. */
export async function removeStaleTemps(file: string, listing?: ReadonlySet<string>): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  const names = listing ? [...listing] : await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.filter((name) => name.startsWith(prefix) && name.endsWith('.tmp')).map((name) => fs.rm(path.join(dir, name), { force: true })),
  );
}

export function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

export function noop(): void {}
