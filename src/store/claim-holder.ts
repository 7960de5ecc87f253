/**
 * Keeps an instance's claims its own while it is alive, however slow. Two things hold them: a
 * heartbeat renews them well inside the lease, and the store's liveness of the claim token (on
 * PostgreSQL a session advisory lock, which ends only with the process, its connection, or the
 * server's keepalive giving up on a vanished machine) keeps them from moving even when the
 * heartbeat came late. Claims are taken under a token (instance id and epoch). A heartbeat a lease
 * late (the event loop starved, SIGSTOP) asks the store whether the token's liveness held
 * meanwhile: if it did, nothing moved and the same token carries on; if it did not (or the store
 * cannot say, or there is no liveness), the holder takes a new epoch and its old claims are lost
 * here. `holds(token)` is asked before anything is sent under a claim, and every write under one
 * is fenced by the token in the store.
 */
import type { Lease, Liveness } from './contract.ts';

export interface ClaimHolder {
  /** The lease new claims are taken with: the current token as `owner`, the configured length. */
  lease(): Lease;
  /**
   * Whether claims taken under `owner` are still this instance's: its current token, renewed within
   * the lease, or (renewed longer ago) its liveness confirmed by a heartbeat run now.
   */
  holds(owner: string): Promise<boolean>;
  /** One heartbeat: renews every claim of the current token and confirms its liveness (the timer calls it; tests call it too). */
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
  return { lease: () => ({ owner, ms: claims.leaseMs }), holds: () => Promise.resolve(true) };
}

/** The configuration's claims section, and what the holder needs of its process and store. */
export interface ClaimHolderOptions extends ClaimsConfig {
  instanceId: string;
  /** Extends every claim of `lease.owner` to `lease.ms` from now (the store's `renewLeases`). */
  renew(lease: Lease): Promise<void>;
  /** The store's liveness of claim tokens (`StoreEngine.liveness`). Without one a heartbeat a lease late cannot tell slow from lost, and gives the claims up. */
  liveness?: Liveness;
  /** Monotonic ms the process experienced (default `performance.now`): a pause shows as a gap, whatever the store's clock. */
  elapsed?: () => number;
  /** A renewal that failed, a lease that ran out (its claims kept by the liveness, or given up here), a liveness not taken. */
  onProblem?: (message: string, fields: Record<string, unknown>) => void;
}

export function createClaimHolder(options: ClaimHolderOptions): ClaimHolder {
  const { instanceId, leaseMs, liveness } = options;
  const elapsed = options.elapsed ?? (() => performance.now());
  const problem = options.onProblem ?? (() => undefined);
  let epoch = 1;
  /** When the last confirmed renewal started: every claim of the token runs at least a lease from there. */
  let renewedAt = elapsed();
  /** The token whose liveness the store holds (once `hold` resolved). */
  let live: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | undefined;
  const token = () => `${instanceId}:${epoch}`;
  const current = (owner: string) => owner === token() && elapsed() - renewedAt < leaseMs;

  /** Takes the current token's liveness if it is not held yet; a failure is tried again at the next heartbeat. */
  const holdLiveness = async () => {
    const owner = token();
    if (!liveness || live === owner) return;
    try {
      await liveness.hold(owner);
      if (owner === token()) live = owner;
      else await liveness.release(owner);
    } catch (error) {
      problem('taking the liveness of the claims failed; tried again at the next heartbeat', { error });
    }
  };

  /** The claims under `lost` may move (or have moved): a new token from now, the old one's liveness given up. */
  const giveUp = async (lost: string, at: number, message: string) => {
    problem(message, { lostToken: lost, sinceMs: Math.round(at - renewedAt) });
    epoch += 1;
    renewedAt = at;
    if (live === lost) live = undefined;
    // Its claims move once their lease ran out (a connection that went has released it already).
    await liveness?.release(lost).catch(() => undefined);
    await holdLiveness();
  };

  const beat = async () => {
    const startedAt = elapsed();
    if (!liveness && startedAt - renewedAt >= leaseMs)
      await giveUp(token(), startedAt, 'claims not renewed for a whole lease (paused, or the database unreachable): given up here');
    await holdLiveness();
    const owner = token();
    const lapsed = startedAt - renewedAt >= leaseMs;
    let renewed = false;
    /** Whether the token's liveness held until after the renewal; undefined where there is none to ask (none taken yet). */
    let liveHeld: boolean | undefined;
    try {
      await options.renew({ owner, ms: leaseMs });
      renewed = true;
      // Asked after the renewal: a liveness that held until now held while the renewal ran, so no claim had moved before it.
      if (liveness && live === owner) liveHeld = await liveness.held(owner);
    } catch (error) {
      problem('renewing the claims failed; tried again at the next heartbeat', { error });
    }
    if (owner !== token()) return;
    if (liveHeld === false) {
      await giveUp(owner, startedAt, 'the database session holding the claims ended (a lost connection, or a long pause): given up here');
    } else if (renewed && (liveHeld === true || !lapsed)) {
      // Within the lease a renewal keeps the claims by time alone; past it only a liveness that held does.
      if (lapsed)
        problem(
          "claims not renewed for a whole lease (paused, or the event loop starved): the database session kept them this instance's; carried on",
          { token: owner, sinceMs: Math.round(startedAt - renewedAt) },
        );
      renewedAt = Math.max(renewedAt, startedAt);
    } else if (lapsed) {
      await giveUp(
        owner,
        startedAt,
        "claims not renewed for a whole lease, and the database cannot say they are still this instance's: given up here",
      );
    }
  };
  const beatOnce = () => (beating ??= beat().finally(() => (beating = undefined)));

  return {
    lease: () => ({ owner: token(), ms: leaseMs }),
    async holds(owner) {
      // Renewed longer than a lease ago (this process was starved or paused): a heartbeat now says
      // whether it lost them. False only once the token was given up, so no claim is left held by a
      // live token that nobody works on.
      while (owner === token() && !current(owner)) await beatOnce();
      return current(owner);
    },
    beat: beatOnce,
    start() {
      void holdLiveness();
      timer ??= setInterval(() => void beatOnce(), Math.max(50, leaseMs / 3));
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await beating;
    },
  };
}
