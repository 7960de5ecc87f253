import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Low, type Adapter } from 'lowdb';
import { StoreCorruptError, StoreError, StoreVersionError } from './errors.ts';

/** Mode of every data file: readable and writable by the owner only. */
export const fileMode = 0o600;
/** Mode of the data directories. */
export const dirMode = 0o700;

/** What the adapter reports after each completed file write (for tests, metrics and benchmarks). */
export interface WriteEvent {
  file: string;
  bytes: number;
  /** `performance.now()` when serialisation started. */
  startedAt: number;
  /** From serialisation to the renamed file being synced. */
  durationMs: number;
}

/** Result of decoding a file's JSON: the typed data, and the data version it was upgraded from, if any. */
export interface Decoded<T> {
  data: T;
  migratedFrom?: number;
}

export interface DurableFileOptions<T> {
  /** Absolute or relative path of the JSON file. Its directory is created (0700) if missing. */
  path: string;
  /**
   * Validates what was read, upgrading older formats first. Throw StoreVersionError for a newer
   * format; any other error marks the file corrupt.
   */
  decode: (raw: unknown, file: string) => Decoded<T>;
  /** Data used when the file does not exist yet. */
  defaultData: () => T;
  /** Called after every completed write. */
  onWrite?: (event: WriteEvent) => void;
}

/**
 * lowdb adapter for one JSON file. Reading: a missing file gives null (lowdb keeps the default
 * data); a file that is not JSON or fails `decode` throws StoreCorruptError and the adapter then
 * refuses every write, so the broken file stays exactly as it was. Writing is atomic: a temp
 * file (0600) in the same directory is written and fsynced, the previous version is kept as
 * `<file>.bak` (a hard link, no copy), the temp file is renamed over the target and the directory
 * is fsynced. The JSON text is produced synchronously when `write` is called, so changes made
 * while the disk work runs are not part of this write.
 */
export class AtomicJsonAdapter<T> implements Adapter<T> {
  /** Set by `read` when the file was in an older format and has been upgraded in memory. */
  migratedFrom: number | undefined;
  /** The bytes last read, kept only when the file was upgraded (for a pre-migration backup). */
  originalBytes: Buffer | undefined;
  /** Whether the file existed at the last read. */
  existed = false;
  private unreadable = false;
  private readonly options: DurableFileOptions<T>;

  constructor(options: DurableFileOptions<T>) {
    this.options = options;
  }

  async read(): Promise<T | null> {
    const file = this.options.path;
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(file);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
      const backup = `${file}.bak`;
      if (await exists(backup)) {
        this.unreadable = true;
        throw new StoreCorruptError(
          file,
          'the file is missing, but its backup is there',
          `If it was lost by accident, stop kiosbot and restore the previous version: cp "${backup}" "${file}". ` +
            `To really start with this file empty, delete "${backup}". Then start kiosbot again.`,
        );
      }
      this.existed = false;
      return null;
    }
    this.existed = true;
    let raw: unknown;
    try {
      if (bytes.length === 0) throw new Error('the file is empty');
      raw = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw await this.corrupt(jsonProblem(error));
    }
    try {
      const decoded = this.options.decode(raw, file);
      this.migratedFrom = decoded.migratedFrom;
      this.originalBytes = decoded.migratedFrom === undefined ? undefined : bytes;
      return decoded.data;
    } catch (error) {
      if (error instanceof StoreVersionError) {
        this.unreadable = true;
        throw error;
      }
      throw await this.corrupt(schemaProblem(error));
    }
  }

  async write(data: T): Promise<void> {
    const file = this.options.path;
    if (this.unreadable) throw new StoreError('corrupt', `Refusing to overwrite ${file}: it could not be read.`);
    const startedAt = performance.now();
    const text = JSON.stringify(data);
    await writeFileAtomic(file, text, { backup: true });
    try {
      this.options.onWrite?.({ file, bytes: Buffer.byteLength(text), startedAt, durationMs: performance.now() - startedAt });
    } catch {
      // An observer's bug must not turn a completed write into a failed one.
    }
  }

  private async corrupt(reason: string): Promise<StoreCorruptError> {
    this.unreadable = true;
    const file = this.options.path;
    const backup = `${file}.bak`;
    const hasBackup = await exists(backup);
    const moveAway = hasBackup
      ? `move both away (mv "${file}" "${file}.broken"; mv "${backup}" "${backup}.broken"); kiosbot then starts with that file empty`
      : `move the broken file away (mv "${file}" "${file}.broken"); kiosbot then starts with that file empty`;
    const advice = hasBackup
      ? `Stop kiosbot, then either restore the previous version (one write older): cp "${backup}" "${file}", or ${moveAway}. Then start kiosbot again.`
      : `Stop kiosbot, then restore the file from your backups, or ${moveAway}. Then start kiosbot again.`;
    return new StoreCorruptError(file, reason, advice);
  }
}

/**
 * One JSON file held in memory and written back durably. `update` changes `data` synchronously
 * and resolves once that change is on disk. Writes are coalesced and serialised: at most one
 * write runs at a time; everything changed while it runs goes into the next single write, and all
 * their callers resolve together when that write is done. Changes made in the same synchronous
 * run always land in the same write (so they are atomic together).
 */
export class DurableFile<T> {
  readonly path: string;
  /** Data version the file was upgraded from when opened, if it was. */
  readonly migratedFrom: number | undefined;
  /** Whether the file existed when opened. */
  readonly existed: boolean;
  private readonly low: Low<T>;
  private dirty = false;
  private closed = false;
  private inFlight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  private constructor(low: Low<T>, filePath: string, adapter: AtomicJsonAdapter<T>) {
    this.low = low;
    this.path = filePath;
    this.migratedFrom = adapter.migratedFrom;
    this.existed = adapter.existed;
  }

  /**
   * Opens (reads and validates) the file. Throws StoreCorruptError or StoreVersionError without
   * touching the file. A file upgraded from an older format is first copied to
   * `<file>.v<old>.bak`, then written in the new format.
   */
  static async open<T>(options: DurableFileOptions<T>): Promise<DurableFile<T>> {
    const dir = path.dirname(options.path);
    await ensureDir(dir);
    await removeStaleTemps(options.path);
    const adapter = new AtomicJsonAdapter(options);
    const low = new Low<T>(adapter, options.defaultData());
    await low.read();
    const file = new DurableFile(low, options.path, adapter);
    if (adapter.existed) await tightenMode(options.path, fileMode);
    if (adapter.migratedFrom !== undefined && adapter.originalBytes) {
      await writeFileAtomic(`${options.path}.v${adapter.migratedFrom}.bak`, adapter.originalBytes, { backup: false });
      adapter.originalBytes = undefined;
      file.dirty = true;
      await file.flush();
    }
    return file;
  }

  /** The in-memory data. Change it only inside `update`. */
  get data(): T {
    return this.low.data;
  }

  /**
   * Runs `mutator` on the data right away (synchronously), then resolves with its result once the
   * change is on disk. The mutator must be synchronous and must validate before it changes
   * anything: if it throws, nothing is written and the error is passed on.
   */
  update<R>(mutator: (data: T) => R): Promise<R> {
    if (this.closed) return Promise.reject(new StoreError('closed', `${this.path} is closed; no more changes are accepted.`));
    let result: R;
    try {
      result = mutator(this.low.data);
    } catch (error) {
      return Promise.reject(error);
    }
    this.dirty = true;
    if (isThenable(result)) {
      return Promise.reject(new TypeError('DurableFile.update: the mutator must be synchronous (it returned a promise).'));
    }
    return this.flush().then(() => result);
  }

  /** Resolves when every change made so far is on disk. */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.dirty) return this.inFlight ?? Promise.resolve();
    const previous = this.inFlight ?? Promise.resolve();
    const run: Promise<void> = previous.then(noop, noop).then(() => this.writeNow(run));
    this.queued = run;
    return run;
  }

  /** Flushes, then refuses further changes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private async writeNow(run: Promise<void>): Promise<void> {
    // From here on, new changes belong to the next write.
    this.queued = undefined;
    this.inFlight = run;
    this.dirty = false;
    try {
      await this.low.write();
    } catch (error) {
      this.dirty = true;
      throw error;
    } finally {
      if (this.inFlight === run) this.inFlight = undefined;
    }
  }
}

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

async function tightenMode(target: string, mode: number): Promise<void> {
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

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

async function syncDir(dir: string): Promise<void> {
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
async function removeStaleTemps(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.filter((name) => name.startsWith(prefix) && name.endsWith('.tmp')).map((name) => fs.rm(path.join(dir, name), { force: true })),
  );
}

function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message === 'the file is empty') return message;
  // V8's message may quote a piece of the file; report only where parsing failed.
  const position = /position (\d+)/.exec(message)?.[1];
  return position === undefined ? 'it is not valid JSON' : `it is not valid JSON (error at byte ${position})`;
}

function schemaProblem(error: unknown): string {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues)) {
    const listed = issues.slice(0, 3).map((issue: { path?: PropertyKey[]; message?: string }) => {
      const where = issue.path && issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
      return `${where}: ${issue.message ?? 'invalid'}`;
    });
    const more = issues.length > 3 ? ` and ${issues.length - 3} more` : '';
    return `it does not have the expected format (${listed.join('; ')}${more})`;
  }
  return `it does not have the expected format (${error instanceof Error ? error.message : String(error)})`;
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function noop(): void {}
