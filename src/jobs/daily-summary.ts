import type { Logger } from '../logger.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { UserRecord } from '../store/records/users.ts';
import type { Db } from '../store/db.ts';
import { fleetLocks } from '../store/fleet-locks.ts';
import { wibDayOf, type DayRange } from '../services/export-periods.ts';
import { isSummaryDue, summaryRange } from '../services/daily-summary.ts';

export interface DailySummaryJob {
  /** Queues the summary of every user due now; resolves how many were queued. One pass at a time. */
  runOnce(): Promise<number>;
}

interface DailySummaryDeps {
  db: Db;
  now: () => Date;
  logger: Logger;
  /** The summary message of `user` for the WIB days of `range` (the report, in their language). */
  summary: (user: UserRecord, range: DayRange) => Promise<NewOutboxItem>;
  /** Wakes the outbox after something was queued. */
  onQueued?: () => void;
}

/**
 * The daily summary pass (run every minute): each opted-in user whose WIB hour has come and who got
 * no summary today is sent yesterday's report. It is queued and the day marked sent in one write
 * (users.update with `notify`), so a crash neither repeats nor drops it; a bot down at the hour
 * sends it when it is back, the same day.
 */
export function createDailySummaryJob(deps: DailySummaryDeps): DailySummaryJob {
  const { db, logger } = deps;
  let pass: Promise<number> | undefined;

  /** Queues the due summaries; stops early if the pass's fleet lock goes (`held`: another instance may take the pass). */
  async function queueDue(held?: AbortSignal): Promise<number> {
    let queued = 0;
    // Only the opted-in users are copied out of the store: a full list of a large store blocks the
    // event loop (bench/README.md, store-scale.ts, copying the users).
    for (const candidate of await db.users.list({ active: true, where: (user) => user.dailySummary !== undefined })) {
      if (held?.aborted) break;
      const now = deps.now();
      if (!isSummaryDue(candidate, now)) continue;
      try {
        const item = await deps.summary(candidate, summaryRange(now));
        // Read again after the report was built: the user may have turned it off meanwhile.
        const user = await db.users.get(candidate.id);
        if (!user?.dailySummary || !isSummaryDue(user, now)) continue;
        await db.users.update(
          user.id,
          { dailySummary: { ...user.dailySummary, lastSent: wibDayOf(now) } },
          { notify: [{ ...item, dedupeKey: `summary:${user.id}:${wibDayOf(now)}` }] },
        );
        queued++;
      } catch (error) {
        logger.warn('daily summary not queued; the next pass tries again', { userId: candidate.id, error });
      }
    }
    if (queued > 0) deps.onQueued?.();
    return queued;
  }

  return {
    runOnce() {
      // One instance's pass at a time over a shared store: the next one sees the days marked sent.
      pass ??= db.chatLocks.run(fleetLocks.dailySummary, queueDue).finally(() => (pass = undefined));
      return pass;
    },
  };
}
