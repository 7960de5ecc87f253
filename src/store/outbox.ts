import { copy, type RepoContext } from './context.ts';
import type { HotData } from './schema.ts';
import {
  buildOutboxItem,
  checkRetarget,
  outboxDueTime,
  patchedOutboxItem,
  type NewOutboxItem,
  type OutboxEntry,
  type OutboxItem,
  type OutboxPatch,
} from './records/outbox.ts';

/**
 * Pending notifications (messages the bot sends on its own). An item stays here until the sender
 * removes it after Telegram accepted it, so a crash never drops a notification.
 */
export interface OutboxRepo {
  /** Queues a notification; resolves with the stored item once it is on disk. */
  enqueue(item: NewOutboxItem): Promise<OutboxItem>;
  /** Items whose notBefore has passed (or have none), oldest due first. */
  listDue(at?: Date): OutboxItem[];
  /** Every pending item, in queue order. */
  list(): OutboxItem[];
  get(id: string): OutboxItem | undefined;
  /** Changes a pending item; resolves undefined (nothing written) if it is gone. */
  update(id: string, patch: OutboxPatch): Promise<OutboxItem | undefined>;
  /** Removes an item (sent, or given up); resolves true if it was there. */
  remove(id: string): Promise<boolean>;
  /** Number of pending items. */
  size(): number;
  /**
   * Every pending item's scheduling fields (no payload, no deep copy), in no particular order:
   * cheap enough for a sender to call on every tick with thousands of items queued.
   */
  entries(): OutboxEntry[];
  /** Moves every item queued for `fromChatId` to `toChatId` (a group became a supergroup), in one write; resolves how many moved. */
  retarget(fromChatId: number, toChatId: number): Promise<number>;
}

/** Adds `item` to the data unless a pending item has the same dedupeKey; returns the item that is queued. */
export function insertOutboxItem(data: HotData, item: OutboxItem): OutboxItem {
  if (item.dedupeKey !== undefined) {
    const pending = Object.values(data.outbox).find((other) => other.dedupeKey === item.dedupeKey);
    if (pending) return pending;
  }
  data.outbox[item.id] = item;
  return item;
}

export function createOutboxRepo({ hot, now }: RepoContext): OutboxRepo {
  return {
    async enqueue(input) {
      const item = buildOutboxItem(input, now());
      return copy(await hot.update((data) => insertOutboxItem(data, item)));
    },
    listDue(at = now()) {
      const limit = at.getTime();
      return Object.values(hot.data.outbox)
        .filter((item) => item.notBefore === undefined || Date.parse(item.notBefore) <= limit)
        .sort((a, b) => Date.parse(outboxDueTime(a)) - Date.parse(outboxDueTime(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map(copy);
    },
    list: () => Object.values(hot.data.outbox).map(copy),
    get(id) {
      const item = hot.data.outbox[id];
      return item ? copy(item) : undefined;
    },
    async update(id, patch) {
      const existing = hot.data.outbox[id];
      if (!existing) return undefined;
      const next = patchedOutboxItem(existing, patch);
      return copy(await hot.update((data) => (data.outbox[id] = next)));
    },
    async remove(id) {
      if (!hot.data.outbox[id]) return false;
      await hot.update((data) => {
        delete data.outbox[id];
      });
      return true;
    },
    size: () => Object.keys(hot.data.outbox).length,
    entries: () =>
      Object.values(hot.data.outbox).map(({ id, chatId, createdAt, attempts, notBefore }) =>
        notBefore === undefined ? { id, chatId, createdAt, attempts } : { id, chatId, createdAt, attempts, notBefore },
      ),
    async retarget(fromChatId, toChatId) {
      checkRetarget(toChatId);
      const ids = Object.values(hot.data.outbox)
        .filter((item) => item.chatId === fromChatId)
        .map((item) => item.id);
      if (ids.length === 0) return 0;
      await hot.update((data) => {
        for (const id of ids) {
          const item = data.outbox[id];
          if (item) item.chatId = toChatId;
        }
      });
      return ids.length;
    },
  };
}
