import type { Db } from '../store/db.ts';
import { fleetLocks } from '../store/fleet-locks.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { Logger } from '../logger.ts';
import type { CredentialService } from './credentials.ts';
import { createKeyedQueue } from '../queue.ts';

export interface AlertServiceDeps {
  db: Db;
  credentials: CredentialService;
  logger: Logger;
  /** Builds the alert message for the outbox. */
  lowBalanceNotice: (userId: number, balance: number, threshold: number) => Promise<NewOutboxItem>;
  /** Tells an upline their account refused a downline's purchase. */
  downlineRefusedNotice?: (uplineId: number, kind: string) => Promise<NewOutboxItem>;
  now?: () => Date;
  /** Wakes the outbox after something was queued. */
  onQueued?: () => void;
}

/** An upline is told at most once in this long that their account refuses their downlines' purchases. */
export const downlineRefusalAlertMs = 3600_000;

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
   * A downline's purchase was refused by the upline's account (`kind`: its balance, credentials or
   * IP): the upline is told, once an hour at most however many purchases are refused (the
   * downline was told only that the product is unavailable for now).
   */
  downlineRefused(uplineId: number, kind: string): Promise<void> {
    return this.turns.run(uplineId, async () => {
      const { db, downlineRefusedNotice } = this.deps;
      const now = (this.deps.now ?? (() => new Date()))();
      const last = (await db.users.get(uplineId))?.downlineRefusalAlertAt;
      if (!downlineRefusedNotice || (last !== undefined && now.getTime() - Date.parse(last) < downlineRefusalAlertMs)) return;
      // Queued first: a crash before the mark may alert twice, never not at all.
      await db.outbox.enqueue(await downlineRefusedNotice(uplineId, kind));
      await db.users.update(uplineId, { downlineRefusalAlertAt: now.toISOString() });
      this.deps.onQueued?.();
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
