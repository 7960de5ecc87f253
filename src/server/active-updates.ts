/**
 * At most `maxActive` updates handled at once, not counting those parked on a slow call.
 *
 * The runner keeps up to 500 updates in hand so that a slow provider cannot stall the bot: an
 * update waiting 10 s for a provider only holds one of them. But when 500 updates are in flight
 * and everything answers fast (a burst), every event-loop turn handles hundreds of provider and
 * Telegram answers, their HTTP parsing and continuations at once, and the heap holds hundreds of
 * half-handled updates for the garbage collector to walk: long event-loop turns, and every timer,
 * reply and write of the bot waits that long. Handled 32 at a time, the same burst goes as fast
 * with much shorter turns (bench/README.md, updates.ts, the active-update limit's figures).
 *
 * A plain concurrency of 32 would bring the stall back: 32 users waiting on a provider that hangs
 * would hold every slot. And it would cap the bot at 32 updates per round trip: with Telegram
 * 200 ms away (a bot in Indonesia), 160 updates/s. So an update that has run for `parkAfterMs`
 * (50 ms: longer than any update's own work in a burst, shorter than a call to Telegram or a
 * provider from here) stops counting and the next one starts; it finishes when its call does. With
 * a 200 ms round trip the burst goes as fast as without the limit (bench/updates.ts, burst-far). Updates start in
 * the order the runner hands them over (which keeps each chat's order: the runner's
 * sequentialize hands a chat's next update over only after the previous one).
 */
import type { PipelineStage } from './pipeline-stage.ts';

export const activeUpdateDefaults = { maxActive: 32, parkAfterMs: 50 } as const;

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

/** The pipeline stage that runs at most `maxActive` updates at once, parked ones not counted (see above). */
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
