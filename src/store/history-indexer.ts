/**
 * Keeps the history's indexes (history-index.ts) in step with its segments (history.ts): trusts
 * `index/state.json` on open only where it fits the segments, indexes what lies past it, writes the
 * index lines of each append behind it, checkpoints, and rebuilds every index from the segments
 * when one turns out stale.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './durable-file.ts';
import type { TransactionRecord } from './records/transactions.ts';
import { crcOfLineEndingAt, damagedLine, decodeLine, isRecordLike, readLines, syncFile, type Segment } from './history-lines.ts';
import {
  appendIndexLines,
  bucketCounts,
  indexFormat,
  indexLines,
  readIndexEntries,
  readState,
  type IndexState,
  type Kind,
  type Pointer,
} from './history-index.ts';

/** Where an append put its bytes in a segment: [start, end), its first record at `recordsAt` (after a header). */
export interface AppendedSpan {
  start: number;
  recordsAt: number;
  end: number;
}

/** The indexes of one history directory, kept behind the appends to `segments` (the history's own map). */
export class HistoryIndexer {
  /** Bucket files written since the last checkpoint (it must fsync them). */
  private readonly touched = new Set<string>();
  /** Bucket files a checkpoint made durable. */
  private knownFiles = new Set<string>();
  private sinceCheckpoint = 0;
  private checkpointing: Promise<void> = Promise.resolve();
  /** Index writes, one after the other, behind the appends they index. */
  private indexing: Promise<unknown> = Promise.resolve();
  private readonly statePath: string;

  private constructor(
    readonly indexDir: string,
    private readonly segments: ReadonlyMap<string, Segment>,
    private readonly checkpointEvery: number,
  ) {
    this.statePath = path.join(indexDir, 'state.json');
  }

  /** Opens the indexes of `segments` in `indexDir`, catching them up with the segments. */
  static async open(indexDir: string, segments: ReadonlyMap<string, Segment>, checkpointEvery: number): Promise<HistoryIndexer> {
    const indexer = new HistoryIndexer(indexDir, segments, checkpointEvery);
    await indexer.catchUpOnOpen();
    return indexer;
  }

  /** Trust the state only where it fits the segments; index the rest. */
  private async catchUpOnOpen(): Promise<void> {
    const state = await readState(this.statePath);
    const present = new Set((await fs.readdir(this.indexDir)).filter((name) => name.endsWith('.idx')));
    const trusted = state !== undefined && (await this.trustState(state, present));
    if (trusted) this.knownFiles = new Set([...state.files, ...present]);
    else await this.dropIndexes();
    for (const segment of this.segments.values()) await this.indexTail(segment);
    if (!trusted || this.sinceCheckpoint > 0) await this.checkpoint();
  }

  /**
   * Whether `state` fits the buckets `present` and the segments; where it does, each segment's
   * indexed part is set from it.
   */
  private async trustState(state: IndexState, present: ReadonlySet<string>): Promise<boolean> {
    const fits =
      JSON.stringify(state.buckets) === JSON.stringify(bucketCounts) &&
      state.files.every((name) => present.has(name)) &&
      Object.keys(state.months).every((month) => this.segments.has(month));
    if (!fits) return false;
    for (const segment of this.segments.values()) {
      const known = state.months[segment.month];
      if (!known) continue;
      if (known.covered > segment.size || (await crcOfLineEndingAt(segment.file, known.covered)) !== known.crc) return false;
      segment.indexedTo = known.covered;
      segment.lastCrc = known.crc;
    }
    return true;
  }

  // A bucket counts for a checkpoint only once its lines are in it: the checkpoint must fsync it after that.
  private writeIndexLines(lines: Array<[string, unknown[]]>): Promise<void> {
    return appendIndexLines(this.indexDir, lines, (file) => this.touched.add(file));
  }

  /** Indexes `segment` from indexedTo to size, reading it in chunks (never all of it at once). */
  private async indexTail(segment: Segment): Promise<void> {
    if (segment.indexedTo >= segment.size) return;
    const end = segment.size;
    let buffered: Array<[string, unknown[]]> = [];
    let offset = segment.indexedTo;
    let lastCrc = segment.lastCrc;
    let indexed = 0;
    for await (const { line, at, length } of readLines(segment.file, segment.indexedTo, end)) {
      const value = decodeLine(line);
      if (value === undefined) throw damagedLine(segment.file, at);
      if (isRecordLike(value)) {
        buffered.push(...indexLines(value, { month: segment.month, offset: at, length }));
        indexed++;
      }
      offset = at + length;
      lastCrc = line.slice(line.lastIndexOf('\t') + 1);
      if (buffered.length >= 40_000) {
        await this.writeIndexLines(buffered);
        buffered = [];
        segment.indexedTo = offset;
        segment.lastCrc = lastCrc;
      }
    }
    await this.writeIndexLines(buffered);
    segment.indexedTo = offset;
    segment.lastCrc = lastCrc;
    this.sinceCheckpoint += indexed;
  }

  /** Makes the buckets written so far durable, then records how far they reach. */
  private checkpoint(): Promise<void> {
    const months: IndexState['months'] = {};
    for (const segment of this.segments.values()) months[segment.month] = { covered: segment.indexedTo, crc: segment.lastCrc };
    const files = [...this.touched];
    this.touched.clear();
    this.sinceCheckpoint = 0;
    this.checkpointing = this.checkpointing.then(async () => {
      try {
        for (let from = 0; from < files.length; from += 32) {
          await Promise.all(files.slice(from, from + 32).map((file) => syncFile(path.join(this.indexDir, file))));
        }
        for (const file of files) this.knownFiles.add(file);
        const next: IndexState = { ...indexFormat, months, files: [...this.knownFiles].sort() };
        await writeFileAtomic(this.statePath, JSON.stringify(next), { backup: false });
      } catch {
        // The state stays where it was: the next open indexes a little more again.
        for (const file of files) this.touched.add(file);
      }
    });
    return this.checkpointing;
  }

  /** Runs `work` after every index write queued before it (a segment's index grows in order). */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.indexing.then(work, work);
    this.indexing = run.catch(() => undefined);
    return run;
  }

  /** Resolves when the index writes queued so far have settled. */
  settled(): Promise<unknown> {
    return this.indexing;
  }

  /** Waits for the index writes of every append so far, then catches up an index left behind (a failed index write). */
  async caughtUp(): Promise<void> {
    await this.indexing;
    if ([...this.segments.values()].some((s) => s.indexedTo < s.size)) {
      await this.enqueue(async () => {
        for (const segment of this.segments.values()) await this.indexTail(segment);
      });
    }
  }

  /** Queues the index lines of `records` (encoded as `lines`), just appended to `segment` at `span`; the caller does not wait. */
  indexAppend(segment: Segment, span: AppendedSpan, records: readonly TransactionRecord[], lines: string[]): void {
    void this.enqueue(() => this.indexAppended(segment, span, records, lines));
  }

  /**
   * Writes the index lines of `records` (encoded as `lines`), appended to `segment` at [start, end)
   * with the first record at `recordsAt`, unless a catch-up indexed them already.
   */
  private async indexAppended(
    segment: Segment,
    { start, recordsAt, end }: AppendedSpan,
    records: readonly TransactionRecord[],
    lines: string[],
  ): Promise<void> {
    if (segment.indexedTo === start) {
      let offset = recordsAt;
      const pending: Array<[string, unknown[]]> = [];
      records.forEach((tx, i) => {
        const length = Buffer.byteLength(lines[i] ?? '');
        pending.push(...indexLines(tx, { month: segment.month, offset, length }));
        offset += length;
      });
      try {
        await this.writeIndexLines(pending);
        segment.indexedTo = end;
        const last = lines.at(-1) ?? '';
        segment.lastCrc = last.slice(last.lastIndexOf('\t') + 1, -1);
        this.sinceCheckpoint += records.length;
      } catch {
        // The segment has them: the index catches up from it before the next lookup.
      }
    } else if (segment.indexedTo < end) {
      await this.indexTail(segment).catch(() => undefined);
    }
    if (this.sinceCheckpoint >= this.checkpointEvery) void this.checkpoint();
  }

  /** An index line pointed at something else than it said: rebuild every index from the segments. */
  rebuild(): Promise<void> {
    return this.enqueue(async () => {
      await this.dropIndexes();
      for (const segment of this.segments.values()) await this.indexTail(segment);
      await this.checkpoint();
    });
  }

  /** Deletes every bucket (none may keep lines of a segment that is not the one on disk now); every segment is unindexed. */
  private async dropIndexes(): Promise<void> {
    for (const name of await fs.readdir(this.indexDir)) {
      if (name.endsWith('.idx')) await fs.rm(path.join(this.indexDir, name), { force: true });
    }
    this.knownFiles = new Set();
    this.touched.clear();
    for (const segment of this.segments.values()) {
      segment.indexedTo = 0;
      segment.lastCrc = '';
    }
  }

  /** The index lines of `key` in its bucket. */
  entries(kind: Kind, key: string | number): Promise<unknown[][]> {
    return readIndexEntries(this.indexDir, kind, key);
  }

  /** Where each refId's latest copy is (refIds history does not have are left out). */
  async locate(refIds: readonly string[]): Promise<Map<string, Pointer>> {
    const pointers = new Map<string, Pointer>();
    for (const refId of new Set(refIds)) {
      for (const entry of await this.entries('ref', refId)) {
        const [, month, offset, length] = entry;
        if (typeof month !== 'string' || typeof offset !== 'number' || typeof length !== 'number') continue;
        const known = pointers.get(refId);
        if (!known || offset > known.offset) pointers.set(refId, { month, offset, length });
      }
    }
    return pointers;
  }

  /** A last checkpoint if anything was indexed since the one before, awaited (the caller waits for the appends and their index writes first). */
  async close(): Promise<void> {
    if (this.sinceCheckpoint > 0 || this.touched.size > 0) await this.checkpoint();
    await this.checkpointing;
  }

  /** Resolves when the checkpoints started so far have settled. */
  checkpointed(): Promise<void> {
    return this.checkpointing;
  }
}
