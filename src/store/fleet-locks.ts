/**
 * Work of which one instance at a time does a pass, when several share the store: each takes the
 * store's lock of a reserved chat id (`chatLocks.run`; no Telegram chat has these ids) for its
 * pass, so a second instance's pass comes after and sees what the first one stored.
 */
export const fleetLocks = {
  /** Delivering the running broadcast (held for the whole job, see src/jobs/broadcast.ts). */
  broadcast: 0,
  /** A pass of the daily summaries (it marks each user's day sent as it queues it). */
  dailySummary: Number.MAX_SAFE_INTEGER,
  /** A pass over the balance alerts (it disarms each alert as it queues it). */
  balanceAlerts: Number.MAX_SAFE_INTEGER - 1,
} as const;
