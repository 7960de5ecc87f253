import { copy, type RepoContext } from './context.ts';
import { validated } from './records/validation.ts';
import { gameOrderSchema } from './records/game-orders.ts';
import { insertOutboxItem } from './outbox.ts';
import { buildOutboxItem } from './records/outbox.ts';
import type { AnsweredAtOnce, GameOrderStore } from './contract.ts';

/** Game shop orders (the contract's GameOrderStore): an order and its expiry reminder in one write. */
export type GameOrdersRepo = AnsweredAtOnce<GameOrderStore, 'get' | 'listByUser'>;

export function createGameOrdersRepo({ hot, now }: RepoContext): GameOrdersRepo {
  return {
    async save(order, options = {}) {
      const record = validated(gameOrderSchema, order, 'game order');
      const items = (options.notify ?? []).map((item) => buildOutboxItem(item, now()));
      await hot.update((data) => {
        data.gameOrders[record.orderId] = { ...record, ...(items.length > 0 ? { reminderQueued: true } : {}) };
        for (const item of items) insertOutboxItem(data, item);
      });
      return copy(hot.data.gameOrders[record.orderId] ?? record);
    },
    get(orderId) {
      const record = hot.data.gameOrders[orderId];
      return record ? copy(record) : undefined;
    },
    listByUser(userId, options = {}) {
      const offset = Math.max(0, options.offset ?? 0);
      const limit = Math.max(0, options.limit ?? 10);
      return Object.values(hot.data.gameOrders)
        .filter((order) => order.userId === userId)
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.orderId < b.orderId ? 1 : -1))
        .slice(offset, offset + limit)
        .map(copy);
    },
  };
}
