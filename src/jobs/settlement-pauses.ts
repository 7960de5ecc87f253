/**
 * Account pauses of the settlement watcher: when the provider refuses an account's credentials or
 * IP (401/403), or the user disconnected, its re-checks stop until the user connects again.
 */
import type { Db } from '../store/db.ts';
import type { Logger } from '../logger.ts';

const accountProblems = ['credentials', 'ip_blocked', 'not-connected'] as const;

interface AccountPausesOptions {
  db: Db;
  logger: Logger;
  /** Called once per pause; the caller tells the user. */
  onAccountPaused?: (userId: number, reason: string) => void | Promise<void>;
}

/** The accounts whose re-checks are paused, kept in memory and on their user records. */
export class AccountPauses {
  private readonly options: AccountPausesOptions;
  /** Paused accounts and when; also on the user record, so a restart neither re-checks nor tells again. */
  private readonly paused = new Map<number, number>();
  /** Accounts whose pause is being announced and stored right now. */
  private readonly pausing = new Set<number>();

  constructor(options: AccountPausesOptions) {
    this.options = options;
  }

  /**
   * Accounts with checks running, and the read of their stored pause those checks share (or the
   * write of a resume, which their next check waits for). Forgotten when the account's last check
   * ends (`checksEnded`), so it holds the accounts being checked, not every account ever checked.
   */
  private readonly looked = new Map<number, Promise<void>>();

  /**
   * Whether the account's checks wait, its stored pause taken up at the first of its checks that
   * run together (a restart neither re-checks a refused account nor tells its user again; a pause
   * another instance stored is taken up at the next check; a reconnect resumes it next pass).
   */
  async heldAtFirstCheck(userId: number): Promise<boolean> {
    let looked = this.looked.get(userId);
    if (!looked) {
      looked = this.options.db.users.get(userId).then(
        (user) => {
          if (user?.recheckPause && !this.paused.has(userId)) this.paused.set(userId, Date.parse(user.recheckPause.since));
        },
        (error: unknown) => {
          // A failed read (a lost database connection) is made again at the next check, not kept.
          this.looked.delete(userId);
          throw error;
        },
      );
      this.looked.set(userId, looked);
    }
    await looked;
    return this.holds(userId);
  }

  /** The account's last check in flight ended: its next check reads its stored pause again. */
  checksEnded(userId: number): void {
    this.looked.delete(userId);
  }

  /** Whether the account's checks wait: paused, or being paused right now. */
  holds(userId: number): boolean {
    return this.pausing.has(userId) || this.paused.has(userId);
  }

  /** Resumes the paused accounts that were connected again since their pause. */
  async resumeReconnected(): Promise<void> {
    const { db, logger } = this.options;
    for (const [userId, since] of this.paused) {
      const connectedAt = (await db.credentials.info(userId, 'reseller'))?.connectedAt;
      if (!connectedAt || Date.parse(connectedAt) <= since) continue;
      this.paused.delete(userId);
      logger.info('re-checks resumed after reconnect', { userId });
      const stored = db.users.update(userId, { recheckPause: undefined }).then(
        () => undefined,
        (error: unknown) => logger.error('could not store a resumed account', { userId, error }),
      );
      // Its next check waits for the write instead of reading the pause it clears.
      this.looked.set(userId, stored);
    }
  }

  /** Pauses the account once when a check's answer (`message`) blames its credentials, IP or connection. */
  async pauseOn(userId: number, message: string | undefined, now: number): Promise<void> {
    const reason = accountProblems.find((problem) => problem === message);
    if (!reason || this.paused.has(userId) || this.pausing.has(userId)) return;
    this.pausing.add(userId);
    try {
      this.options.logger.warn('re-checks paused for an account', { userId, reason });
      // Told first, stored second: a crash in between tells the user twice rather than never.
      await this.options.onAccountPaused?.(userId, reason);
      await this.options.db.users.update(userId, { recheckPause: { reason, since: new Date(now).toISOString() } });
      this.paused.set(userId, now);
    } finally {
      this.pausing.delete(userId);
    }
  }
}
