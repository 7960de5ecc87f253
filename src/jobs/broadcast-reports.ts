/**
 * What the admin sees of a running broadcast: the progress message, edited through the outbox as
 * copies go out (counts, the measured rate and an estimate of the time left), and the final report
 * queued when the job ends.
 */
import type { Logger } from '../logger.ts';
import type { NewOutboxItem } from '../store/records/outbox.ts';
import type { BroadcastProgress } from '../store/records/broadcasts.ts';
import type { Db } from '../store/db.ts';
import { userLocale } from '../store/records/users.ts';

/** How long a broadcast waits before writing its end (with its report) again after a failed write. */
export const finishRetryMs = 2000;

interface BroadcastReportsOptions {
  db: Db;
  log: Logger;
  translate: (locale: string, key: string, variables?: Record<string, string | number>) => string;
  defaultLocale: string;
  enqueue: (items: NewOutboxItem[]) => Promise<void>;
}

/** Renders and queues the admin's progress message and final report. */
export class BroadcastReports {
  private readonly options: BroadcastReportsOptions;
  /** Monotonic times of recorded outcomes (the measured rate). */
  private readonly outcomes: number[] = [];

  constructor(options: BroadcastReportsOptions) {
    this.options = options;
  }

  /** Counts one recorded outcome toward the measured rate. */
  counted(): void {
    this.outcomes.push(performance.now());
  }

  /** Queues the edit of the progress message (one pending edit per job); a failed queue write is logged, not thrown. */
  async progress(progress: BroadcastProgress): Promise<void> {
    await this.options
      .enqueue(await this.progressItems(progress, false))
      .catch((error: unknown) => this.options.log.error('progress report failed', { error }));
  }

  /** The final report and the last progress edit, queued by the store in the write that ends the job. */
  async finalItems(progress: BroadcastProgress): Promise<NewOutboxItem[]> {
    const report: NewOutboxItem = {
      chatId: progress.adminId,
      kind: 'broadcast-report',
      payload: { type: 'send', text: this.render(progress, true, await this.adminLocale(progress.adminId)), parseMode: 'HTML' },
    };
    return [...(await this.progressItems(progress, true)), report];
  }

  private async adminLocale(adminId: number): Promise<string> {
    return userLocale(await this.options.db.users.get(adminId), this.options.defaultLocale);
  }

  private render(progress: BroadcastProgress, final: boolean, locale: string): string {
    const t = (key: string, variables?: Record<string, string | number>) => this.options.translate(locale, key, variables);
    const done = progress.sent + progress.blocked + progress.failed;
    const remaining = progress.total - done;
    const now = performance.now();
    const outcomes = this.outcomes;
    while (outcomes.length > 0 && outcomes[0]! < now - 10_000) outcomes.shift();
    const rate = outcomes.length / 10;
    const counts = { sent: progress.sent, remaining, blocked: progress.blocked, failed: progress.failed, total: progress.total };
    if (final) return t(progress.status === 'cancelled' ? 'broadcast-report-cancelled' : 'broadcast-report-done', counts);
    const eta = rate > 0 ? Math.ceil(remaining / rate) : 0;
    return t('broadcast-progress', {
      ...counts,
      rate: rate.toFixed(1),
      eta: `${Math.floor(eta / 60)}:${String(eta % 60).padStart(2, '0')}`,
    });
  }

  private async progressItems(progress: BroadcastProgress, final: boolean): Promise<NewOutboxItem[]> {
    if (progress.progressMessageId === undefined) return [];
    const locale = await this.adminLocale(progress.adminId);
    return [
      {
        chatId: progress.adminId,
        kind: 'broadcast-progress',
        payload: {
          type: 'edit',
          messageId: progress.progressMessageId,
          text: this.render(progress, final, locale),
          parseMode: 'HTML',
        },
        dedupeKey: final ? undefined : `broadcast-progress:${progress.id}`,
      },
    ];
  }
}
