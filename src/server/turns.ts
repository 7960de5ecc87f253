/**
 * Update starts spread over event-loop turns. A getUpdates answer brings up to 100 updates at
 * once and the runner starts them all in the same turn; the synchronous start of each (middleware
 * up to its first await: parsing, routing, rendering) then adds up to one long block in which no
 * provider answer, Telegram reply or disk write is read. Here each turn starts updates for at most
 * `budgetMs`; the rest start in the next turns, after the I/O that came in meanwhile. Updates start
 * in the order they arrived; one that fits the budget starts at once (no delay when the bot is
 * not busy).
 */
import type { PipelineStage } from './pipeline-stage.ts';

/** Milliseconds of update starts per event-loop turn. */
export const startBudgetMs = 4;

export interface TurnOptions {
  /** Default `startBudgetMs`. */
  budgetMs?: number;
  /** Clock in ms (tests inject one); default `performance.now`. */
  now?: () => number;
  /** Runs `task` in the next turn, after pending I/O; default `setImmediate`. */
  nextTurn?: (task: () => void) => void;
}

/** The pipeline stage that starts updates at most `budgetMs` per event-loop turn (see above). */
export function spreadUpdateStarts(options: TurnOptions = {}): PipelineStage {
  const budgetMs = options.budgetMs ?? startBudgetMs;
  const now = options.now ?? (() => performance.now());
  const nextTurn = options.nextTurn ?? ((task) => void setImmediate(task));
  return (handle) => {
    const waiting: Array<() => void> = [];
    /** When this turn's first start began; undefined: no start yet in this turn. */
    let turnStartedAt: number | undefined;

    const beginTurn = () => {
      turnStartedAt = now();
      nextTurn(() => {
        turnStartedAt = undefined;
        if (waiting.length > 0) beginTurn();
        while (waiting.length > 0 && within()) waiting.shift()?.();
      });
    };
    const within = () => turnStartedAt !== undefined && now() - turnStartedAt < budgetMs;

    return (update) => {
      if (turnStartedAt === undefined) beginTurn();
      if (waiting.length === 0 && within()) return handle(update);
      return new Promise<void>((resolve, reject) => waiting.push(() => void handle(update).then(resolve, reject)));
    };
  };
}
