import { copy, validated, withPatch, type RepoContext } from './context.ts';
import type { Locale } from '../domain.ts';
import { userSchema, type UserRecord } from './schema.ts';

/** What Telegram tells us about a user on first contact. */
export interface NewUser {
  id: number;
  firstName: string;
  username?: string | undefined;
  locale?: Locale | undefined;
}

/** Changeable fields of a user; a field set to `undefined` is removed. */
export type UserPatch = Partial<Omit<UserRecord, 'id' | 'createdAt'>>;

/** Filter for list and count. */
export interface UserFilter {
  active?: boolean;
}

/** Bot users, keyed by Telegram user id. Display names are stored in plain text; no secrets here. */
export interface UsersRepo {
  /** The user, or undefined if they never wrote to the bot. */
  get(id: number): UserRecord | undefined;
  /**
   * Creates the user (active) on first contact, or refreshes their first name, username and (if
   * given) locale. Resolves once stored.
   */
  upsert(input: NewUser): Promise<{ user: UserRecord; created: boolean }>;
  /** Applies `patch`; resolves with the stored user, or undefined (nothing written) if there is no such user. */
  update(id: number, patch: UserPatch): Promise<UserRecord | undefined>;
  /** Marks a user active or inactive (inactive: they blocked the bot; broadcasts skip them). */
  setActive(id: number, active: boolean): Promise<UserRecord | undefined>;
  /** All users (ordered by id), optionally only active or inactive ones. */
  list(filter?: UserFilter): UserRecord[];
  /** How many users match `filter`. */
  count(filter?: UserFilter): number;
}

export function createUsersRepo({ hot, now }: RepoContext): UsersRepo {
  const matches = (user: UserRecord, filter: UserFilter | undefined) => filter?.active === undefined || user.active === filter.active;

  const update: UsersRepo['update'] = async (id, patch) => {
    const existing = hot.data.users[String(id)];
    if (!existing) return undefined;
    const { id: _id, createdAt: _createdAt, ...changes } = patch as UserPatch & Partial<Pick<UserRecord, 'id' | 'createdAt'>>;
    const next = validated(userSchema, withPatch(existing, changes), 'user');
    if (JSON.stringify(next) === JSON.stringify(existing)) {
      await hot.flush();
      return copy(existing);
    }
    return copy(await hot.update((data) => (data.users[String(id)] = next)));
  };

  return {
    get: (id) => {
      const user = hot.data.users[String(id)];
      return user ? copy(user) : undefined;
    },
    async upsert(input) {
      const existing = hot.data.users[String(input.id)];
      if (existing) {
        const patch: UserPatch = { firstName: input.firstName, username: input.username };
        if (input.locale !== undefined) patch.locale = input.locale;
        const user = (await update(input.id, patch)) ?? copy(existing);
        return { user, created: false };
      }
      const user = validated(
        userSchema,
        withPatch(
          { id: input.id, firstName: input.firstName, active: true, createdAt: now().toISOString() },
          {
            username: input.username,
            locale: input.locale,
          },
        ),
        'user',
      );
      const stored = await hot.update((data) => {
        // A concurrent upsert may have created the user meanwhile; keep that one.
        const current = data.users[String(input.id)];
        if (current) return { user: current, created: false };
        data.users[String(input.id)] = user;
        return { user, created: true };
      });
      return { user: copy(stored.user), created: stored.created };
    },
    update,
    setActive: (id, active) => update(id, { active }),
    list: (filter) =>
      Object.values(hot.data.users)
        .filter((user) => matches(user, filter))
        .map(copy),
    count: (filter) => {
      if (filter?.active === undefined) return Object.keys(hot.data.users).length;
      let n = 0;
      for (const user of Object.values(hot.data.users)) if (matches(user, filter)) n++;
      return n;
    },
  };
}
