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
export class UserAdminService {
  constructor(private readonly deps: UserAdminDeps) {}

  /** A user by numeric id, or by `@username` / `username` (any letter case); undefined if unknown. */
  async find(query: string): Promise<UserRecord | undefined> {
    const { db } = this.deps;
    const text = query.trim();
    if (/^-?\d+$/.test(text)) return db.users.get(Number(text));
    const name = text.replace(/^@/, '').toLowerCase();
    if (name === '') return undefined;
    return (await db.users.list()).find((user) => user.username?.toLowerCase() === name);
  }

  /** The profile of a stored user, with their last `limit` (default 5) transactions. */
  async profile(userId: number, limit = 5): Promise<UserProfile | undefined> {
    const { db } = this.deps;
    const user = await db.users.get(userId);
    if (!user) return undefined;
    const services = (
      await Promise.all((await db.credentials.listServices(userId)).map((service: ServiceName) => db.credentials.info(userId, service)))
    ).filter((info) => info !== undefined);
    const recent = await db.transactions.listByUser(userId, { limit });
    return { user, services, recent };
  }

  /**
   * Bans a user: stored on their record (`ban`), logged. An admin, an unknown user or one already
   * banned is refused. The caller tells the user once (through the outbox).
   */
  async ban(userId: number, adminId: number): Promise<BanResult> {
    const { db, logger } = this.deps;
    const user = await db.users.get(userId);
    if (!user) return { ok: false, reason: 'not-found' };
    if (this.deps.adminIds.includes(userId)) return { ok: false, reason: 'admin', user };
    if (user.ban) return { ok: false, reason: 'already-banned', user };
    const banned = await db.users.update(userId, { ban: { at: this.deps.now().toISOString(), by: adminId } });
    if (!banned) return { ok: false, reason: 'not-found' };
    logger.info('user banned', { userId, adminId });
    return { ok: true, user: banned };
  }

  /** Records that the user was told of the ban made at `banAt` (not of a later one, nor after an unban). */
  async banNotified(userId: number, banAt: string): Promise<void> {
    const { db } = this.deps;
    const ban = (await db.users.get(userId))?.ban;
    if (ban?.at === banAt) await db.users.update(userId, { ban: { ...ban, notified: true } });
  }

  /** Lifts a ban (stored and logged); refused for an unknown user or one not banned. */
  async unban(userId: number, adminId: number): Promise<BanResult> {
    const { db, logger } = this.deps;
    const user = await db.users.get(userId);
    if (!user) return { ok: false, reason: 'not-found' };
    if (!user.ban) return { ok: false, reason: 'not-banned', user };
    const lifted = await db.users.update(userId, { ban: undefined });
    if (!lifted) return { ok: false, reason: 'not-found' };
    logger.info('user unbanned', { userId, adminId });
    return { ok: true, user: lifted };
  }
}
