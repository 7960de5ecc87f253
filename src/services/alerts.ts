import type { Db } from '../store/db.ts';
import { fleetLocks } from '../store/fleet-locks.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import { downlineRefusalAlertMs } from '../store/records/transactions.ts';
import type { Logger } from '../logger.ts';
import type { CredentialService } from './credentials.ts';
import { createKeyedQueue } from '../queue.ts';

export interface AlertServiceDeps {
  db: Db;
  credentials: CredentialService;
  logger: Logger;
  /** Builds the alert message for the outbox. */
  lowBalanceNotice: (userId: number, balance: number, threshold: number) => Promise<NewOutboxItem>;
  /** Wakes the outbox after something was queued. */
  onQueued?: () => void;
}

/** Low-balance alerts: each user's threshold, armed until a crossing below it is announced. */
export class AlertService {
  /** One check per user at a time: two purchases finishing together must not alert twice. */
  private readonly turns = createKeyedQueue<number>();

  constructor(private readonly deps: AlertServiceDeps) {}

  /** Sets the user's threshold (armed: the next crossing below it is announced) and checks it at once. */
  async set(userId: number, threshold: number): Promise<void> {
    await this.deps.db.users.update(userId, { alertThreshold: threshold, alertArmed: true });
    await this.check(userId);
  }

  /** Removes the user's threshold: no alert any more. */
  async remove(userId: number): Promise<void> {
    await this.deps.db.users.update(userId, { alertThreshold: undefined, alertArmed: undefined });
  }

  /**
   * Reads the user's balance and compares it with their threshold. Below it while armed: queues
   * one alert and disarms. At or above it: re-arms. So each crossing is announced once, however
   * often this runs. Provider errors are logged and ignored (the next check tries again).
   */
  check(userId: number): Promise<void> {
    return this.turns.run(userId, () => this.checkNow(userId));
  }

  /**
   * Marks that the upline was just alerted that their account refuses their downlines' purchases
   * (the alert itself goes out with the refusal's settlement, in its commit: notices.ts): the next
   * refusals within the hour alert no more. A crash before this mark may let one more through.
   */
  downlineRefusalAlerted(uplineId: number, at: Date): Promise<void> {
    return this.turns.run(uplineId, async () => {
      const last = (await this.deps.db.users.get(uplineId))?.downlineRefusalAlertAt;
      if (last !== undefined && at.getTime() - Date.parse(last) < downlineRefusalAlertMs) return;
      await this.deps.db.users.update(uplineId, { downlineRefusalAlertAt: at.toISOString() });
    });
  }

  /** Checks every user with a threshold (the periodic job). */
  checkAll(): Promise<void> {
    const { db } = this.deps;
    // One instance's pass at a time over a shared store: the next one sees the alerts disarmed.
    return db.chatLocks.run(fleetLocks.balanceAlerts, async (held) => {
      for (const user of await db.users.list({ active: true, where: (candidate) => candidate.alertThreshold !== undefined })) {
        // The pass's fleet lock went with its connection: another instance may run the pass now.
        if (held.aborted) break;
        await this.check(user.id);
      }
    });
  }

  private async checkNow(userId: number): Promise<void> {
    const { db, logger } = this.deps;
    const user = await db.users.get(userId);
    if (!user || user.alertThreshold === undefined || !user.active) return;
    const client = await this.deps.credentials.client(userId, 'reseller');
    if (!client) return;
    let balance: number;
    try {
      balance = await client.balance();
    } catch (error) {
      logger.warn('balance alert check failed', { userId, error });
      return;
    }
    const threshold = user.alertThreshold;
    const armed = user.alertArmed !== false;
    if (balance < threshold && armed) {
      await db.outbox.enqueue(await this.deps.lowBalanceNotice(userId, balance, threshold));
      await db.users.update(userId, { alertArmed: false });
      this.deps.onQueued?.();
    } else if (balance >= threshold && !armed) {
      await db.users.update(userId, { alertArmed: true });
    }
  }
}
