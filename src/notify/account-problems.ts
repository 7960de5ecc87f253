import type { AccountProblem } from '../providers/factory.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { Logger } from '../logger.ts';
import type { Burst, OperatorFeed } from './operator-feed.ts';

export interface AccountProblemReporterOptions {
  /** The operator-feed items for a problem (none without ADMIN_CHAT_ID); with `burst`, the grouped line. */
  operatorItems: (problem: AccountProblem, burst?: Burst) => NewOutboxItem[];
  /**
   * Groups bursts: many accounts refused the same way at once (the provider blocked the server's
   * IP) make one line and then one count per window, not a line per account. Without it every
   * report is queued directly.
   */
  feed?: OperatorFeed;
  enqueue: (items: NewOutboxItem[]) => Promise<void>;
  logger: Logger;
  now: () => Date;
  /** The same user, service and kind is reported at most once per this window. Default 1 h. */
  windowMs?: number;
}

/**
 * Tells the operator feed when a provider refuses a stored account (401/403), at most once per
 * user, service and kind per window (in memory: after a restart it is reported again, read as
 * "still broken"), so ten taps on /saldo or fifty re-checks make one line.
 */
export function createAccountProblemReporter(options: AccountProblemReporterOptions): (problem: AccountProblem) => void {
  const windowMs = options.windowMs ?? 60 * 60_000;
  const lastReported = new Map<string, number>();
  return (problem) => {
    const key = `${problem.userId}:${problem.service}:${problem.kind}`;
    const now = options.now().getTime();
    if (now - (lastReported.get(key) ?? -Infinity) < windowMs) return;
    lastReported.set(key, now);
    options.logger.warn('provider refused a stored account', { ...problem });
    if (options.feed) {
      options.feed.report(`account-problem:${problem.service}:${problem.kind}`, (burst) => options.operatorItems(problem, burst));
      return;
    }
    options
      .enqueue(options.operatorItems(problem))
      .catch((error: unknown) => options.logger.error('could not queue an account problem for the operator', { error }));
  };
}
