/**
 * The opt-in daily summary: at the WIB hour a reseller picked, yesterday's report (the whole WIB
 * day before, so its figures are final), once per day. Always yesterday, whatever the hour: a
 * report of "today so far" would change meaning with the hour picked and be incomplete.
 */
import type { Db } from '../store/db.ts';
import type { UserRecord } from '../store/records/users.ts';
import { periodRange, wibDayOf, wibHourOf, type DayRange } from './export-periods.ts';

/** The period a summary sent at `now` reports: yesterday (WIB). */
export const summaryRange = (now: Date): DayRange => periodRange('yesterday', now);

/** Whether `user` gets their summary at `now`: opted in, active, not banned, the hour reached and not sent today (WIB). */
export function isSummaryDue(user: UserRecord, now: Date): boolean {
  const summary = user.dailySummary;
  if (!summary || !user.active || user.ban) return false;
  return wibHourOf(now) >= summary.hour && summary.lastSent !== wibDayOf(now);
}

/**
 * Turns the daily summary on at `hour` (WIB), or off (`undefined`). An hour already past today
 * counts as sent today, so the first summary comes at that hour tomorrow rather than at once.
 * Resolves the stored user, or undefined if there is no such user.
 */
export async function setSummaryHour(db: Db, userId: number, hour: number | undefined, now: Date): Promise<UserRecord | undefined> {
  if (hour === undefined) return db.users.update(userId, { dailySummary: undefined });
  const lastSent = wibHourOf(now) > hour ? wibDayOf(now) : undefined;
  return db.users.update(userId, { dailySummary: lastSent ? { hour, lastSent } : { hour } });
}
