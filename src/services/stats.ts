import type { ServiceName } from '../domain.ts';
import type { Db } from '../store/db.ts';
import { isFinalStatus, type TransactionRecord } from '../store/records/transactions.ts';
import { startOfWibDay } from './export-periods.ts';

/** Counts of one period's transactions, by how they stand now. */
export interface TransactionStats {
  count: number;
  /** Integer rupiah of the Sukses ones (the money that moved). */
  volume: number;
  /** Sukses. */
  success: number;
  /** Gagal, and Rejected (refused at the first send, never created at the provider). */
  failed: number;
  /** Still open: Created, Pending, or a status the provider reported that is not final. */
  pending: number;
  /** Past the pending horizon, no longer checked. */
  unresolved: number;
}

/** A broadcast being delivered, as the broadcast job reports it (the job plugs in through `StatsDeps.broadcast`). */
export interface BroadcastProgress {
  sent: number;
  total: number;
}

/** What `/stats` shows; every figure is read from the store when asked for. */
export interface Stats {
  users: {
    total: number;
    /** Not blocked the bot. */
    active: number;
    banned: number;
    /** Users with stored credentials, per service. */
    connected: Record<ServiceName, number>;
  };
  /** Created since 00:00 WIB today. */
  today: TransactionStats;
  /** Created since 00:00 WIB six days ago (today and the 6 days before). */
  week: TransactionStats;
  /** Open transactions whose next check is due now (what the settlement watcher has to do). */
  watcherBacklog: number;
  /** Messages waiting in the outbox. */
  outbox: number;
  /** The broadcast being delivered, or undefined for none. */
  broadcast: BroadcastProgress | undefined;
  uptimeMs: number;
}

export interface StatsDeps {
  db: Db;
  now: () => Date;
  /** When this process started (uptime is counted from it). */
  startedAt: Date;
  /** The broadcast in progress, if the broadcast job is wired in; none otherwise. */
  broadcast?: () => Promise<BroadcastProgress | undefined>;
}

/** Sums transactions into the figures `/stats` shows. */
export function summarise(transactions: readonly TransactionRecord[]): TransactionStats {
  const stats: TransactionStats = { count: 0, volume: 0, success: 0, failed: 0, pending: 0, unresolved: 0 };
  for (const tx of transactions) {
    stats.count++;
    if (tx.status === 'Sukses') {
      stats.success++;
      stats.volume += tx.price;
    } else if (tx.status === 'Gagal' || tx.status === 'Rejected') stats.failed++;
    else if (tx.status === 'Unresolved') stats.unresolved++;
    else if (!isFinalStatus(tx.status)) stats.pending++;
  }
  return stats;
}

/** The operator's figures (`/stats`), computed here so the bot only renders them. */
export class StatsService {
  constructor(private readonly deps: StatsDeps) {}

  /** Reads the figures from the store: the hot file, and only the history months of the last 7 days. */
  async collect(): Promise<Stats> {
    const { db } = this.deps;
    const now = this.deps.now();
    const users = await db.users.list();
    const todayStart = startOfWibDay(now).getTime();
    const week = await db.transactions.listCreatedSince(startOfWibDay(now, 6));
    const nowMs = now.getTime();
    return {
      users: {
        total: users.length,
        active: users.filter((user) => user.active).length,
        banned: users.filter((user) => user.ban !== undefined).length,
        connected: await db.credentials.countByService(),
      },
      today: summarise(week.filter((tx) => Date.parse(tx.createdAt) >= todayStart)),
      week: summarise(week),
      watcherBacklog: (await db.transactions.listOpen()).filter((tx) => Date.parse(tx.nextCheckAt ?? tx.createdAt) <= nowMs).length,
      outbox: await db.outbox.size(),
      broadcast: await this.deps.broadcast?.(),
      uptimeMs: Math.max(0, nowMs - this.deps.startedAt.getTime()),
    };
  }
}
