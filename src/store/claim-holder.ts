/**
 * Keeps an instance's claims its own while it is alive, however slow: a heartbeat renews them
 * well inside the lease, so only a stopped (dead or paused) instance's claims move. Claims are
 * taken under a token (instance id and epoch); one that could not renew for a whole lease takes a
 * new epoch, its old claims lost here. `holds(token)` is asked before anything is sent under a
 * claim, and every write under one is fenced by the token in the store. A fleet instance on the
 * real clock runs it on a thread of its own (pg/heartbeat-thread.ts, the same rules).
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

/** The configuration's `claims` section: the one length of every claim (CLAIM_LEASE_SECONDS in ms). */
export interface ClaimsConfig {
  leaseMs: number;
}

/** The claims section's one default: two minutes. */
export const claimDefaults: Readonly<ClaimsConfig> = { leaseMs: 2 * 60_000 };

/** The claims of the process owning a data directory: nobody else takes them, so a token always holds and nothing renews. */
export function singleProcessClaims(owner: string, claims: ClaimsConfig = claimDefaults): ClaimTokens {
  return { lease: () => ({ owner, ms: claims.leaseMs }), holds: () => true };
}

/** The configuration's claims section, and what the holder needs of its process and store. */
export interface ClaimHolderOptions extends ClaimsConfig {
  instanceId: string;
  /** Extends every claim of `lease.owner` to `lease.ms` from now (the store's `renewLeases`). */
  renew(lease: Lease): Promise<void>;
  /** Monotonic ms the process experienced (default `performance.now`): a pause shows as a gap, whatever the store's clock. */
  elapsed?: () => number;
  /** A renewal that failed, or a lease that ran out (the claims under it are given up here). */
  onProblem?: (message: string, fields: Record<string, unknown>) => void;
  /** The first token's epoch (default 1): a holder taking over from another starts past the tokens it used. */
  epoch?: number;
}

/** A claim holder whose heartbeat is a timer on this thread (see the module comment). */
export function createClaimHolder(options: ClaimHolderOptions): ClaimHolder {
  const { instanceId, leaseMs } = options;
  const elapsed = options.elapsed ?? (() => performance.now());
  let epoch = options.epoch ?? 1;
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
