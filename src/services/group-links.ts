/**
 * Linked groups (/linkgroup): the one writer of group links. A reseller links a group for their
 * settlement notices (a marketplace seller for /verify in their support group); a link goes when
 * its owner or a group admin unlinks it, when the bot is removed from the group, or when Telegram
 * refuses to deliver to it; it follows a group that became a supergroup.
 */
import type { Db } from '../store/db.ts';
import type { LinkedGroup } from '../store/records/groups.ts';

export interface GroupLinkService {
  link(input: { chatId: number; ownerId: number; title?: string | undefined }): Promise<LinkedGroup>;
  /** Removes the group's link; false if it had none. */
  unlink(chatId: number): Promise<boolean>;
  /** Moves a link to the group's new (supergroup) id; false if `oldId` was not linked. */
  migrate(oldId: number, newId: number): Promise<boolean>;
}

export function createGroupLinkService(db: Db): GroupLinkService {
  return {
    link: ({ chatId, ownerId, title }) => db.groups.link({ chatId, ownerId, ...(title === undefined ? {} : { title }) }),
    async unlink(chatId) {
      if (!(await db.groups.get(chatId))) return false;
      return db.groups.unlink(chatId);
    },
    migrate: (oldId, newId) => db.groups.migrate(oldId, newId),
  };
}
