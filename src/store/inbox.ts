import type { Update } from 'grammy/types';
import { z } from 'zod';
import { DurableFile, type AtomicWriter, type WriteEvent } from './durable-file.ts';
import { StoreVersionError } from './errors.ts';
import type { Vault } from './vault.ts';
import { inboxAad, sealUpdate, type SealedUpdate } from './records/updates.ts';
import { resealFile, type ResealReport, type SealedValue } from './reseal.ts';

/** Name of the inbox file inside the data directory. */
export const inboxFileName = 'inbox.json';
/** Current data version of the inbox file. */
export const inboxFileVersion = 1;

const entrySchema = z.object({
  /** Telegram's update_id. */
  id: z.number().int(),
  /** The update as JSON, sealed with the vault (AAD `inbox:<id>`): a message may hold a PIN or an API key. */
  sealed: z.string(),
  receivedAt: z.string(),
  /** Its handling finished (successfully or with a handled error). */
  done: z.literal(true).optional(),
  /** How many times a start replayed it (a crash loop on one update gives up after a few). */
  attempts: z.number().int().nonnegative().optional(),
  /** The chat it belongs to (`updateChatId`), for per-chat order; absent in entries of before. */
  chatId: z.number().int().optional(),
});
const inboxFileSchema = z.object({ version: z.literal(inboxFileVersion), entries: z.array(entrySchema) });

export type InboxEntry = z.infer<typeof entrySchema>;
export type InboxData = z.infer<typeof inboxFileSchema>;

export function decodeInboxFile(raw: unknown, file: string): { data: InboxData } {
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > inboxFileVersion) throw new StoreVersionError(file, version, inboxFileVersion);
  return { data: inboxFileSchema.parse(raw) };
}

/** The sealed values of the inbox: one stored update each. */
export function inboxSecrets(data: InboxData): SealedValue[] {
  return data.entries.map((entry) => ({
    kind: 'inbox' as const,
    token: entry.sealed,
    aad: inboxAad(entry.id),
    name: `the stored update ${entry.id}`,
    put: (token: string) => {
      entry.sealed = token;
    },
  }));
}

/**
 * The update inbox: Telegram updates that may move money, stored durably BEFORE Telegram is told
 * they arrived (long polling: before the next getUpdates offset; webhook: before the 200 answer),
 * so that a crash between that acknowledgement and the end of their handling loses nothing — the
 * next start replays what is not marked done. Entries are kept by update id, which also makes it
 * the de-duplication record (an update already held is never handled twice from Telegram).
 */
export interface Inbox {
  /** Whether an update with this id is held (done or not). */
  has(updateId: number): boolean;
  /**
   * Stores the given updates that are not held yet (sealed with the vault) and resolves, once
   * they are on disk, with those new ones; the others were duplicates. If the write fails they are
   * taken out again (so they are not mistaken for duplicates later) and the error is passed on.
   */
  add(updates: readonly Update[]): Promise<Update[]>;
  /** `add` for updates `sealUpdate` sealed already; resolves with the ids that were new. */
  addSealed(updates: readonly SealedUpdate[]): Promise<number[]>;
  /**
   * The update's handling finished. The mark is written together with the next write, at the
   * latest after `doneDelayMs` (many marks, one write); resolves once it is on disk.
   */
  markDone(updateId: number): Promise<void>;
  /** Telegram will not send updates below `offset` again: their done entries are forgotten (lazily). */
  acknowledgedBelow(offset: number): void;
  /** Forgets done entries received more than `maxAgeMs` ago and all but the newest `maxCount` done ones (lazily). */
  pruneDone(limits: { maxAgeMs: number; maxCount: number }): void;
  /**
   * The entries not done, lowest update id first, still sealed (the store contract's
   * `claimForReplay` opens them above it): only those `take` accepts, at most `limit`. Each call
   * counts one attempt per entry (on disk before it resolves); an entry already replayed
   * `maxAttempts` times (each start crashed on it) is marked done instead and its id returned in
   * `givenUp`.
   */
  takeSealedForReplay(
    maxAttempts: number,
    choice?: { limit?: number; take?: (updateId: number) => boolean },
  ): Promise<{ entries: Array<{ id: number; sealed: string }>; givenUp: number[] }>;
  /** Whether an update of `chatId` below `updateId` is stored and not done. */
  earlierOpen(chatId: number, updateId: number): boolean;
  /** Ids of the entries not done (for logs and tests). */
  pendingIds(): number[];
  /** Seals every stored update that is not sealed with the vault's current key again (key rotation). */
  reseal(): Promise<ResealReport>;
  /** Writes what is waiting (done marks, forgotten entries) now; resolves once on disk. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface InboxOptions {
  path: string;
  vault: Vault;
  now?: () => Date;
  /** How long a done mark may wait for another write to join (ms). Default 200. */
  doneDelayMs?: number;
  onWrite?: (event: WriteEvent) => void;
  /** The file writer (the store's, behind its write gate); default the real atomic writer. */
  writeFile?: AtomicWriter;
}

type PruneLimits = { maxAgeMs: number; maxCount: number };

/**
 * The inbox's changes that need no write of their own (done marks, forgotten entries): applied by
 * the next write, or by the timer `delayMs` after the first of them.
 */
class LazyChanges {
  /** Updates whose handling finished, not marked done in the file yet. */
  readonly doneSoon = new Set<number>();
  /** Done entries below this update id are forgotten. */
  forgetBelow = -Infinity;
  /** Limits of `pruneDone` waiting to be applied. */
  pruneLimits: PruneLimits | undefined;
  private timer: NodeJS.Timeout | undefined;
  private waiting: Promise<void> | undefined;
  private settleWaiting: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  private closed = false;

  constructor(
    private readonly file: DurableFile<InboxData>,
    /** The ids held in the file: forgotten entries leave it. */
    private readonly held: Set<number>,
    private readonly now: () => Date,
    private readonly delayMs: number,
  ) {}

  /** Applies the lazy changes; called inside a `file.update` mutator. */
  apply(data: InboxData): void {
    if (this.doneSoon.size > 0) {
      for (const entry of data.entries) if (this.doneSoon.has(entry.id)) entry.done = true;
      this.doneSoon.clear();
    }
    const keep = (entry: InboxEntry) => !(entry.done && entry.id < this.forgetBelow);
    let entries = data.entries.filter(keep);
    if (this.pruneLimits) {
      const oldest = this.now().getTime() - this.pruneLimits.maxAgeMs;
      const done = entries.filter((entry) => entry.done);
      const excess = new Set(done.slice(0, Math.max(0, done.length - this.pruneLimits.maxCount)).map((entry) => entry.id));
      entries = entries.filter((entry) => !entry.done || (!excess.has(entry.id) && Date.parse(entry.receivedAt) >= oldest));
      this.pruneLimits = undefined;
    }
    if (entries.length !== data.entries.length) {
      const kept = new Set(entries.map((entry) => entry.id));
      for (const entry of data.entries) if (!kept.has(entry.id)) this.held.delete(entry.id);
      data.entries = entries;
    }
  }

  private hasWork(): boolean {
    return (
      this.doneSoon.size > 0 ||
      this.pruneLimits !== undefined ||
      this.file.data.entries.some((entry) => entry.done && entry.id < this.forgetBelow)
    );
  }

  /** Writes the lazy changes now (one write for all of them) and settles whoever waited for them. */
  write(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const waiters = this.settleWaiting;
    this.waiting = undefined;
    this.settleWaiting = undefined;
    const written = this.closed || !this.hasWork() ? this.file.flush() : this.file.update((data) => this.apply(data));
    written.then(
      () => waiters?.resolve(),
      (error: unknown) => waiters?.reject(error),
    );
    return written;
  }

  /** Resolves once the lazy changes are on disk: with the next write, at the latest `delayMs` from the first. */
  schedule(): Promise<void> {
    if (!this.waiting) {
      this.waiting = new Promise<void>((resolve, reject) => {
        this.settleWaiting = { resolve, reject };
      });
      // A failed lazy write is retried by the next write; nobody must get an unhandled rejection for it.
      this.waiting.catch(() => undefined);
      this.timer = setTimeout(() => void this.write().catch(() => undefined), this.delayMs);
      this.timer.unref?.();
    }
    return this.waiting;
  }

  /** Writes what is waiting; later changes are only flushed, not applied. */
  async close(): Promise<void> {
    await this.write();
    this.closed = true;
  }
}

/** Stores the sealed updates not held yet in one write (with the lazy changes); resolves with their ids. */
async function addEntries(
  file: DurableFile<InboxData>,
  held: Set<number>,
  lazy: LazyChanges,
  updates: readonly SealedUpdate[],
  now: () => Date,
): Promise<number[]> {
  const seen = new Set<number>();
  const receivedAt = now().toISOString();
  const entries: InboxEntry[] = [];
  for (const { id, sealed, chatId } of updates) {
    if (held.has(id) || seen.has(id)) continue;
    seen.add(id);
    entries.push({ id, sealed, receivedAt, ...(chatId === undefined ? {} : { chatId }) });
  }
  if (entries.length === 0) return [];
  for (const entry of entries) held.add(entry.id);
  try {
    await file.update((data) => {
      lazy.apply(data);
      data.entries.push(...entries);
      data.entries.sort((a, b) => a.id - b.id);
    });
  } catch (error) {
    // Not on disk: not held either, so Telegram's next delivery of them is stored again.
    for (const id of seen) held.delete(id);
    file.data.entries = file.data.entries.filter((entry) => !seen.has(entry.id));
    throw error;
  }
  // The done marks that were waiting went out with this write; their timer then finds nothing to write.
  return entries.map((entry) => entry.id);
}

/**
 * Counts one replay attempt for each open entry `choice` takes (lowest id first); marks done, in
 * the same write, those already replayed `maxAttempts` times and those `readable` refuses.
 */
async function takeEntries(
  file: DurableFile<InboxData>,
  lazy: LazyChanges,
  maxAttempts: number,
  choice: { limit?: number; take?: (updateId: number) => boolean },
  readable: (entry: InboxEntry) => boolean,
): Promise<{ taken: Array<{ id: number; sealed: string }>; givenUp: number[] }> {
  const taken: Array<{ id: number; sealed: string }> = [];
  const givenUp: number[] = [];
  const open = file.data.entries
    .filter((entry) => !entry.done && !lazy.doneSoon.has(entry.id) && (choice.take?.(entry.id) ?? true))
    .slice(0, choice.limit ?? Infinity);
  for (const entry of open) {
    if ((entry.attempts ?? 0) < maxAttempts && readable(entry)) taken.push({ id: entry.id, sealed: entry.sealed });
    else givenUp.push(entry.id);
  }
  if (open.length === 0) return { taken, givenUp };
  const replayed = new Set(taken.map((entry) => entry.id));
  const abandoned = new Set(givenUp);
  await file.update((data) => {
    lazy.apply(data);
    for (const entry of data.entries) {
      if (replayed.has(entry.id)) entry.attempts = (entry.attempts ?? 0) + 1;
      if (abandoned.has(entry.id)) entry.done = true;
    }
  });
  return { taken, givenUp };
}

/** Opens (or creates) the inbox file. */
export async function openInbox(options: InboxOptions): Promise<Inbox> {
  const now = options.now ?? (() => new Date());
  const file = await DurableFile.open<InboxData>({
    path: options.path,
    decode: decodeInboxFile,
    defaultData: () => ({ version: inboxFileVersion, entries: [] }),
    onWrite: options.onWrite,
    writeFile: options.writeFile,
  });
  const held = new Set(file.data.entries.map((entry) => entry.id));
  const lazy = new LazyChanges(file, held, now, options.doneDelayMs ?? 200);
  const addSealed = (updates: readonly SealedUpdate[]) => addEntries(file, held, lazy, updates, now);
  const isOpen = (entry: InboxEntry) => !entry.done && !lazy.doneSoon.has(entry.id);

  return {
    has: (updateId) => held.has(updateId),

    async add(updates) {
      const byId = new Map<number, Update>();
      for (const update of updates) if (!held.has(update.update_id) && !byId.has(update.update_id)) byId.set(update.update_id, update);
      const added = await addSealed([...byId.values()].map((update) => sealUpdate(options.vault, update)));
      return added.map((id) => byId.get(id)).filter((update) => update !== undefined);
    },

    addSealed,

    markDone(updateId) {
      if (!held.has(updateId)) return Promise.resolve();
      lazy.doneSoon.add(updateId);
      return lazy.schedule();
    },

    acknowledgedBelow(offset) {
      if (offset <= lazy.forgetBelow) return;
      lazy.forgetBelow = offset;
      if (file.data.entries.some((entry) => entry.done && entry.id < offset)) void lazy.schedule();
    },

    pruneDone(limits) {
      const oldest = now().getTime() - limits.maxAgeMs;
      const done = file.data.entries.filter((entry) => entry.done || lazy.doneSoon.has(entry.id));
      // Nothing to forget: no write for it.
      if (done.length <= limits.maxCount && done.every((entry) => Date.parse(entry.receivedAt) >= oldest)) return;
      lazy.pruneLimits = limits;
      void lazy.schedule();
    },

    async takeSealedForReplay(maxAttempts, choice = {}) {
      const { taken, givenUp } = await takeEntries(file, lazy, maxAttempts, choice, () => true);
      return { entries: taken, givenUp };
    },

    pendingIds: () => file.data.entries.filter(isOpen).map((entry) => entry.id),

    earlierOpen: (chatId, updateId) => file.data.entries.some((entry) => entry.chatId === chatId && entry.id < updateId && isOpen(entry)),

    reseal: () => resealFile(file, options.vault, inboxSecrets),

    flush: () => lazy.write(),

    async close() {
      await lazy.close();
      await file.close();
    },
  };
}
