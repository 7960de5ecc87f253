/**
 * Broadcasts as the bot asks for them: who is in an audience, starting a job (its whole audience
 * stored in one write) and cancelling it. Delivery is the job runner's (src/jobs/broadcast.ts),
 * woken through `wake`.
 */
import { ulid } from 'ulid';
import { z } from 'zod';
import type { BroadcastAudience, BroadcastJob, BroadcastProgress, NewBroadcastJob } from '../store/records/broadcasts.ts';
import type { Db } from '../store/db.ts';
import { userLocale } from '../store/records/users.ts';
import { serviceNameSchema } from '../domain.ts';

export type { BroadcastAudience, BroadcastProgress, NewBroadcastJob } from '../store/records/broadcasts.ts';

/**
 * A broadcast waiting for its audience and confirmation: the preview in the admin's chat is the
 * message that will be copied, with the inline keyboard (Telegram's shape, as JSON) it carries.
 */
export interface BroadcastDraft {
  previewMessageId: number;
  replyMarkup?: NewBroadcastJob['replyMarkup'];
  audience?: BroadcastAudience;
}

const draftSchema = z.object({
  previewMessageId: z.number().int(),
  replyMarkup: z.unknown().optional(),
  audience: z.unknown().optional(),
});

/** Where an admin's draft is kept: beside conversation states, sealed like them. */
const draftKey = (adminId: number) => `broadcast-draft:${adminId}`;

/** The admins' broadcasts: drafts, audiences, starting and cancelling the job the runner delivers. */
export class BroadcastService {
  constructor(private readonly deps: { db: Db; now: () => Date; defaultLocale: string; wake: () => void }) {}

  /** The admin's draft, if one waits (stored, so the tap that continues it may reach any instance). */
  async draft(adminId: number): Promise<BroadcastDraft | undefined> {
    // Markup and audience were stored by `saveDraft` from a typed draft: only the shape is checked.
    const parsed = draftSchema.safeParse(await this.deps.db.conversations.read(draftKey(adminId)));
    return parsed.success ? (parsed.data as BroadcastDraft) : undefined;
  }

  /** Stores the admin's draft (replacing theirs); `undefined` drops it. Resolves once stored. */
  async saveDraft(adminId: number, draft: BroadcastDraft | undefined): Promise<void> {
    const { db } = this.deps;
    if (draft) await db.conversations.write(draftKey(adminId), draft);
    else await db.conversations.delete(draftKey(adminId));
  }

  /** Active users in the audience, in a stable order. */
  async recipients(audience: BroadcastAudience): Promise<number[]> {
    const { db, now } = this.deps;
    const active = (await db.users.list({ active: true })).filter((user) => user.ban === undefined);
    let chosen = active;
    if (audience.kind === 'service') {
      const parsed = serviceNameSchema.safeParse(audience.service);
      if (parsed.success) {
        const has = await Promise.all(active.map((user) => db.credentials.has(user.id, parsed.data)));
        chosen = active.filter((_user, index) => has[index]);
      } else chosen = [];
    } else if (audience.kind === 'locale') {
      chosen = active.filter((user) => userLocale(user, this.deps.defaultLocale) === audience.locale);
    } else if (audience.kind === 'buyers') {
      const buyers = await db.transactions.buyersSince(new Date(now().getTime() - audience.days * 24 * 3600_000));
      chosen = active.filter((user) => buyers.has(user.id));
    }
    return chosen.map((user) => user.id).sort((a, b) => a - b);
  }

  /** Stores the job and wakes the runner. Rejects (StoreError 'duplicate') while another one runs. */
  async start(input: Omit<NewBroadcastJob, 'id' | 'recipients'> & { recipients: number[] }): Promise<BroadcastJob> {
    const job = await this.deps.db.broadcasts.create({ ...input, id: ulid(this.deps.now().getTime()) });
    this.deps.wake();
    return job;
  }

  /** Stops the running job (what is in flight still lands); resolves its progress, or undefined if none ran. */
  async cancel(): Promise<BroadcastProgress | undefined> {
    const { db } = this.deps;
    const job = await db.broadcasts.runningProgress();
    if (!job) return undefined;
    await db.broadcasts.finish(job.id, 'cancelled');
    this.deps.wake();
    return db.broadcasts.progress(job.id);
  }

  /** The running job's progress, if one runs. */
  running(): Promise<BroadcastProgress | undefined> {
    return this.deps.db.broadcasts.runningProgress();
  }
}
