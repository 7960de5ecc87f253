/**
 * Virtual time for tests of what takes minutes of real time (a broadcast to 2,000 users paced at
 * 30 messages per second): the timers, `Date` and `performance.now()` are faked for the whole
 * process (app, emulator, runner alike), while real loopback I/O (HTTP to the emulator, the
 * store's file writes) runs as usual. The clock moves only when nothing is in progress - no
 * request to the emulator unanswered (long polls waiting for updates aside), no store write
 * pending, nothing changed for a few turns of the event loop - and then jumps to the next timer,
 * like a discrete-event simulation. Pacing is therefore measured in exact virtual seconds, however
 * fast or loaded the machine is; a request takes no virtual time.
 *
 * Start it before the world (`startWorld({ telegram: { now: () => Date.now() }, app: { storeWriteFile: time.writeFile } })`),
 * then `watch(world.telegram)`, await everything that needs the clock through `until` / `when`, and
 * `restore()` after `world.stop()`.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, rename, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import http from 'node:http';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { vi } from 'vitest';
import type { AtomicWriter } from '../../src/store/durable-file.ts';

/** What the clock needs to see of the emulator (BotApiEmulator has it). */
interface Watched {
  readonly activeRequests: number;
  readonly version: number;
}

export interface VirtualTime {
  /** The store's file writer that counts the writes in progress (AppOptions.storeWriteFile). */
  readonly writeFile: AtomicWriter;
  /** The emulator whose requests in progress hold the clock. */
  watch(telegram: Watched): void;
  /** Virtual milliseconds since the clock was installed. */
  elapsed(): number;
  /** Puts the real clock back and stops counting HTTP requests (after world.stop). */
  restore(): void;
  /** Moves the clock, timer by timer, until `promise` settles; rejects after `limitMs` virtual ms (default 10 minutes). */
  until<T>(promise: Promise<T>, options?: { limitMs?: number }): Promise<T>;
  /** Moves the clock until `predicate` (checked whenever everything is quiet) is truthy. */
  when<T>(predicate: () => T, options?: { limitMs?: number; message?: string }): Promise<NonNullable<T>>;
}

/** Event-loop turns without any activity before the clock may move (a loopback request needs 2-3 to arrive). */
const quietTurns = 8;

/** Fakes the clock (real loopback I/O keeps running) until `restore()`. */
export function useVirtualTime(): VirtualTime {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'], now: Date.now() });
  const start = performance.now();
  /** Store writes in progress. */
  const writes = new Set<Promise<void>>();
  const watched: Watched[] = [];
  const requests = countHttpRequests();
  const busy = () =>
    writes.size > 0 || requests.pending() > 0 || watched.some((telegram) => telegram.activeRequests > 0) || fileSystemBusy();
  const version = () => watched.reduce((sum, telegram) => sum + telegram.version, 0);

  /** Resolves once nothing has happened for `quietTurns` turns of the event loop. */
  async function quiet(): Promise<void> {
    for (let calm = 0; calm < quietTurns;) {
      const before = version();
      // A write takes a while on the thread pool: wait for it rather than spin.
      if (writes.size > 0) await Promise.allSettled([...writes]);
      else await nextTurn();
      calm = busy() || version() !== before ? 0 : calm + 1;
    }
  }

  async function drive(done: () => boolean, limitMs: number, describe: () => string): Promise<void> {
    const deadline = performance.now() + limitMs;
    for (;;) {
      await quiet();
      if (done()) return;
      if (performance.now() >= deadline) throw new Error(`${describe()} within ${limitMs} virtual ms`);
      // No timer: what runs is I/O the clock does not see (opening the store, starting servers).
      if (vi.getTimerCount() === 0) await sleep(1);
      else vi.advanceTimersToNextTimer();
    }
  }

  return {
    writeFile: (file, content, options) => {
      const write = writeQuickly(file, content, options.append === true);
      writes.add(write);
      return write.finally(() => writes.delete(write));
    },
    watch: (telegram) => void watched.push(telegram),
    restore() {
      vi.useRealTimers();
      requests.restore();
    },
    elapsed: () => performance.now() - start,
    async until(promise, { limitMs = 600_000 } = {}) {
      let settled = false;
      const tracked = promise.finally(() => (settled = true));
      // Observed here so that a rejection while the clock moves is not reported as unhandled.
      tracked.catch(() => undefined);
      await drive(
        () => settled,
        limitMs,
        () => 'the awaited promise did not settle',
      );
      return tracked;
    },
    async when(predicate, { limitMs = 600_000, message = 'the condition was not met' } = {}) {
      let value: ReturnType<typeof predicate> | undefined;
      await drive(
        () => Boolean((value = predicate())),
        limitMs,
        () => message,
      );
      return value as NonNullable<typeof value>;
    },
  };
}

/**
 * Counts the HTTP requests the process makes (node-fetch, which grammY uses, calls `http.request`
 * for each) from the call until the whole answer arrived; getUpdates is left out, since a long poll
 * waits for the clock. Closes the gap the emulator cannot see: a request on its way.
 */
function countHttpRequests(): { pending(): number; restore(): void } {
  const original = http.request;
  let pending = 0;
  http.request = function request(this: unknown, ...args: Parameters<typeof http.request>) {
    const req = original.apply(this, args);
    if (/\/getUpdates$/i.test(req.path)) return req;
    pending += 1;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      pending -= 1;
    };
    req.once('response', (res) => res.once('end', end).once('close', end));
    req.once('close', end).once('error', end);
    return req;
  } as typeof http.request;
  return {
    pending: () => pending,
    restore: () => void (http.request = original),
  };
}

/**
 * Whether a file operation is on the thread pool (the writes the clock does not see, like the
 * update inbox's: it keeps its own writer). Node lists such a request for a turn after it ended.
 */
const fileSystemBusy = (): boolean => process.getActiveResourcesInfo().some((name) => busyResources.test(name));

/** File operations (a file handle closing is a CloseReq), connecting sockets, socket writes libuv queued, name lookups. */
const busyResources = /^(FSReq|CloseReq|TCPConnectWrap|WriteWrap|GetAddrInfoReqWrap)/;

/**
 * The store's writes as writeFileAtomic does them (a temporary file renamed over the data file, or
 * with `append` the content added at its end, as the inbox log does), without its fsyncs: these
 * tests restart the app gracefully, never cut the power, and two fsyncs per write would make the
 * real time of a 2,000-user broadcast seconds longer.
 */
async function writeQuickly(file: string, content: string | Buffer, append: boolean): Promise<void> {
  // As the real appender: a log that is gone is an error, never silently a new file.
  if (append) return appendFile(file, content, { flag: constants.O_WRONLY | constants.O_APPEND });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, content, { mode: 0o600 });
  await rename(temp, file);
}
