/**
 * The outcome recorder (src/notify/recording.ts): while a delivered message's record cannot be
 * written, no new message starts, so a crash re-sends at most the stated number. A broadcast copy's
 * record (broadcasts.json) and a notice's (the hot file) are different writes: on a disk nearly
 * full the small one may land while the big one still fails.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOutcomeRecorder } from '../../src/notify/recording.ts';
import { createLogger } from '../../src/logger.ts';

/** A logger whose lines go nowhere (the failures here are on purpose). */
const quiet = () => createLogger({ write: () => undefined });
const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('the outcome recorder', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps holding sends while any record still fails, though another one landed meanwhile; resumes once all have', async () => {
    const recovered = vi.fn();
    const recorder = createOutcomeRecorder({ log: quiet(), baseMs: 100, onRecovered: recovered });
    let bigFits = false;
    const broadcastCopy = recorder.record(() => (bigFits ? Promise.resolve() : Promise.reject(full())), { kind: 'broadcast' });
    await vi.advanceTimersByTimeAsync(0);
    expect(recorder.failing).toBe(true);

    // A notice's small record lands while the broadcast copy's is still failing.
    expect(await recorder.record(() => Promise.resolve(), { kind: 'settlement' })).toBe(true);
    expect(recorder.failing).toBe(true);
    expect(recovered).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(recorder.failing).toBe(true);

    bigFits = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(await broadcastCopy).toBe(true);
    expect(recorder.failing).toBe(false);
    expect(recovered).toHaveBeenCalledTimes(1);
  });

  it('two failing records: sending resumes only after the second lands too', async () => {
    const recovered = vi.fn();
    const recorder = createOutcomeRecorder({ log: quiet(), baseMs: 100, onRecovered: recovered });
    const fits = { a: false, b: false };
    const a = recorder.record(() => (fits.a ? Promise.resolve() : Promise.reject(full())), { kind: 'a' });
    const b = recorder.record(() => (fits.b ? Promise.resolve() : Promise.reject(full())), { kind: 'b' });
    fits.a = true;
    await vi.advanceTimersByTimeAsync(500);
    expect(await a).toBe(true);
    expect(recorder.failing).toBe(true);
    expect(recovered).not.toHaveBeenCalled();
    fits.b = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(await b).toBe(true);
    expect(recorder.failing).toBe(false);
    expect(recovered).toHaveBeenCalledTimes(1);
  });
});
