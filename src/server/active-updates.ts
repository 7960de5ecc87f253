/**
 * At most `maxActive` updates handled at once, not counting those parked on a slow call. With the
 * runner's 500 in flight in a burst, every event-loop turn would handle hundreds of answers at once
 * and the heap hold hundreds of half-handled updates: long turns that every timer and reply waits
 * out. A plain concurrency would let 32 users stuck on a hanging provider hold every slot and cap
 * the bot at 32 updates per round trip to Telegram; so an update that has run for `parkAfterMs`
 * (longer than any update's own work, shorter than a network call) stops counting. Updates start in
 * the order the runner hands them over (which keeps each chat's order).
 */
import type { PipelineStage } from './pipeline-stage.ts';

const activeUpdateDefaults = { maxActive: 32, parkAfterMs: 50 } as const;

export interface ActiveUpdateOptions {
  /** Default 32. */
  maxActive?: number;
  /** Default 50 ms. */
  parkAfterMs?: number;
  /** Runs `task` after `ms` unless cleared; default an unref'd setTimeout (tests inject one). */
  setTimer?: (task: () => void, ms: number) => { clear(): void };
  /** Called when an update has to wait for a slot (tests see that it reached the limit and waits). */
  onWait?: () => void;
}

const realTimer = (task: () => void, ms: number) => {
  const timer = setTimeout(task, ms);
  timer.unref();
  return { clear: () => clearTimeout(timer) };
};

/** The pipeline stage that runs at most `maxActive` updates at once, parked ones not counted. */
export function limitActiveUpdates(options: ActiveUpdateOptions = {}): PipelineStage {
  const maxActive = options.maxActive ?? activeUpdateDefaults.maxActive;
  const parkAfterMs = options.parkAfterMs ?? activeUpdateDefaults.parkAfterMs;
  const setTimer = options.setTimer ?? realTimer;
  return (handle) => {
    const waiting: Array<() => void> = [];
    let active = 0;

    const admit = () => {
      while (active < maxActive && waiting.length > 0) {
        active += 1;
        waiting.shift()?.();
      }
    };

    return (update) =>
      new Promise<void>((resolve, reject) => {
        const start = () => {
          let counted = true;
          const release = () => {
            if (!counted) return;
            counted = false;
            active -= 1;
            admit();
          };
          const parking = setTimer(release, parkAfterMs);
          handle(update)
            .then(resolve, reject)
            .finally(() => {
              parking.clear();
              release();
            });
        };
        if (active < maxActive && waiting.length === 0) {
          active += 1;
          start();
        } else {
          waiting.push(start);
          options.onWait?.();
        }
      });
  };
}
