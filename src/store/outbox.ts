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

/** Pending notifications in the hot file (the contract's OutboxStore), kept until Telegram accepted them. */
export interface OutboxRepo {
  enqueue(item: NewOutboxItem): Promise<OutboxItem>;
  listDue(at?: Date): OutboxItem[];
  list(): OutboxItem[];
  get(id: string): OutboxItem | undefined;
  update(id: string, patch: OutboxPatch): Promise<OutboxItem | undefined>;
  remove(id: string): Promise<boolean>;
  size(): number;
  /** Scheduling fields only (no payload, no deep copy): cheap enough for every tick with thousands queued. */
  entries(): OutboxEntry[];
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
