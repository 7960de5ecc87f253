/**
 * The store's file writes — whole files replaced atomically and durably, appends on disk when they
 * return — and the small file-system helpers of its files (modes, backups, leftovers of a crash).
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';

/** Mode of every data file: readable and writable by the owner only. */
export const fileMode = 0o600;
/** Mode of the data directories. */
export const dirMode = 0o700;

/**
 * Replaces `file` with `content` (temp file 0600, fsync, rename, directory fsync; with `backup`
 * the replaced version stays as `<file>.bak`), or with `append` adds it at the end of the existing
 * file, on disk before this resolves (a failed append may leave part of it: the appender cuts the
 * file back). Tests pass a wrapper that fails like a full disk: one writer for both, so appends fail too.
 */
export type AtomicWriter = (file: string, content: string | Buffer, options: { backup: boolean; append?: boolean }) => Promise<void>;

/** The real AtomicWriter. Replacing a file first lets go of its append handle, which would write to the version replaced. */
export const writeFileAtomic: AtomicWriter = async (file, content, options) => {
  if (options.append) return appendSynced(file, content);
  await releaseAppendHandle(file);
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
};

/** O_APPEND | O_DSYNC without O_CREAT: each write returns once on disk; a log that is gone is an error, never silently a new file. */
const appendFlags = fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_DSYNC;

/** Files appended to, each kept open between appends (one write call per append, not open, write, fdatasync, close). */
const appendHandles = new Map<string, Promise<fs.FileHandle>>();

/** Closes the handle kept for appends to `file`, if any (the file is closed or replaced). */
export async function releaseAppendHandle(file: string): Promise<void> {
  const held = appendHandles.get(file);
  appendHandles.delete(file);
  await held?.then((handle) => handle.close()).catch(noop);
}

async function appendSynced(file: string, content: string | Buffer): Promise<void> {
  let held = appendHandles.get(file);
  if (!held) {
    held = fs.open(file, appendFlags);
    appendHandles.set(file, held);
  }
  try {
    await (await held).writeFile(content);
  } catch (error) {
    // Opened afresh by the next append (the file may be gone, or its handle broken).
    if (appendHandles.get(file) === held) await releaseAppendHandle(file);
    throw error;
  }
}

/** Creates `dir` (and parents) 0700; an existing one keeps its mode (it may be shared, and every data file is 0600 anyway). */
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

/** Fsyncs a directory (a rename in it is durable after this); a platform that cannot is let be (the rename is still atomic). */
export async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms cannot fsync a directory.
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

/**
 * Passes a failed write's error on naming `file` (a failed write(2) — ENOSPC, EIO — names none, and
 * the operator needs to know which one it was).
 */
export function namingFile(file: string): (error: unknown) => never {
  return (error) => {
    if (typeof error === 'object' && error !== null && typeof (error as { path?: unknown }).path !== 'string')
      Object.assign(error, { path: file });
    throw error;
  };
}

/** Tells `onWrite` of a write completed now; an observer's bug must not turn it into a failed one. */
export function reportWrite(onWrite: ((event: WriteEvent) => void) | undefined, file: string, bytes: number, startedAt: number): void {
  try {
    onWrite?.({ file, bytes, startedAt, durationMs: performance.now() - startedAt });
  } catch {
    // Ignored, see above.
  }
}

/** What the store reports after each completed file write (for tests, metrics and benchmarks). */
export interface WriteEvent {
  file: string;
  bytes: number;
  /** `performance.now()` when serialisation started. */
  startedAt: number;
  /** From serialisation to the file being synced. */
  durationMs: number;
}

export function noop(): void {}
