import { promises as fs } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { Low, type Adapter } from 'lowdb';
import { StoreCorruptError, StoreError, StoreVersionError, unreadableFileError } from './errors.ts';
import {
  ensureDir,
  exists,
  fileMode,
  isErrno,
  noop,
  removeStaleTemps,
  tightenMode,
  writeFileAtomic as replaceFileAtomic,
} from './atomic-file.ts';

import { appendSynced, releaseAppendHandle } from './append-file.ts';

export { dirMode, ensureDir, fileMode, syncDir } from './atomic-file.ts';

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

/**
 * Writes a whole file atomically and durably, or with `append` adds `content` at the end of an
 * existing file and syncs it (the update inbox's log); `writeFileAtomic` is the real one. Tests
 * pass a wrapper that fails like a full disk (ENOSPC) to prove that a failed write loses nothing
 * silently: one writer for both, so that such a disk fails appends too.
 */
export type AtomicWriter = (file: string, content: string | Buffer, options: { backup: boolean; append?: boolean }) => Promise<void>;

/**
 * The store's writer (AtomicWriter): the whole file replaced atomically (temp file, fsync, rename,
 * directory fsync; with `backup` the version before kept as `<file>.bak`), or with `append` the
 * content appended to the file (which must exist: its name is durable already) and on disk
 * before this resolves. A failed append may have left part of its content at the end: the
 * appender cuts the file back (the inbox log does). Replacing a file lets go of its append handle
 * first, which would write to the version replaced.
 */
export const writeFileAtomic: AtomicWriter = async (file, content, options) => {
  if (!options.append) {
    await releaseAppendHandle(file);
    return replaceFileAtomic(file, content, options);
  }
  await appendSynced(file, content);
};

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
  /** The file writer; default `writeFileAtomic`. */
  writeFile?: AtomicWriter;
  /**
   * Checks the data just read before anything is written (e.g. that the encryption key fits it).
   * Throwing stops the open with that error; the file, its backup and any migration stay untouched.
   */
  verify?: (data: T) => void;
  /** The names in the file's directory, listed once for many files (the users' shards): it is not created, a file not listed is missing. */
  listing?: ReadonlySet<string>;
  /**
   * Turns on checksums (each write starts `{"sum":"<crc32>",…`): a file whose checksum holds is what was written from
   * validated data, decoded by this without the schema check; undefined (another version), or no or a wrong checksum: `decode`.
   */
  decodeChecked?: (raw: unknown, file: string) => Decoded<T> | undefined;
  /** With checksums: the JSON text written for the data; default JSON.stringify. */
  encode?: (data: T) => string;
  /** With checksums: whether a file whose checksum holds is parsed at its first `data` instead of at open (text decodeChecked takes as it is). */
  parseLater?: (json: string) => boolean;
}

/** CRC-32 of a text, as 8 hex digits. */
export const crcHex = (text: string) => crc32(text).toString(16).padStart(8, '0');

const sealPrefix = '{"sum":"';
/** Where the JSON resumes after `{"sum":"<8 hex>",`. */
const sealedBodyAt = sealPrefix.length + 10;

/** `json` (an object's text) with the checksum of that text as its first field. */
export function sealJson(json: string): string {
  if (!json.startsWith('{"')) return json;
  return `${sealPrefix}${crcHex(json)}",${json.slice(1)}`;
}

/** The JSON a sealed text (sealJson) carries if its checksum holds; undefined if it has none or it does not match. */
export function unsealJson(text: string): string | undefined {
  if (!text.startsWith(sealPrefix) || text.slice(sealedBodyAt - 2, sealedBodyAt) !== '",') return undefined;
  const json = `{${text.slice(sealedBodyAt)}`;
  return crcHex(json) === text.slice(sealPrefix.length, sealedBodyAt - 2) ? json : undefined;
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
  /** Whether the data read is still to be parsed (`parseLater`): it is `onDisk()`. */
  deferred = false;
  /** The JSON text on disk now (from the last read or successful write); undefined: no file yet. */
  private diskText: string | undefined;
  private unreadable = false;
  private readonly options: DurableFileOptions<T>;

  constructor(options: DurableFileOptions<T>) {
    this.options = options;
  }

  async read(): Promise<T | null> {
    const file = this.options.path;
    const listing = this.options.listing;
    let bytes: Buffer;
    try {
      if (listing && !listing.has(path.basename(file))) throw Object.assign(new Error(`${file} is not in the listing`), { code: 'ENOENT' });
      bytes = await fs.readFile(file);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) {
        this.unreadable = true;
        throw unreadableFileError(file, error);
      }
      const backup = `${file}.bak`;
      if (listing ? listing.has(path.basename(backup)) : await exists(backup)) {
        this.unreadable = true;
        throw new StoreCorruptError(
          file,
          'the file is missing, but its backup is there',
          `If it was lost by accident, stop kiosbot and restore the previous version: cp "${backup}" "${file}", then start kiosbot again. ` +
            `Starting with this file empty loses for good what it held (kiosbot.json holds the open purchases, queued notifications, ` +
            `linked groups and game orders); if that is really wanted, move "${backup}" away and start again ` +
            '(for kiosbot.json beside other data, once with ACCEPT_MISSING_DATA=true).',
        );
      }
      this.existed = false;
      return null;
    }
    this.existed = true;
    let parsed: { raw: unknown; checked: boolean };
    try {
      if (bytes.length === 0) throw new Error('the file is empty');
      const text = bytes.toString('utf8');
      this.diskText = text;
      const checked = this.options.parseLater ? unsealJson(text) : undefined;
      if (checked !== undefined && this.options.parseLater?.(checked)) {
        this.deferred = true;
        return null;
      }
      parsed = this.parse(text);
    } catch (error) {
      throw await this.corrupt(jsonProblem(error));
    }
    try {
      const decoded = this.decode(parsed);
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
    const json = (this.options.encode ?? JSON.stringify)(data);
    const text = this.options.decodeChecked ? sealJson(json) : json;
    await (this.options.writeFile ?? writeFileAtomic)(file, text, { backup: true }).catch((error: unknown) => {
      // A failed write(2) names no file (ENOSPC, EIO): the operator is told which one it was.
      if (typeof error === 'object' && error !== null && typeof (error as { path?: unknown }).path !== 'string') {
        Object.assign(error, { path: file });
      }
      throw error;
    });
    this.diskText = text;
    try {
      this.options.onWrite?.({ file, bytes: Buffer.byteLength(text), startedAt, durationMs: performance.now() - startedAt });
    } catch {
      // An observer's bug must not turn a completed write into a failed one.
    }
  }

  /**
   * A fresh copy of the data as it is on disk now (the default data if the file was never
   * written), decoded like a read. Used to undo changes whose write failed.
   */
  onDisk(): T {
    if (this.diskText === undefined) return this.options.defaultData();
    return this.decode(this.parse(this.diskText)).data;
  }

  /** The file's JSON value, and whether its checksum held (with checksums on). */
  private parse(text: string): { raw: unknown; checked: boolean } {
    const checked = this.options.decodeChecked ? unsealJson(text) : undefined;
    return { raw: JSON.parse(checked ?? text), checked: checked !== undefined };
  }

  private decode({ raw, checked }: { raw: unknown; checked: boolean }): Decoded<T> {
    const file = this.options.path;
    return (checked ? this.options.decodeChecked?.(raw, file) : undefined) ?? this.options.decode(raw, file);
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

/** The callers waiting for one file write: resolved together when it is on disk, or rejected together. */
export interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Every caller gets a promise derived from this one; a batch nobody waits for must not be an unhandled rejection.
  promise.catch(noop);
  return { promise, resolve, reject };
}

/**
 * One JSON file held in memory and written back durably. `update` changes `data` synchronously
 * and resolves once that change is on disk. Writes are coalesced and serialised: at most one
 * write runs at a time; everything changed while it runs goes into the next single write, and all
 * their callers resolve together when that write is done. Changes made in the same synchronous
 * run always land in the same write (so they are atomic together).
 *
 * Memory never stays ahead of the disk after a failure: when a write fails (disk full, I/O error)
 * the data goes back to exactly what the last successful write (or the read at open) put on disk,
 * and every caller whose change is thereby lost is rejected with the write's error: the callers of
 * the failed write, and those whose changes were waiting for the next write (they were made on
 * top of the lost ones). Nothing is retried behind a caller's back.
 */
export class DurableFile<T> {
  readonly path: string;
  /** Data version the file was upgraded from when opened, if it was. */
  readonly migratedFrom: number | undefined;
  /** Whether the file existed when opened. */
  readonly existed: boolean;
  private readonly low: Low<T>;
  private readonly adapter: AtomicJsonAdapter<T>;
  private closed = false;
  /** The write running now. */
  private writing: Batch | undefined;
  /** Changes made since `writing` started (or since the last write): the next write. */
  private pending: Batch | undefined;
  /** Whether `pending` holds a change that must be written at once (not only deferred ones). */
  private pendingNow = false;
  /** Starts the write of deferred changes when nothing else has written them first. */
  private deferTimer: NodeJS.Timeout | undefined;
  /** When `deferTimer` fires (performance.now()); a change deferred for less moves it earlier. */
  private deferDeadline = Infinity;

  private constructor(low: Low<T>, filePath: string, adapter: AtomicJsonAdapter<T>) {
    this.low = low;
    this.path = filePath;
    this.adapter = adapter;
    this.migratedFrom = adapter.migratedFrom;
    this.existed = adapter.existed;
  }

  /**
   * Opens (reads and validates) the file. Throws StoreCorruptError or StoreVersionError without
   * touching the file. `verify` (if given) then checks the decoded data; if it throws, the open
   * fails with that error and nothing is written. A file upgraded from an older format is then
   * copied to `<file>.v<old>.bak` and written in the new format.
   */
  static async open<T>(options: DurableFileOptions<T>): Promise<DurableFile<T>> {
    if (!options.listing) await ensureDir(path.dirname(options.path));
    await removeStaleTemps(options.path, options.listing);
    const adapter = new AtomicJsonAdapter(options);
    const low = new Low<T>(adapter, options.defaultData());
    await low.read();
    const file = new DurableFile(low, options.path, adapter);
    options.verify?.(file.data);
    if (adapter.existed) await tightenMode(options.path, fileMode);
    if (adapter.migratedFrom !== undefined && adapter.originalBytes) {
      await (options.writeFile ?? writeFileAtomic)(`${options.path}.v${adapter.migratedFrom}.bak`, adapter.originalBytes, {
        backup: false,
      });
      adapter.originalBytes = undefined;
      await file.join();
    }
    return file;
  }

  /** The in-memory data. Change it only inside `update`. */
  get data(): T {
    if (this.adapter.deferred) {
      this.adapter.deferred = false;
      this.low.data = this.adapter.onDisk();
    }
    return this.low.data;
  }

  /** Whether `data` was parsed (see `parseLater`). */
  get parsed(): boolean {
    return !this.adapter.deferred;
  }

  /**
   * Runs `mutator` on the data right away (synchronously), then resolves with its result once the
   * change is on disk. The mutator must be synchronous and must validate before it changes
   * anything: if it throws, nothing is written and the error is passed on. If the write fails,
   * the change is undone in memory and the returned promise rejects with the write's error.
   */
  async update<R>(mutator: (data: T) => R): Promise<R> {
    // Everything up to the first await runs synchronously at the call, the mutator included; a
    // throw here becomes the returned promise's rejection.
    if (this.closed) throw new StoreError('closed', `${this.path} is closed; no more changes are accepted.`);
    const result = mutator(this.data);
    const written = this.join();
    if (isThenable(result)) {
      throw new TypeError('DurableFile.update: the mutator must be synchronous (it returned a promise).');
    }
    await written;
    return result;
  }

  /**
   * Like `update`, but the change need not reach the disk at once: it goes with the next write,
   * started by another change or, at the latest, `withinMs` later. Returns the mutator's result
   * right away; `written` settles with that write (a failed one undoes the change in memory, as
   * for `update`). For changes whose loss in a crash costs nothing (a re-check that found a
   * transaction still Pending: the check is only made again): many of them share one write
   * instead of each making its own.
   */
  updateDeferred<R>(mutator: (data: T) => R, withinMs: number): { result: R; written: Promise<void> } {
    if (this.closed) throw new StoreError('closed', `${this.path} is closed; no more changes are accepted.`);
    const result = mutator(this.data);
    // Joined before the check, as in `update`: whatever the mutator changed is written.
    const written = this.join(withinMs);
    if (isThenable(result)) {
      throw new TypeError('DurableFile.updateDeferred: the mutator must be synchronous (it returned a promise).');
    }
    return { result, written };
  }

  /**
   * Resolves when every change made so far is on disk; rejects if the write that carries any of
   * them fails (those changes are then gone from memory too).
   */
  flush(): Promise<void> {
    // Deferred changes waiting for their timer are written now.
    if (this.pending && !this.pendingNow) void this.join();
    return (this.pending ?? this.writing)?.promise ?? Promise.resolve();
  }

  /** Flushes, then refuses further changes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /**
   * Puts the changes just made into the next write, starting it once the current run is over;
   * with `deferMs`, starting it at the latest that much later (unless another change needs it sooner).
   */
  private join(deferMs?: number): Promise<void> {
    this.pending ??= newBatch();
    if (deferMs === undefined) {
      if (!this.pendingNow) {
        this.pendingNow = true;
        this.clearDeferTimer();
        // After the current synchronous run, so that all its changes land in this one write.
        if (!this.writing) queueMicrotask(() => void this.writeNext());
      }
    } else if (!this.pendingNow && performance.now() + deferMs < this.deferDeadline) {
      this.clearDeferTimer();
      this.deferDeadline = performance.now() + deferMs;
      this.deferTimer = setTimeout(() => {
        this.deferTimer = undefined;
        this.deferDeadline = Infinity;
        // Due now: written like any other change, right after the write under way if there is one.
        this.pendingNow = true;
        if (!this.writing) void this.writeNext();
      }, deferMs);
      // Deferred changes do not keep the process alive; close() writes them.
      this.deferTimer.unref();
    }
    return this.pending.promise;
  }

  private clearDeferTimer(): void {
    if (this.deferTimer) clearTimeout(this.deferTimer);
    this.deferTimer = undefined;
    this.deferDeadline = Infinity;
  }

  private async writeNext(): Promise<void> {
    const batch = this.pending;
    if (!batch || this.writing) return;
    // From here on, new changes belong to the next write.
    this.pending = undefined;
    this.pendingNow = false;
    this.clearDeferTimer();
    this.writing = batch;
    try {
      // The JSON text is taken synchronously here: exactly the changes made so far.
      await this.low.write();
      this.writing = undefined;
      batch.resolve();
    } catch (error) {
      // Back to what is on disk. That drops this write's changes and those made while it ran
      // (they belong to the next write and sit on top of the lost ones): reject both.
      try {
        this.low.data = this.adapter.onDisk();
      } catch {
        // Cannot happen for text this process wrote itself; if it does, accept no more changes
        // rather than let memory stay ahead of the disk.
        this.closed = true;
      }
      const next = this.pending as Batch | undefined;
      this.pending = undefined;
      this.pendingNow = false;
      this.clearDeferTimer();
      this.writing = undefined;
      batch.reject(error);
      next?.reject(error);
      return;
    }
    // Deferred changes alone wait for their timer.
    if (this.pending && this.pendingNow) await this.writeNext();
  }
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

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
