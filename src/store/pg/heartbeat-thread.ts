/**
 * A fleet instance's claim heartbeat on a thread of its own (DESIGN invariant 9: slow is not
 * dead). On the main thread the heartbeat is one timer among the instance's work: an instance
 * busy enough (a burst, a starved CPU) ran its beats late past the lease, and another instance
 * took over the stored updates and due checks of a live one. A worker thread has an event loop of
 * its own and its own database connection, so a busy main thread delays nothing of it; a stopped
 * process (SIGSTOP, a dead VM) stops it too, and its claims then move as a dead one's should, the
 * tokens fencing whatever the woken process would write.
 *
 * The two threads share the token's epoch and the last renewal's instant in a SharedArrayBuffer:
 * the main thread's `holds(token)` reads them without a message. The worker's code is a string
 * evaluated in the worker (`eval: true`) so that it runs the same under tsx, vitest and the
 * esbuild bundle without a second entry point; it requires `pg` by the path the main thread
 * resolved.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ClaimHolder } from '../claim-holder.ts';

/** Positions in the shared BigInt64Array. */
const epochSlot = 0;
const renewedAtSlot = 1;

/** The tables whose rows carry claims (`lease_owner`, `lease_until`): one statement each per beat. */
export const leasedTables = ['inbox', 'transactions', 'outbox'] as const;

/** Milliseconds on the process's monotonic clock (`hrtime`), the one clock both threads read alike. */
const sharedClock = (): number => Number(process.hrtime.bigint() / 1_000_000n);

const workerSource = String.raw`
const { workerData, parentPort } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const { instanceId, leaseMs, tables, connection, shared } = workerData;
const state = new BigInt64Array(shared);
const clock = () => Number(process.hrtime.bigint() / 1000000n);
const pool = new pg.Pool({ ...connection, max: 1, keepAlive: true });
pool.on('error', () => undefined);
let beating = false;
let stopping = false;
async function beat() {
  if (beating || stopping) return;
  beating = true;
  try {
    const startedAt = clock();
    let epoch = Number(Atomics.load(state, 0));
    if (startedAt - Number(Atomics.load(state, 1)) >= leaseMs) {
      parentPort.postMessage({ problem: 'claims not renewed for a whole lease (the database unreachable): given up here', lostToken: instanceId + ':' + epoch });
      epoch += 1;
      Atomics.store(state, 0, BigInt(epoch));
      Atomics.store(state, 1, BigInt(Math.round(startedAt)));
    }
    const owner = instanceId + ':' + epoch;
    const until = new Date(Date.now() + leaseMs).toISOString();
    try {
      for (const table of tables) await pool.query('UPDATE ' + table + ' SET lease_until = $2 WHERE lease_owner = $1', [owner, until]);
      if (Number(Atomics.load(state, 0)) === epoch) Atomics.store(state, 1, BigInt(Math.round(Math.max(startedAt, Number(Atomics.load(state, 1))))));
    } catch (error) {
      parentPort.postMessage({ problem: 'renewing the claims failed; tried again at the next heartbeat', code: error && error.code });
    }
  } finally {
    beating = false;
  }
}
const timer = setInterval(beat, Math.max(50, leaseMs / 3));
parentPort.on('message', async (message) => {
  if (message === 'beat') { await beat(); parentPort.postMessage({ beat: true }); }
  if (message === 'stop') { stopping = true; clearInterval(timer); while (beating) await new Promise((r) => setTimeout(r, 5)); await pool.end().catch(() => undefined); parentPort.postMessage({ stopped: true }); }
});
parentPort.postMessage({ ready: true });
`;

export interface ThreadHeartbeatOptions {
  instanceId: string;
  leaseMs: number;
  /** How the worker reaches the database: the engine pool's own options (connection string or host, user …). */
  connection: Record<string, unknown>;
  /** A renewal that failed, a lease that ran out, or the thread failing (told from the worker). */
  onProblem?: (message: string, fields: Record<string, unknown>) => void;
  /**
   * The holder that takes over when the thread cannot start or dies: a heartbeat on the main
   * thread, whose first token's epoch is `epoch`. Without it, a failed thread renews nothing and
   * every claim is lost a lease later (safe, fenced, but the instance does no claimed work).
   */
  fallback?: (epoch: number) => ClaimHolder;
  /** The `pg` module the worker loads (default the one this thread resolves); tests pass one that fails. */
  pgPath?: string;
}

/**
 * A claim holder whose heartbeat runs on a worker thread with its own connection (see above).
 * The lease times it writes are the real clock's: for an instance on the real clock only. If the
 * thread cannot start or dies, `fallback` takes over under a new token: claims taken under the
 * thread's may have moved by the time the failure is seen, so none of them is held any more.
 */
export function createThreadClaimHolder(options: ThreadHeartbeatOptions): ClaimHolder {
  const { instanceId, leaseMs } = options;
  const shared = new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT);
  const state = new BigInt64Array(shared);
  Atomics.store(state, epochSlot, 1n);
  Atomics.store(state, renewedAtSlot, BigInt(Math.round(sharedClock())));
  const token = () => `${instanceId}:${Atomics.load(state, epochSlot)}`;
  let worker: Worker | undefined;
  let ready: Promise<void> | undefined;
  let started = false;
  let stopping = false;
  /** The thread failed (an error is followed by an exit: told once). */
  let broken = false;
  /** The main-thread holder once the thread failed. */
  let fallen: ClaimHolder | undefined;
  /** A failed thread's end (its exit told), waited for by `stop`. */
  let ended: Promise<unknown> | undefined;
  const waiters: Array<{ key: 'beat' | 'stopped'; resolve: () => void }> = [];

  /** Resolves the first caller waiting for `key`. */
  const answer = (key: 'beat' | 'stopped') => {
    const at = waiters.findIndex((waiter) => waiter.key === key);
    if (at >= 0) waiters.splice(at, 1)[0]?.resolve();
  };
  /** The thread failed: its tokens stop holding at once, and the fallback (if any) renews under a new one. */
  const failed = (problem: string, error: unknown) => {
    if (stopping || broken) return;
    broken = true;
    const dead = worker;
    worker = undefined;
    ended = dead?.terminate().catch(() => undefined);
    for (const waiter of waiters.splice(0)) waiter.resolve();
    const epoch = Number(Atomics.load(state, epochSlot)) + 1;
    Atomics.store(state, epochSlot, BigInt(epoch));
    const takeover = options.fallback ? '; the heartbeat runs on the main thread from now on' : '; no claim is renewed any more';
    options.onProblem?.(`${problem}${takeover}`, { error, lostToken: `${instanceId}:${epoch - 1}` });
    fallen = options.fallback?.(epoch);
    if (started) fallen?.start();
  };
  const launch = () => {
    const pgPath = options.pgPath ?? createRequire(import.meta.url).resolve('pg');
    const launched = new Worker(workerSource, {
      eval: true,
      workerData: { pgPath, instanceId, leaseMs, tables: leasedTables, connection: options.connection, shared },
    });
    // The heartbeat alone never keeps the process running.
    launched.unref();
    ready = new Promise<void>((resolve) => {
      launched.once('error', () => resolve());
      launched.once('exit', () => resolve());
      launched.on('message', (message: Record<string, unknown>) => {
        if (message.ready) resolve();
        if (typeof message.problem === 'string') {
          const { problem, ...fields } = message;
          options.onProblem?.(problem, fields);
        }
        if (message.beat) answer('beat');
        if (message.stopped) answer('stopped');
      });
    });
    launched.on('error', (error) => failed('the claims heartbeat thread failed', error));
    launched.on('exit', (code) => failed('the claims heartbeat thread ended', { exitCode: code }));
    worker = launched;
  };
  const ask = async (message: 'beat' | 'stop', key: 'beat' | 'stopped') => {
    if (!worker) return;
    const asked = worker;
    await ready;
    if (worker !== asked) return;
    const answered = new Promise<void>((resolve) => waiters.push({ key, resolve }));
    asked.postMessage(message);
    await answered;
  };

  return {
    lease: () => fallen?.lease() ?? { owner: token(), ms: leaseMs },
    holds: (owner) =>
      fallen ? fallen.holds(owner) : owner === token() && sharedClock() - Number(Atomics.load(state, renewedAtSlot)) < leaseMs,
    beat: () => fallen?.beat() ?? ask('beat', 'beat'),
    start() {
      if (started) return;
      started = true;
      try {
        launch();
      } catch (error) {
        failed('the claims heartbeat thread did not start', error);
      }
    },
    async stop() {
      if (fallen) await fallen.stop();
      await ended;
      const running = worker;
      if (!running) return;
      await ask('stop', 'stopped').catch(() => undefined);
      stopping = true;
      worker = undefined;
      await running.terminate();
    },
  };
}
