/**
 * Conversations v2 times a wait out by comparing `Date.now()` when the wait was reached and when
 * the next update arrives. Tests move that wall clock forward instead of sleeping: only `Date` is
 * faked (timers, sockets and the emulator keep running on real time), and it keeps ticking.
 */
import { vi } from 'vitest';

/** Moves `Date` forward by `ms` (faking it, ticking on, if it is not faked yet). */
export function advanceWallClock(ms: number): void {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + ms);
}

/** Puts the real `Date` back (call in afterEach of a test that used `advanceWallClock`). */
export function restoreWallClock(): void {
  vi.useRealTimers();
}
