/**
 * Western Indonesian Time, the bot's clock for every day and hour it shows or counts (the
 * calendar itself is services/export-periods.ts; renderers only shift an instant into it).
 */

/** Western Indonesian Time is UTC+7 all year (no daylight saving). */
export const wibOffsetMs = 7 * 3600_000;
