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
  namingFile,
  noop,
  removeStaleTemps,
  reportWrite,
  tightenMode,
  writeFileAtomic,
  type AtomicWriter,
  type WriteEvent,
} from './atomic-file.ts';

export { dirMode, ensureDir, fileMode, syncDir, writeFileAtomic, type AtomicWriter, type WriteEvent } from './atomic-file.ts';

/** A file's decoded JSON, and the data version it was upgraded from, if any. */
export interface Decoded<T> {
  data: T;
  migratedFrom?: number;
}

export interface DurableFileOptions<T> {
  /** The JSON file; its directory is created (0700) if missing. */
  path: string;
  /** Validates what was read, upgrading older formats; StoreVersionError for a newer one, any other error: corrupt. */
  decode: (raw: unknown, file: string) => Decoded<T>;
  /** The data while the file does not exist yet. */
  defaultData: () => T;
  onWrite?: (event: WriteEvent) => void;
  /** Default `writeFileAtomic`. */
  writeFile?: AtomicWriter;
  /** Checks the data read (e.g. that the encryption key fits it); a throw stops the open before anything is written. */
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
 * lowdb adapter for one JSON file. A missing file reads as null (the default data); one that is
 * not JSON or fails `decode` throws StoreCorruptError and every write is refused after, so the
 * broken file stays as it was. The JSON text is made synchronously at `write`: changes made while
 * the disk work runs belong to the next write.
 */
class AtomicJsonAdapter<T> implements Adapter<T> {
  /** The data version the file was upgraded from in memory, if it was. */
  migratedFrom: number | undefined;
  /** The bytes read, kept only when the file was upgraded (for a pre-migration backup). */
  originalBytes: Buffer | undefined;
  existed = false;
  /** Whether the data read is still to be parsed (`parseLater`): it is `onDisk()`. */
  deferred = false;
  /** The JSON text on disk now (from the last read or successful write); undefined: no file yet. */
  private diskText: string | undefined;
  private unreadable = false;

  constructor(private readonly options: DurableFileOptions<T>) {}

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
    await (this.options.writeFile ?? writeFileAtomic)(file, text, { backup: true }).catch(namingFile(file));
    this.diskText = text;
    reportWrite(this.options.onWrite, file, Buffer.byteLength(text), startedAt);
  }

  /** A fresh copy of the data on disk now (the default data if never written), to undo changes whose write failed. */
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
 * One JSON file held in memory and written back durably. Writes are coalesced and serialised: one
 * runs at a time, everything changed meanwhile goes into the next one, and changes of one
 * synchronous run always share a write (atomic together).
 *
 * Memory never stays ahead of the disk: a failed write puts the data back to what is on disk and
 * rejects every caller whose change is lost — those of the failed write and those waiting for the
 * next (made on top of the lost ones). Nothing is retried behind a caller's back.
 */
export class DurableFile<T> {
  /** Data version the file was upgraded from when opened, if it was. */
  readonly migratedFrom: number | undefined;
  /** Whether the file existed when opened. */
  readonly existed: boolean;
  private closed = false;
  private writing: Batch | undefined;
  /** Changes made since `writing` started: the next write. */
  private pending: Batch | undefined;
  /** Whether `pending` holds a change to write at once (not only deferred ones). */
  private pendingNow = false;
  private deferTimer: NodeJS.Timeout | undefined;
  /** When `deferTimer` fires (performance.now()); a change deferred for less moves it earlier. */
  private deferDeadline = Infinity;

  private constructor(
    private readonly low: Low<T>,
    readonly path: string,
    private readonly adapter: AtomicJsonAdapter<T>,
  ) {
    this.migratedFrom = adapter.migratedFrom;
    this.existed = adapter.existed;
  }

  /**
   * Reads and validates the file (StoreCorruptError, StoreVersionError, or `verify`'s error,
   * touching nothing). A file upgraded from an older format is copied to `<file>.v<old>.bak`
   * first, then written in the new format.
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
   * Runs the synchronous `mutator` on the data at once and resolves with its result once the change
   * is on disk. It must validate before it changes anything: a throw writes nothing. A failed write
   * undoes the change in memory and rejects.
   */
  async update<R>(mutator: (data: T) => R): Promise<R> {
    const { result, written } = this.change('update', mutator);
    await written;
    return result;
  }

  /**
   * `update` for a change whose loss in a crash costs nothing (a re-check that found a transaction
   * still Pending): it joins the next write, at the latest `withinMs` later; the result comes at once.
   */
  updateDeferred<R>(mutator: (data: T) => R, withinMs: number): { result: R; written: Promise<void> } {
    return this.change('updateDeferred', mutator, withinMs);
  }

  /** Resolves when every change made so far is on disk; rejects if a write carrying one fails (it is gone from memory too). */
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

  private change<R>(name: string, mutator: (data: T) => R, deferMs?: number): { result: R; written: Promise<void> } {
    if (this.closed) throw new StoreError('closed', `${this.path} is closed; no more changes are accepted.`);
    const result = mutator(this.data);
    // Joined before the check: whatever the mutator changed is written.
    const written = this.join(deferMs);
    if (isThenable(result)) throw new TypeError(`DurableFile.${name}: the mutator must be synchronous (it returned a promise).`);
    return { result, written };
  }

  /** Puts the changes just made into the next write, started after the current run, or with `deferMs` at the latest that much later. */
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
