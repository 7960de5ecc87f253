/**
 * Writing a delivery's outcome is part of the delivery: until it is on disk, a crash sends that
 * message again. The outbox's bound on unrecorded deliveries only holds if a delivery whose record
 * failed keeps its slot, so a failed record is written again (with back-off) until it lands, and
 * while any is failing no new message starts. Only a stop gives up (as after a crash).
 */
import type { Logger } from '../logger.ts';
import { writeFailureFields, writeFailureOf } from '../store/errors.ts';

export interface OutcomeRecorder {
  /** Whether a record is failing (its write failed and has not landed since): no new delivery may start. */
  readonly failing: boolean;
  /** Runs `write` until it resolves (true), or false once stopped (after one last try). `fields` name the delivery in the logs. */
  record(write: () => Promise<unknown>, fields: Record<string, unknown>): Promise<boolean>;
  /** Accepts records again after a stop. */
  start(): void;
  /** Ends the waits: every record still failing gets one last try, then gives up. */
  stop(): void;
}

interface OutcomeRecorderOptions {
  log: Logger;
  /** First wait before writing again; it doubles per failed try. */
  baseMs: number;
  /** Longest wait; default 30 s. */
  maxMs?: number;
  /** Recording works again after failing: sending may resume. */
  onRecovered: () => void;
}

export function createOutcomeRecorder(options: OutcomeRecorderOptions): OutcomeRecorder {
  const { log } = options;
  /** Records whose write failed and has not landed yet; each one holds the sends, not only the last. */
  let failingRecords = 0;
  let stopped = false;
  /** Wakes the records waiting to try again (a stop). */
  const sleepers = new Set<() => void>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  async function record(write: () => Promise<unknown>, fields: Record<string, unknown>): Promise<boolean> {
    let counted = false;
    for (let tries = 1; ; tries += 1) {
      const lastTry = stopped;
      try {
        await write();
      } catch (error) {
        const failure = writeFailureOf(error);
        const problem = failure ? writeFailureFields(failure) : { error };
        if (lastTry) {
          if (counted) failingRecords -= 1;
          log.error('stopping with a delivered message whose outcome could not be recorded; it may be sent again after the restart', {
            ...fields,
            ...problem,
          });
          return false;
        }
        if (!counted) {
          counted = true;
          failingRecords += 1;
        }
        if (failingRecords === 1 && tries === 1) {
          log.error(
            'recording a delivered message failed; no message is sent until it can be recorded (so a crash cannot repeat more of them)',
            {
              ...fields,
              ...problem,
            },
          );
        } else log.debug('recording a delivered message failed again', { ...fields, tries });
        await sleep(Math.min(options.baseMs * 2 ** (tries - 1), options.maxMs ?? 30_000));
        continue;
      }
      if (counted) {
        failingRecords -= 1;
        if (failingRecords === 0) {
          log.info('recording works again; sending resumes', fields);
          options.onRecovered();
        }
      }
      return true;
    }
  }

  return {
    get failing() {
      return failingRecords > 0;
    },
    record,
    start() {
      stopped = false;
    },
    stop() {
      stopped = true;
      for (const wake of [...sleepers]) wake();
    },
  };
}
