import type { Logger } from '../logger.ts';
import type { ServiceName } from '../domain.ts';
import type { Db } from '../store/db.ts';
import type { CredentialInfo } from '../store/records/credentials.ts';
import type { TransactionRecord } from '../store/records/transactions.ts';
import type { UserRecord } from '../store/records/users.ts';

/** What /user shows of a user: the record, the connected services (labels and dates, never the secrets), the last purchases. */
export interface UserProfile {
  user: UserRecord;
  services: CredentialInfo[];
  /** The user's newest transactions, open and settled, newest first. */
  recent: TransactionRecord[];
}

/** Why a ban or unban changed nothing. */
export type BanRefusal = 'not-found' | 'admin' | 'already-banned' | 'not-banned';

export type BanResult = { ok: true; user: UserRecord } | { ok: false; reason: BanRefusal; user?: UserRecord };

export interface UserAdminDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  /** ADMIN_IDS: they can never be banned. */
  adminIds: readonly number[];
}

/** The admins' user management: /user, /ban, /unban. */
export interface UserAdminService {
  /** A user by numeric id, or by `@username` / `username` (any letter case); undefined if unknown. */
  find(query: string): Promise<UserRecord | undefined>;
  /** The profile of a stored user, with their last `limit` (default 5) transactions. */
  profile(userId: number, limit?: number): Promise<UserProfile | undefined>;
  /**
   * Bans a user: stored on their record (`ban`), logged. An admin, an unknown user or one already
   * banned is refused. The caller tells the user once (through the outbox).
   */
  ban(userId: number, adminId: number): Promise<BanResult>;
  /** Lifts a ban (stored and logged); refused for an unknown user or one not banned. */
  unban(userId: number, adminId: number): Promise<BanResult>;
  /** Records that the user was told of the ban made at `banAt` (not of a later one, nor after an unban). */
  banNotified(userId: number, banAt: string): Promise<void>;
}

export function createUserAdminService(deps: UserAdminDeps): UserAdminService {
  const { db, logger } = deps;
  return {
    async find(query) {
      const text = query.trim();
      if (/^-?\d+$/.test(text)) return db.users.get(Number(text));
      const name = text.replace(/^@/, '').toLowerCase();
      if (name === '') return undefined;
      return (await db.users.list()).find((user) => user.username?.toLowerCase() === name);
    },
    async profile(userId, limit = 5) {
      const user = await db.users.get(userId);
      if (!user) return undefined;
      const services = (
        await Promise.all((await db.credentials.listServices(userId)).map((service: ServiceName) => db.credentials.info(userId, service)))
      ).filter((info) => info !== undefined);
      const recent = await db.transactions.listByUser(userId, { limit });
      return { user, services, recent };
    },
    async ban(userId, adminId) {
      const user = await db.users.get(userId);
      if (!user) return { ok: false, reason: 'not-found' };
      if (deps.adminIds.includes(userId)) return { ok: false, reason: 'admin', user };
      if (user.ban) return { ok: false, reason: 'already-banned', user };
      const banned = await db.users.update(userId, { ban: { at: deps.now().toISOString(), by: adminId } });
      if (!banned) return { ok: false, reason: 'not-found' };
      logger.info('user banned', { userId, adminId });
      return { ok: true, user: banned };
    },
    async banNotified(userId, banAt) {
      const ban = (await db.users.get(userId))?.ban;
      if (ban?.at === banAt) await db.users.update(userId, { ban: { ...ban, notified: true } });
    },
    async unban(userId, adminId) {
      const user = await db.users.get(userId);
      if (!user) return { ok: false, reason: 'not-found' };
      if (!user.ban) return { ok: false, reason: 'not-banned', user };
      const lifted = await db.users.update(userId, { ban: undefined });
      if (!lifted) return { ok: false, reason: 'not-found' };
      logger.info('user unbanned', { userId, adminId });
      return { ok: true, user: lifted };
    },
  };
}
