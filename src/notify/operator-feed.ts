import type { Logger } from '../logger.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';

/** How often an error came again after its first report, for the one message that says so. */
export interface Burst {
  /** Occurrences after the message that went out before (the first, or the previous burst line). */
  count: number;
  /** Length of the window, in minutes. */
  minutes: number;
}

/** Builds the operator-feed items of an error: without `burst` the first report, with it the grouped one. */
export type FeedRender = (burst?: Burst) => NewOutboxItem[];

export interface OperatorFeed {
  /**
   * Reports an error to the operator feed (ADMIN_CHAT_ID). The first report of a `key` goes out at
   * once; the same key again within the window is only counted, and when the window ends one
   * message goes out for all of them ("×12 in the last 5 minutes", rendered from the latest
   * report), which opens a new window. A key quiet for a whole window starts over.
   */
  report(key: string, render: FeedRender): void;
  /** Sends every counted burst now (before the store closes) and stops the timers. */
  close(): Promise<void>;
}

export interface OperatorFeedOptions {
  enqueue: (items: NewOutboxItem[]) => Promise<void>;
  logger: Logger;
  /** Length of a grouping window. Default 5 minutes. */
  windowMs?: number;
  /** Timers (tests pass fake ones, or use vitest's fake timers). */
  setTimer?: (callback: () => void, ms: number) => { unref?: () => unknown };
  clearTimer?: (timer: unknown) => void;
}

interface Window {
  count: number;
  render: FeedRender;
  timer: unknown;
}

/** Groups bursts of the same error in the operator feed: one message, then one count per window. */
export function createOperatorFeed(options: OperatorFeedOptions): OperatorFeed {
  const windowMs = options.windowMs ?? 5 * 60_000;
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((timer: unknown) => clearTimeout(timer as NodeJS.Timeout));
  const minutes = Math.max(1, Math.round(windowMs / 60_000));
  const windows = new Map<string, Window>();

  const send = (items: NewOutboxItem[]) =>
    options.enqueue(items).catch((error: unknown) => options.logger.error('could not queue a line for the operator feed', { error }));

  const open = (key: string, render: FeedRender): Window => {
    const window: Window = { count: 0, render, timer: undefined };
    const timer = setTimer(() => void close(key), windowMs);
    timer.unref?.();
    window.timer = timer;
    windows.set(key, window);
    return window;
  };

  /** Ends a key's window: its count goes out as one message, and a new window starts if there was any. */
  const close = async (key: string) => {
    const window = windows.get(key);
    if (!window) return;
    windows.delete(key);
    if (window.count === 0) return;
    open(key, window.render);
    await send(window.render({ count: window.count, minutes }));
  };

  return {
    report(key, render) {
      const window = windows.get(key);
      if (window) {
        window.count++;
        window.render = render;
        return;
      }
      open(key, render);
      void send(render());
    },
    async close() {
      const pending = [...windows.entries()];
      windows.clear();
      for (const [, window] of pending) {
        clearTimer(window.timer);
        if (window.count > 0) await send(window.render({ count: window.count, minutes }));
      }
    },
  };
}
