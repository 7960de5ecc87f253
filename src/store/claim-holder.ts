/**
 * What keeps an instance's claims its own while it is alive, however slow its work is: a
 * heartbeat renews every claim it holds (stored updates, due checks, outbox items) well inside
 * the lease, one statement per table, so only the claims of an instance that stopped (died, or
 * was paused) run out and move to another.
 *
 * Each claim is taken under a token, the instance id and an epoch. An instance that finds it
 * could not renew for a whole lease (paused by SIGSTOP or a long GC, or cut off from the
 * database) takes a new epoch: the work it held may belong to another instance by now, so claims
 * under the old token count as lost here. `holds(token)` is asked synchronously before anything is
 * sent under a claim, and every write under one is fenced in the store by the token (0 rows: lost).
 */
import type { Lease } from './contract.ts';

export interface ClaimHolder {
  /** The lease new claims are taken with: the current token as `owner`, the configured length. */
  lease(): Lease;
  /** Whether claims taken under `owner` are still this instance's (its token, renewed within the lease). */
  holds(owner: string): boolean;
  /** One heartbeat: renews every claim of the current token (the timer calls it; tests call it too). */
  beat(): Promise<void>;
  /** Starts the heartbeat (every third of the lease). */
  start(): void;
  /** Stops the heartbeat and waits for a beat in flight. */
  stop(): Promise<void>;
}

/** What work taken under claims needs of the holder: the lease to claim with, and whether a token still holds. */
export type ClaimTokens = Pick<ClaimHolder, 'lease' | 'holds'>;

/**
 * The configuration's `claims` section, passed whole to whatever takes claims: the one length of
 * every claim (CLAIM_LEASE_SECONDS in ms) — stored updates, due checks, outbox items, and the hold
 * the settlement watcher leaves a just-confirmed purchase to its flow.
 */
export interface ClaimsConfig {
  leaseMs: number;
}

/** The claims section's one default: two minutes. */
export const claimDefaults: Readonly<ClaimsConfig> = { leaseMs: 2 * 60_000 };

/**
 * The claims of the process that owns a data directory: nobody else can take them, so a token
 * always holds and nothing renews them (a lease there only says when a crashed run's leftovers
 * are due again).
 */
export function singleProcessClaims(owner: string, claims: ClaimsConfig = claimDefaults): ClaimTokens {
  return { lease: () => ({ owner, ms: claims.leaseMs }), holds: () => true };
}

/** The configuration's claims section, and what the holder needs of its process and store. */
export interface ClaimHolderOptions extends ClaimsConfig {
  instanceId: string;
  /** Extends every claim of `lease.owner` to `lease.ms` from now (the store's `renewLeases`). */
  renew(lease: Lease): Promise<void>;
  /**
   * Monotonic milliseconds the process experienced (default `performance.now`): a pause shows
   * here as a gap, whatever clock the store measures leases with.
   */
  elapsed?: () => number;
  /** A renewal that failed, or a lease that ran out (the claims under it are given up here). */
  onProblem?: (message: string, fields: Record<string, unknown>) => void;
}

export function createClaimHolder(options: ClaimHolderOptions): ClaimHolder {
  const { instanceId, leaseMs } = options;
  const elapsed = options.elapsed ?? (() => performance.now());
  let epoch = 1;
  /** When the last successful renewal started: every claim of the token runs at least a lease from there. */
  let renewedAt = elapsed();
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | undefined;
  const token = () => `${instanceId}:${epoch}`;
  const current = () => elapsed() - renewedAt < leaseMs;

  const beat = async () => {
    const startedAt = elapsed();
    if (startedAt - renewedAt >= leaseMs) {
      // Claims under the old token may have moved: they are not renewed (nor fenced writes made) any more.
      options.onProblem?.('claims not renewed for a whole lease (paused, or the database unreachable): given up here', {
        lostToken: token(),
        sinceMs: Math.round(startedAt - renewedAt),
      });
      epoch += 1;
      renewedAt = startedAt;
    }
    const owner = token();
    try {
      await options.renew({ owner, ms: leaseMs });
      if (owner === token()) renewedAt = Math.max(renewedAt, startedAt);
    } catch (error) {
      options.onProblem?.('renewing the claims failed; tried again at the next heartbeat', { error });
    }
  };

  return {
    lease: () => ({ owner: token(), ms: leaseMs }),
    holds: (owner) => owner === token() && current(),
    beat: () => (beating ??= beat().finally(() => (beating = undefined))),
    start() {
      timer ??= setInterval(() => void (beating ??= beat().finally(() => (beating = undefined))), Math.max(50, leaseMs / 3));
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await beating;
    },
  };
}
