/**
 * Days in Western Indonesian Time, the bot's calendar: the periods of /export and /report
 * (calendar days, weeks from Monday, calendar months), the daily summary's hour, /stats' days.
 * Pure: the current time is passed in.
 */
import { wibOffsetMs } from '../domain/wib.ts';

export const exportPeriods = ['today', 'yesterday', 'week', 'month', 'lastmonth'] as const;
export type ExportPeriod = (typeof exportPeriods)[number];

/** The period named `name` (as a button carries it), or undefined. */
export const periodOf = (name: string): ExportPeriod | undefined => exportPeriods.find((known) => known === name);

/** Whole WIB days `from`..`to` (inclusive, `YYYY-MM-DD`) as the instants [start, end). */
export interface DayRange {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

const dayMs = 24 * 3600_000;

/** `YYYY-MM-DD` of a UTC-midnight date (a WIB calendar day held as a UTC date). */
const dayString = (day: Date): string => day.toISOString().slice(0, 10);
const addDays = (day: Date, days: number): Date => new Date(day.getTime() + days * dayMs);

/** The WIB calendar day (`YYYY-MM-DD`) of an instant. */
export const wibDayOf = (at: Date): string => dayString(wibDay(at));

/** The hour (0-23) of `now` in WIB. */
export const wibHourOf = (now: Date): number => new Date(now.getTime() + wibOffsetMs).getUTCHours();

/** 00:00 WIB of the day `daysBack` days before the WIB day of `now`. */
export const startOfWibDay = (now: Date, daysBack = 0): Date => new Date(addDays(wibDay(now), -daysBack).getTime() - wibOffsetMs);

/** Every WIB day `from`..`to` (`YYYY-MM-DD`, inclusive), in order. */
export function daysOf(range: Pick<DayRange, 'from' | 'to'>): string[] {
  const days: string[] = [];
  for (let day = new Date(`${range.from}T00:00:00Z`); dayString(day) <= range.to; day = addDays(day, 1)) days.push(dayString(day));
  return days;
}

/** The WIB calendar day of `now`, as a UTC-midnight date. */
function wibDay(now: Date): Date {
  const shifted = new Date(now.getTime() + wibOffsetMs);
  return new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate()));
}

/** The whole WIB days `from`..`to` (`YYYY-MM-DD`, inclusive). */
export function dayRange(from: string, to: string): DayRange {
  const start = new Date(Date.parse(`${from}T00:00:00Z`) - wibOffsetMs);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) - wibOffsetMs + dayMs);
  return { from, to, start, end };
}

/** The days of a period that contains `now`; periods that are still running end today. */
export function periodRange(period: ExportPeriod, now: Date): DayRange {
  const today = wibDay(now);
  switch (period) {
    case 'today':
      return dayRange(dayString(today), dayString(today));
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return dayRange(dayString(yesterday), dayString(yesterday));
    }
    case 'week': {
      const sinceMonday = (today.getUTCDay() + 6) % 7;
      return dayRange(dayString(addDays(today, -sinceMonday)), dayString(today));
    }
    case 'month':
      return dayRange(dayString(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1))), dayString(today));
    case 'lastmonth': {
      const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
      const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
      return dayRange(dayString(first), dayString(last));
    }
  }
}

const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/;
const slashDay = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** A day typed as `YYYY-MM-DD` or `DD/MM/YYYY` (as `YYYY-MM-DD`), or undefined if it is not a real day. */
export function parseDay(text: string): string | undefined {
  const iso = isoDay.exec(text.trim());
  const slash = iso ? undefined : slashDay.exec(text.trim());
  const parts = iso ? [iso[1], iso[2], iso[3]] : slash ? [slash[3], slash[2], slash[1]] : undefined;
  if (!parts) return undefined;
  const [year, month, day] = parts.map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return dayString(date);
}

/** A range typed by the user: both days whole, or why it is refused. */
export function typedRange(fromText: string, toText: string): DayRange | { error: 'format' | 'order' } {
  const from = parseDay(fromText);
  const to = parseDay(toText);
  if (from === undefined || to === undefined) return { error: 'format' };
  if (from > to) return { error: 'order' };
  return dayRange(from, to);
}
