import { copy, type RepoContext } from './context.ts';
import type { HotData } from './schema.ts';
import type { AnsweredAtOnce, GroupStore } from './contract.ts';
import { newGroupRecord, type GroupRecord, type LinkedGroup } from './records/groups.ts';
import type { UserRecord } from './records/users.ts';
import { currentUser, updateWithHot } from './users.ts';

/**
 * Linked groups (the contract's GroupStore): one group per owner, one owner per group; the
 * owner's `linkedGroupId` is kept in step in the same write (through the hot file's `pendingUsers`).
 */
export type GroupsRepo = AnsweredAtOnce<GroupStore, 'get' | 'byOwner'>;

export function createGroupsRepo(context: RepoContext): GroupsRepo {
  const { hot, now } = context;
  const linked = (chatId: number, record: GroupRecord): LinkedGroup => ({ chatId, ...copy(record) });

  return {
    async link({ chatId, ownerId, title }) {
      const record = newGroupRecord({ ownerId, title }, now());
      await updateWithHot(context, (data) => place(context, data, chatId, record));
      return linked(chatId, record);
    },
    async migrate(oldId, newId) {
      const record = hot.data.groups[String(oldId)];
      if (!record || oldId === newId) return false;
      const moved = copy(record);
      await updateWithHot(context, (data) => {
        delete data.groups[String(oldId)];
        return place(context, data, newId, moved);
      });
      return true;
    },
    async unlink(chatId) {
      const key = String(chatId);
      const record = hot.data.groups[key];
      if (!record) return false;
      await updateWithHot(context, (data) => {
        delete data.groups[key];
        const owner = currentUser(context, record.ownerId);
        return owner?.linkedGroupId === chatId ? [withoutGroup(owner)] : [];
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

/** A copy of `user` without a linked group. */
function withoutGroup(user: UserRecord): UserRecord {
  const { linkedGroupId: _linked, ...rest } = user;
  return rest;
}

/**
 * Puts `record` at `chatId` inside a hot-file update: the group's previous owner loses it, the
 * owner's previous group is unlinked, and the owner's user record points at `chatId`. Returns the
 * user records that change (new objects; the caller stores them with the hot-file write).
 */
function place(context: RepoContext, data: HotData, chatId: number, record: GroupRecord): UserRecord[] {
  const key = String(chatId);
  const changed: UserRecord[] = [];
  const previousOwner = data.groups[key]?.ownerId;
  const previousOwnerRecord = previousOwner === undefined ? undefined : currentUser(context, previousOwner);
  if (previousOwnerRecord?.linkedGroupId === chatId && previousOwner !== record.ownerId) changed.push(withoutGroup(previousOwnerRecord));
  for (const [otherKey, other] of Object.entries(data.groups)) {
    if (other.ownerId === record.ownerId && otherKey !== key) delete data.groups[otherKey];
  }
  data.groups[key] = record;
  const owner = currentUser(context, record.ownerId);
  if (owner && owner.linkedGroupId !== chatId) changed.push({ ...owner, linkedGroupId: chatId });
  return changed;
}
