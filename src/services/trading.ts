/**
 * Whose provider account a user trades through: a connected reseller their own; a downline their
 * upline's, at their level's prices and paid from their wallet. Every feature that reads prices or
 * buys asks here, so a downline is never sent to /connect and never sees the upline's list as it is.
 */
import type { Db } from '../store/db.ts';
import type { DownlineLevel } from '../store/records/users.ts';
import type { CredentialService } from './credentials.ts';
import { levelOf } from './downline-rules.ts';
import { emptySellRules } from './pricing.ts';

/** A user's trading account. */
export type TradingAccount =
  | { kind: 'own'; accountId: number }
  | {
      kind: 'downline';
      /** The upline, whose provider account the downline buys through. */
      accountId: number;
      level: DownlineLevel;
      /** False while the upline has suspended the downline: prices are shown, nothing is bought. */
      active: boolean;
      /** False while the upline's reseller account is not connected (or their downline mode is closed). */
      connected: boolean;
    };

/** Reads trading accounts; writes nothing. */
export class TradingAccounts {
  constructor(private readonly deps: { db: Db; credentials: CredentialService }) {}

  /** The user's trading account; undefined for a user who is neither connected nor anyone's downline. */
  async of(userId: number): Promise<TradingAccount | undefined> {
    const { db, credentials } = this.deps;
    const membership = (await db.users.get(userId))?.membership;
    if (!membership) return (await credentials.has(userId, 'reseller')) ? { kind: 'own', accountId: userId } : undefined;
    const [upline, uplineConnected] = await Promise.all([
      db.users.get(membership.uplineId),
      credentials.has(membership.uplineId, 'reseller'),
    ]);
    const mode = upline?.downlineMode;
    const base = { kind: 'downline', accountId: membership.uplineId, active: membership.status === 'active' } as const;
    if (!mode) return { ...base, level: { id: membership.levelId, name: membership.levelId, rules: emptySellRules() }, connected: false };
    return { ...base, level: levelOf(mode, membership.levelId), connected: uplineConnected };
  }

  /** Whether the user can read prices and buy now (their own account, or a downline whose upline is connected). */
  async canTrade(userId: number): Promise<boolean> {
    const account = await this.of(userId);
    return account !== undefined && (account.kind === 'own' || account.connected);
  }
}
