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
import { serviceNames, type ServiceName } from '../domain.ts';

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

export interface BroadcastService {
  /** The admin's draft, if one waits (stored, so the tap that continues it may reach any instance). */
  draft(adminId: number): Promise<BroadcastDraft | undefined>;
  /** Stores the admin's draft (replacing theirs); `undefined` drops it. Resolves once stored. */
  saveDraft(adminId: number, draft: BroadcastDraft | undefined): Promise<void>;
  /** Active users in the audience, in a stable order. */
  recipients(audience: BroadcastAudience): Promise<number[]>;
  /** Stores the job and wakes the runner. Rejects (StoreError 'duplicate') while another one runs. */
  start(input: Omit<NewBroadcastJob, 'id' | 'recipients'> & { recipients: number[] }): Promise<BroadcastJob>;
  /** Stops the running job (what is in flight still lands); resolves its progress, or undefined if none ran. */
  cancel(): Promise<BroadcastProgress | undefined>;
  /** The running job's progress, if one runs. */
  running(): Promise<BroadcastProgress | undefined>;
}

export function createBroadcastService(deps: { db: Db; now: () => Date; defaultLocale: string; wake: () => void }): BroadcastService {
  const { db, now } = deps;
  const isService = (value: string): value is ServiceName => (serviceNames as readonly string[]).includes(value);
  return {
    async draft(adminId) {
      // Markup and audience were stored by `saveDraft` from a typed draft: only the shape is checked.
      const parsed = draftSchema.safeParse(await db.conversations.read(draftKey(adminId)));
      return parsed.success ? (parsed.data as BroadcastDraft) : undefined;
    },
    async saveDraft(adminId, draft) {
      if (draft) await db.conversations.write(draftKey(adminId), draft);
      else await db.conversations.delete(draftKey(adminId));
    },
    async recipients(audience) {
      const active = (await db.users.list({ active: true })).filter((user) => user.ban === undefined);
      let chosen = active;
      if (audience.kind === 'service') {
        const service = audience.service;
        if (isService(service)) {
          const has = await Promise.all(active.map((user) => db.credentials.has(user.id, service)));
          chosen = active.filter((_user, index) => has[index]);
        } else chosen = [];
      } else if (audience.kind === 'locale') {
        chosen = active.filter((user) => userLocale(user, deps.defaultLocale) === audience.locale);
      } else if (audience.kind === 'buyers') {
        const buyers = await db.transactions.buyersSince(new Date(now().getTime() - audience.days * 24 * 3600_000));
        chosen = active.filter((user) => buyers.has(user.id));
      }
      return chosen.map((user) => user.id).sort((a, b) => a - b);
    },
    async start(input) {
      const job = await db.broadcasts.create({ ...input, id: ulid(now().getTime()) });
      deps.wake();
      return job;
    },
    async cancel() {
      const job = await db.broadcasts.runningProgress();
      if (!job) return undefined;
      await db.broadcasts.finish(job.id, 'cancelled');
      deps.wake();
      return db.broadcasts.progress(job.id);
    },
    running: () => db.broadcasts.runningProgress(),
  };
}
