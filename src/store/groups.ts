import { copy, validated, withPatch, type RepoContext } from './context.ts';
import { groupSchema, type GroupRecord, type HotData } from './schema.ts';

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
  /**
   * Moves the link of `oldId` to `newId` (a group upgraded to a supergroup gets a new chat id),
   * keeping its owner, title and link date, in one write. A link `newId` already had is
   * replaced. Resolves false, writing nothing, when `oldId` was not linked.
   */
  migrate(oldId: number, newId: number): Promise<boolean>;
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
      await hot.update((data) => place(data, chatId, record));
      return linked(chatId, record);
    },
    async migrate(oldId, newId) {
      const record = hot.data.groups[String(oldId)];
      if (!record || oldId === newId) return false;
      const moved = copy(record);
      await hot.update((data) => {
        delete data.groups[String(oldId)];
        place(data, newId, moved);
      });
      return true;
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

/**
 * Puts `record` at `chatId` inside an update: the group's previous owner loses it, the owner's
 * previous group is unlinked, and the owner's user record points at `chatId`.
 */
function place(data: HotData, chatId: number, record: GroupRecord): void {
  const key = String(chatId);
  const previousOwner = data.groups[key]?.ownerId;
  const previousOwnerRecord = previousOwner === undefined ? undefined : data.users[String(previousOwner)];
  if (previousOwnerRecord?.linkedGroupId === chatId) delete previousOwnerRecord.linkedGroupId;
  for (const [otherKey, other] of Object.entries(data.groups)) {
    if (other.ownerId === record.ownerId && otherKey !== key) delete data.groups[otherKey];
  }
  data.groups[key] = record;
  const owner = data.users[String(record.ownerId)];
  if (owner) owner.linkedGroupId = chatId;
}
