import type { Logger } from '../logger.ts';
import type { PriceWatchService } from '../services/price-watch.ts';

export interface PriceWatchJobOptions {
  service: Pick<PriceWatchService, 'checkAll'>;
  logger: Logger;
  /** PRICE_WATCH_MINUTES in ms: one pass over every watched account per interval; 0 never starts. */
  intervalMs: number;
}

export interface PriceWatchJob {
  /** Starts the passes: the first right away (it records the baselines), then one per interval. */
  start(): void;
  /** Stops after the check in flight (if any); resolves once it ended. */
  stop(): Promise<void>;
}

/**
 * The price-change watch (/pantau): one pass per interval over the watched reseller accounts,
 * one account at a time, spread over the interval (account i of n is fetched about i·interval/n
 * after the pass began), so a hundred accounts never make a burst of price-list requests. A pass
 * that runs longer than the interval is followed by the next at once.
 */
export function createPriceWatchJob(options: PriceWatchJobOptions): PriceWatchJob {
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let loop: Promise<void> | undefined;

  /** Waits `ms`, or less when the job is stopped meanwhile. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, Math.max(0, ms));
      timer.unref?.();
    });

  async function run(): Promise<void> {
    while (!stopped) {
      const started = Date.now();
      try {
        await options.service.checkAll(async (accounts) => {
          if (!stopped) await sleep(options.intervalMs / accounts);
          return !stopped;
        });
      } catch (error) {
        options.logger.warn('price watch pass failed; the next one tries again', { error });
      }
      if (!stopped) await sleep(started + options.intervalMs - Date.now());
    }
  }

  return {
    start() {
      if (options.intervalMs <= 0 || !stopped) return;
      stopped = false;
      loop = run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
