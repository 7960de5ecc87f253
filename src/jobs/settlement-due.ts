/**
 * Picking the settlement watcher's due checks: the orphans a crash left `Created`, then what the
 * transactions' due-time index says is due, claimed so that no other instance checks them too.
 */
import type { ClaimTokens } from '../store/claim-holder.ts';
import type { Db } from '../store/db.ts';
import { accountOf, type TransactionRecord } from '../store/records/transactions.ts';

/** A check to make; `owner` is the claim it was taken under (none for this process's own orphans). */
interface DueCheck {
  tx: TransactionRecord;
  owner?: string;
}

interface DueChecksOptions {
  db: Db;
  claims: ClaimTokens;
  /** Checks being made right now, by ref id: not picked again. */
  inFlight: ReadonlyMap<string, unknown>;
  /** Room for more calls of this account now: 0 while it is paused or at its bound. */
  roomOf: (userId: number) => number;
}

/** Chooses which due transactions to check next. */
export class DueChecks {
  private readonly options: DueChecksOptions;
  /** Still `Created` at start: their sender died with the previous process, so they are due at once. */
  private readonly orphaned = new Set<string>();

  constructor(options: DueChecksOptions) {
    this.options = options;
  }

  /** Counts a transaction found `Created` at start as an orphan. */
  addOrphan(refId: string): void {
    this.orphaned.add(refId);
  }

  /**
   * The orphans first, then what the due-time index says is due, up to `free`, claimed under one
   * lease. An account that cannot take a call now (paused, at its bound) is skipped, not waited for.
   */
  async pick(now: number, free: number): Promise<DueCheck[]> {
    const { db, claims, inFlight } = this.options;
    const room = new Map<number, number>();
    const roomLeft = (userId: number) => room.get(userId) ?? this.options.roomOf(userId);
    const picked = await this.orphans(free, room, roomLeft);
    const chosen = new Set(picked.map((tx) => tx.refId));
    const lease = claims.lease();
    const more = await db.transactions.claimDue(now, {
      limit: free - picked.length,
      lease,
      room: roomLeft,
      skip: (refId) => inFlight.has(refId) || chosen.has(refId),
    });
    // Orphans are this process's own (one process owns the data directory): no claim to lose.
    return [...picked.map((tx) => ({ tx })), ...more.map((tx) => ({ tx, owner: lease.owner }))];
  }

  /** The orphans still `Created` that fit the free slots and their accounts' room (taken from `room`); one no longer `Created` is forgotten. */
  private async orphans(free: number, room: Map<number, number>, roomLeft: (userId: number) => number): Promise<TransactionRecord[]> {
    const picked: TransactionRecord[] = [];
    for (const refId of this.orphaned) {
      if (picked.length >= free) break;
      const tx = await this.options.db.transactions.get(refId);
      if (tx?.status !== 'Created') this.orphaned.delete(refId);
      else if (!this.options.inFlight.has(refId) && roomLeft(accountOf(tx)) > 0) {
        picked.push(tx);
        room.set(accountOf(tx), roomLeft(accountOf(tx)) - 1);
      }
    }
    return picked;
  }
}
