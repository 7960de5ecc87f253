/**
 * Broadcasts as the bot asks for them: who is in an audience, starting a job (its whole audience
 * stored in one write) and cancelling it. Delivery is the job runner's (src/jobs/broadcast.ts),
 * woken through `wake`.
 */
import { ulid } from 'ulid';
import type { BroadcastAudience, BroadcastJob, BroadcastProgress, NewBroadcastJob } from '../store/broadcasts.ts';
import type { Store } from '../store/store.ts';
import { serviceNames, type ServiceName } from '../domain.ts';

export type { BroadcastAudience, BroadcastProgress, NewBroadcastJob } from '../store/broadcasts.ts';

export interface BroadcastService {
  /** Active users in the audience, in a stable order. */
  recipients(audience: BroadcastAudience): Promise<number[]>;
  /** Stores the job and wakes the runner. Rejects (StoreError 'duplicate') while another one runs. */
  start(input: Omit<NewBroadcastJob, 'id' | 'recipients'> & { recipients: number[] }): Promise<BroadcastJob>;
  /** Stops the running job (what is in flight still lands); resolves its progress, or undefined if none ran. */
  cancel(): Promise<BroadcastProgress | undefined>;
  /** The running job's progress, if one runs. */
  running(): BroadcastProgress | undefined;
}

export function createBroadcastService(deps: { store: Store; now: () => Date; defaultLocale: string; wake: () => void }): BroadcastService {
  const { store, now } = deps;
  const isService = (value: string): value is ServiceName => (serviceNames as readonly string[]).includes(value);
  return {
    async recipients(audience) {
      const active = store.users.list({ active: true }).filter((user) => user.ban === undefined);
      let chosen = active;
      if (audience.kind === 'service') {
        const service = audience.service;
        chosen = isService(service) ? active.filter((user) => store.credentials.has(user.id, service)) : [];
      } else if (audience.kind === 'locale') {
        chosen = active.filter((user) => (user.locale ?? deps.defaultLocale) === audience.locale);
      } else if (audience.kind === 'buyers') {
        const buyers = await store.transactions.buyersSince(new Date(now().getTime() - audience.days * 24 * 3600_000));
        chosen = active.filter((user) => buyers.has(user.id));
      }
      return chosen.map((user) => user.id).sort((a, b) => a - b);
    },
    async start(input) {
      const job = await store.broadcasts.create({ ...input, id: ulid(now().getTime()) });
      deps.wake();
      return job;
    },
    async cancel() {
      const job = store.broadcasts.runningProgress();
      if (!job) return undefined;
      await store.broadcasts.finish(job.id, 'cancelled');
      deps.wake();
      return store.broadcasts.progress(job.id);
    },
    running: () => store.broadcasts.runningProgress(),
  };
}
