import { noop } from './atomic-file.ts';
import { copy, type RepoContext } from './context.ts';
import { insertOutboxItem } from './outbox.ts';
import { buildOutboxItem, type NewOutboxItem } from './records/outbox.ts';
import type { HotData } from './schema.ts';
import type { UsersChange } from './contract.ts';
import {
  matchesUserFilter,
  newUserRecord,
  patchedUser,
  refreshPatch,
  type NewUser,
  type UserFilter,
  type UserPatch,
  type UserRecord,
} from './records/users.ts';

/**
 * Bot users, keyed by Telegram user id, in the shard files by id. Display names are stored in
 * plain text; no secrets here.
 */
export interface UsersRepo {
  /** The user, or undefined if they never wrote to the bot. */
  get(id: number): UserRecord | undefined;
  /** Creates the user (active) on first contact, or refreshes their names and (if given) locales; resolves once stored. */
  upsert(input: NewUser): Promise<{ user: UserRecord; created: boolean }>;
  /**
   * Applies `patch`; resolves with the stored user, or undefined (nothing written or queued) if there is none. `notify` is
   * queued atomically with the change (a crash keeps both or neither); `deferWrite`: see `userDeferredWriteMs`.
   */
  update(id: number, patch: UserPatch, options?: { notify?: NewOutboxItem[]; deferWrite?: boolean }): Promise<UserRecord | undefined>;
  /** Marks a user active or inactive (inactive: they blocked the bot; broadcasts skip them). */
  setActive(id: number, active: boolean): Promise<UserRecord | undefined>;
  /** All users (ordered by id), optionally only active or inactive ones. */
  list(filter?: UserFilter): UserRecord[];
  count(filter?: UserFilter): number;
  /** The contract's `transact`: `change` runs on the records in memory and its patches go through the hot file in one write. */
  transact<R>(ids: readonly number[], change: (users: ReadonlyMap<number, UserRecord>) => UsersChange<R>): Promise<R>;
}

/** The longest a change with `deferWrite` (one whose loss costs nothing) waits for its shard's next write: a burst shares them. */
export const userDeferredWriteMs = 10_000;

/**
 * The user records as they are now: a record in the hot file's `pendingUsers` (changed together
 * with the hot file, not yet copied into its shard) wins over its shard's.
 */
export function currentUser({ hot, shards }: RepoContext, id: number): UserRecord | undefined {
  const key = String(id);
  return hot.data.pendingUsers[key] ?? shards.forUser(id).data.users[key];
}

/**
 * Changes user records atomically with a change of the hot file: the new records go into the
 * hot file's `pendingUsers` in the same write as `change`, then into their shards, then leave
 * `pendingUsers`. A crash after the first write leaves them in `pendingUsers`, which the next
 * open copies into the shards; a failed first write undoes both. Resolves once the first write
 * (the one that makes the change durable) is on disk; the copy into the shards is awaited too,
 * but its failure only leaves the records in `pendingUsers` for the next open.
 */
export async function updateWithHot(context: RepoContext, change: (data: HotData) => UserRecord[]): Promise<void> {
  const { hot, copying } = context;
  const written = await hot.update((data) => {
    const users = change(data);
    for (const user of users) data.pendingUsers[String(user.id)] = user;
    return users;
  });
  for (const user of written) copying.set(String(user.id), (copying.get(String(user.id)) ?? 0) + 1);
  await copyPendingUsers(context, written).catch(() => undefined);
}

/**
 * Copies `records` (in the hot file's `pendingUsers`, counted in `copying`) into their shards,
 * then drops them from `pendingUsers`. Until that drop is on disk, the users' changes keep going
 * through the hot file (see `copying`): a plain shard write landing before it would be undone by
 * the copy the next open makes of the older pending record.
 */
export async function copyPendingUsers(context: RepoContext, records: readonly UserRecord[]): Promise<void> {
  const { hot, shards, copying } = context;
  if (records.length === 0) return;
  const done = () => {
    for (const record of records) {
      const key = String(record.id);
      const left = (copying.get(key) ?? 1) - 1;
      if (left > 0) copying.set(key, left);
      else copying.delete(key);
    }
  };
  try {
    await Promise.all(
      records.map((record) =>
        shards.forUser(record.id).update((data) => {
          data.users[String(record.id)] = record;
        }),
      ),
    );
  } catch (error) {
    done();
    throw error;
  }
  // Not awaited by the caller: the change is durable already. A newer pending record of the same
  // user (another object) stays until its own copy is done.
  hot
    .update((data) => {
      for (const record of records) {
        if (data.pendingUsers[String(record.id)] === record) delete data.pendingUsers[String(record.id)];
      }
    })
    .catch(() => undefined)
    .finally(done);
}

export function createUsersRepo(context: RepoContext): UsersRepo {
  const { hot, shards, now } = context;

  /** Stores `next` (a whole user record) in its shard, or through the hot file while a pending copy of it is there. */
  const store = async (next: UserRecord, notify: NewOutboxItem[], deferWrite: boolean): Promise<UserRecord> => {
    const key = String(next.id);
    if (notify.length > 0 || hot.data.pendingUsers[key] || context.copying.has(key)) {
      const at = now();
      const items = notify.map((item) => buildOutboxItem(item, at));
      await updateWithHot(context, (data) => {
        for (const item of items) insertOutboxItem(data, item);
        return [next];
      });
      return next;
    }
    const shard = shards.forUser(next.id);
    if (!deferWrite) return shard.update((data) => (data.users[key] = next));
    // Nobody waits for it: a failed write undoes the change in memory, and the next contact makes it again.
    shard.updateDeferred((data) => (data.users[key] = next), userDeferredWriteMs).written.catch(noop);
    return next;
  };

  const update: UsersRepo['update'] = async (id, patch, options = {}) => {
    const existing = currentUser(context, id);
    if (!existing) return undefined;
    const next = patchedUser(existing, patch);
    const notify = options.notify ?? [];
    if (notify.length === 0 && JSON.stringify(next) === JSON.stringify(existing)) {
      // The caller is told it is stored: so it must be on disk, unless the caller does not wait for that.
      if (options.deferWrite !== true) await Promise.all([shards.forUser(id).flush(), hot.flush()]);
      return copy(existing);
    }
    return copy(await store(next, notify, options.deferWrite === true));
  };

  /**
   * Calls `visit` with every current user record that matches `filter` (the stored objects, not
   * copies: shards, with pending ones in their place), walking the shards in place (for
   * `priceWatchers`, only those that may hold one: a shard not yet parsed stays so).
   */
  const each = (filter: UserFilter | undefined, visit: (user: UserRecord) => void): void => {
    const pending = hot.data.pendingUsers;
    const hasPending = Object.keys(pending).length > 0;
    const walked = filter?.priceWatchers ? shards.withPriceWatchers() : shards.all;
    for (const shard of walked) {
      const users = shard.data.users;
      for (const key in users) {
        const user = (hasPending ? pending[key] : undefined) ?? users[key];
        if (user && matchesUserFilter(user, filter)) visit(user);
      }
    }
    if (!hasPending) return;
    const walkedSet = new Set(walked);
    for (const [key, user] of Object.entries(pending)) {
      const shard = shards.forUser(user.id);
      if (!(walkedSet.has(shard) && shard.data.users[key]) && matchesUserFilter(user, filter)) visit(user);
    }
  };

  return {
    get: (id) => {
      const user = currentUser(context, id);
      return user ? copy(user) : undefined;
    },
    async upsert(input) {
      const existing = currentUser(context, input.id);
      if (existing) {
        const user = (await update(input.id, refreshPatch(input))) ?? copy(existing);
        return { user, created: false };
      }
      const user = newUserRecord(input, now());
      const stored = await shards.forUser(input.id).update((data) => {
        // A concurrent upsert may have created the user meanwhile; keep that one.
        const current = currentUser(context, input.id);
        if (current) return { user: current, created: false };
        data.users[String(input.id)] = user;
        return { user, created: true };
      });
      return { user: copy(stored.user), created: stored.created };
    },
    update,
    setActive: (id, active) => update(id, { active }),
    async transact(ids, change) {
      const current = new Map<number, UserRecord>();
      for (const id of ids) {
        const user = currentUser(context, id);
        if (user) current.set(id, copy(user));
      }
      // Worked out and put into the hot file in one synchronous run: no other change comes between.
      const { patches, notify = [], result } = change(current);
      const changed = patches.flatMap(({ id, patch }) => {
        const existing = currentUser(context, id);
        return existing ? [patchedUser(existing, patch)] : [];
      });
      if (changed.length === 0 && notify.length === 0) {
        // The answer may rest on a change still being written: it is on disk before the caller hears it.
        await Promise.all([...ids.map((id) => shards.forUser(id).flush()), hot.flush()]);
        return result;
      }
      const items = notify.map((item) => buildOutboxItem(item, now()));
      await updateWithHot(context, (data) => {
        for (const item of items) insertOutboxItem(data, item);
        return changed;
      });
      return result;
    },
    list: (filter) => {
      const found: UserRecord[] = [];
      each(filter, (user) => found.push(user));
      return found.sort((a, b) => a.id - b.id).map(copy);
    },
    count: (filter) => {
      const everyone =
        filter?.active === undefined &&
        filter?.priceWatchers === undefined &&
        filter?.uplineId === undefined &&
        filter?.where === undefined;
      if (everyone && Object.keys(hot.data.pendingUsers).length === 0) {
        return shards.all.reduce((n, shard) => n + Object.keys(shard.data.users).length, 0);
      }
      let n = 0;
      each(filter, () => n++);
      return n;
    },
  };
}
