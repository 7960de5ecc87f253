/**
 * Linked groups (/linkgroup): the one writer of group links. A reseller links a group for their
 * settlement notices (a marketplace seller for /verify in their support group); a link goes when
 * its owner or a group admin unlinks it, when the bot is removed from the group, or when Telegram
 * refuses to deliver to it; it follows a group that became a supergroup.
 */
import type { Db } from '../store/db.ts';
import type { LinkedGroup } from '../store/records/groups.ts';

/** The one writer of group links (see the module comment). */
export class GroupLinkService {
  constructor(private readonly db: Db) {}

  link({ chatId, ownerId, title }: { chatId: number; ownerId: number; title?: string | undefined }): Promise<LinkedGroup> {
    return this.db.groups.link({ chatId, ownerId, ...(title === undefined ? {} : { title }) });
  }

  /** Removes the group's link; false if it had none. */
  async unlink(chatId: number): Promise<boolean> {
    if (!(await this.db.groups.get(chatId))) return false;
    return this.db.groups.unlink(chatId);
  }

  /** Moves a link to the group's new (supergroup) id; false if `oldId` was not linked. */
  migrate(oldId: number, newId: number): Promise<boolean> {
    return this.db.groups.migrate(oldId, newId);
  }
}
