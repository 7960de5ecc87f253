/**
 * Leadership: of the instances sharing a store, one delivers the running broadcast. It holds the
 * store's lock of `fleetLocks.broadcast` while it does (PostgreSQL: an advisory lock on its own
 * connection); the others wait for it, and when the leader dies its connection (and so the lock)
 * goes, and the next one resumes the job from its recorded progress.
 */
import type { Db } from '../store/db.ts';
import { fleetLocks } from '../store/fleet-locks.ts';

/** This instance's hold on the broadcast lock: taken before delivering, given up when there is nothing to deliver. */
export class BroadcastLeadership {
  private readonly db: Db;
  /** Called when the lock went with its database connection, just before the hold ends. */
  private readonly onLost: () => void;
  /** Ends the hold (resolves the lock's critical section); set while this instance leads. */
  private leadership: (() => void) | undefined;
  private acquiring: Promise<boolean> | undefined;
  /** Closed at shutdown: no lead is taken again, not even by a step that was waiting for the lock. */
  private closed = false;

  constructor(db: Db, onLost: () => void) {
    this.db = db;
    this.onLost = onLost;
  }

  /** Resolves true once this instance leads (at once when it does already), false once closed. */
  lead(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.leadership) return Promise.resolve(true);
    this.acquiring ??= new Promise<boolean>((acquired, failed) => {
      this.db.chatLocks
        .run(
          fleetLocks.broadcast,
          (held) =>
            new Promise<void>((release) => {
              if (this.closed) {
                release();
                acquired(false);
                return;
              }
              this.leadership = release;
              // The lock went with its database connection: another instance may lead now, so no
              // more deliveries are handed out here; the next wake takes the lock again and resumes
              // from the recorded progress.
              held.addEventListener(
                'abort',
                () => {
                  this.onLost();
                  release();
                },
                { once: true },
              );
              acquired(true);
            }),
        )
        .catch(failed)
        .finally(() => {
          this.leadership = undefined;
          this.acquiring = undefined;
        });
    });
    return this.acquiring;
  }

  /** Gives the lock up (nothing when this instance does not lead). */
  resign(): void {
    this.leadership?.();
  }

  /** Gives the lock up for good (shutdown): a lead asked for later, or still waiting, is refused. */
  close(): void {
    this.closed = true;
    this.resign();
  }
}
