/**
 * Update starts spread over event-loop turns: the runner starts a getUpdates answer's 100 updates
 * in one turn, and their synchronous starts add up to one long block in which no I/O is read. Each
 * turn starts updates for at most `budgetMs`, in arrival order; the rest go in the next turns.
 */
import type { PipelineStage } from './pipeline-stage.ts';

/** Milliseconds of update starts per event-loop turn. */
const startBudgetMs = 4;

export interface TurnOptions {
  /** Default `startBudgetMs`. */
  budgetMs?: number;
  /** Clock in ms (tests inject one); default `performance.now`. */
  now?: () => number;
  /** Runs `task` in the next turn, after pending I/O; default `setImmediate`. */
  nextTurn?: (task: () => void) => void;
}

/** The pipeline stage that starts updates at most `budgetMs` per event-loop turn. */
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
