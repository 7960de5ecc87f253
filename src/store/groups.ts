import { copy, validated, withPatch, type RepoContext } from './context.ts';
import { groupSchema, type GroupRecord } from './schema.ts';

/** A linked group with its chat id. */
export interface LinkedGroup extends GroupRecord {
  chatId: number;
}

/**
 * Groups that receive a user's notifications. A user links at most one group (their
 * `linkedGroupId`) and a group belongs to one owner: linking moves it, and the user record is
 * kept in step in the same write.
 */
export interface GroupsRepo {
  /** Links `chatId` to `ownerId`, replacing the owner's previous group and the group's previous owner. */
  link(input: { chatId: number; ownerId: number; title?: string }): Promise<LinkedGroup>;
  /** Unlinks the group; resolves true if it was linked. */
  unlink(chatId: number): Promise<boolean>;
  get(chatId: number): LinkedGroup | undefined;
  /** Groups linked by `ownerId` (zero or one today). */
  byOwner(ownerId: number): LinkedGroup[];
}

export function createGroupsRepo({ hot, now }: RepoContext): GroupsRepo {
  const linked = (chatId: number, record: GroupRecord): LinkedGroup => ({ chatId, ...copy(record) });

  return {
    async link({ chatId, ownerId, title }) {
      const record = validated(groupSchema, withPatch({ ownerId, linkedAt: now().toISOString() }, { title }), 'group');
      await hot.update((data) => {
        const key = String(chatId);
        // The group's previous owner loses it; the owner's previous group is unlinked.
        const previousOwner = data.groups[key]?.ownerId;
        const previousOwnerRecord = previousOwner === undefined ? undefined : data.users[String(previousOwner)];
        if (previousOwnerRecord?.linkedGroupId === chatId) delete previousOwnerRecord.linkedGroupId;
        for (const [otherKey, other] of Object.entries(data.groups)) {
          if (other.ownerId === ownerId && otherKey !== key) delete data.groups[otherKey];
        }
        data.groups[key] = record;
        const owner = data.users[String(ownerId)];
        if (owner) owner.linkedGroupId = chatId;
      });
      return linked(chatId, record);
    },
    async unlink(chatId) {
      const key = String(chatId);
      const record = hot.data.groups[key];
      if (!record) return false;
      await hot.update((data) => {
        delete data.groups[key];
        const owner = data.users[String(record.ownerId)];
        if (owner?.linkedGroupId === chatId) delete owner.linkedGroupId;
      });
      return true;
    },
    get(chatId) {
      const record = hot.data.groups[String(chatId)];
      return record ? linked(chatId, record) : undefined;
    },
    byOwner: (ownerId) =>
      Object.entries(hot.data.groups)
        .filter(([, record]) => record.ownerId === ownerId)
        .map(([key, record]) => linked(Number(key), record)),
  };
}
