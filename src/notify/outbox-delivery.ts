/** Delivering one outbox item: claiming it, sending it, and what a failure means for it (outbox.ts tells the promises). */
import { GrammyError, HttpError, type Api } from 'grammy';
import type { ClaimTokens } from '../store/claim-holder.ts';
import type { Logger } from '../logger.ts';
import type { OutboxEntry, OutboxItem } from '../store/records/outbox.ts';
import type { Db } from '../store/db.ts';
import { asSend, deliverPayload, outboxPayloadSchema, type OutboxPayload } from './payload.ts';
import type { RateGate, Turn } from './rate-gate.ts';
import type { OutcomeRecorder } from './recording.ts';
import { describe, errorSummary, uneditable, type OutboxRetry } from './outbox-items.ts';

/** Seconds to wait when a 429 carries no retry_after (it always does in practice). */
const fallbackRetryAfterSeconds = 5;

/** What a delivery shares with the outbox: its clients, its bookkeeping (outbox.ts), and the hooks it calls. */
interface DeliveryContext {
  api: Api;
  db: Db;
  claims: ClaimTokens;
  log: Logger;
  /** Clock for the timestamps stored on items. */
  now: () => Date;
  /** Monotonic clock for retry times (the gate's clock). */
  mono: () => number;
  retry: Required<OutboxRetry>;
  gate: RateGate;
  recorder: OutcomeRecorder;
  sending: Map<string, Promise<void>>;
  busyChats: Set<number>;
  onBlocked?: (chatId: number) => void | Promise<void>;
  onMigrated?: (oldId: number, newId: number) => void | Promise<void>;
  /** Asks the outbox for a scheduling pass (a delivery ended: its chat and its slot are free). */
  wake: () => void;
}

/** Starts deliveries of queued items and records their outcomes. */
export class OutboxDeliveries {
  private readonly context: DeliveryContext;
  /** Per item: monotonic time of its retry (the in-process view of its stored notBefore). */
  private readonly retryAt = new Map<string, number>();
  /** Failed deliveries in a row, over all chats: the whole outbox's pause grows with it. */
  private consecutiveFailures = 0;

  constructor(context: DeliveryContext) {
    this.context = context;
  }

  /** The monotonic time this process will retry the item at, if it failed here. */
  retryTimeOf(itemId: string): number | undefined {
    return this.retryAt.get(itemId);
  }

  /** Starts delivering `entry`: its chat is busy and it holds an unrecorded slot until its outcome is on disk. */
  start(entry: OutboxEntry): void {
    const { gate, log, sending, busyChats } = this.context;
    busyChats.add(entry.chatId);
    // Taken now, in the scheduling pass that found it free, so the next item of the pass sees it.
    const turn = gate.take(entry.chatId, 'notice');
    const run = this.deliver(entry, turn)
      .catch((error: unknown) => log.error('recording a notification outcome failed', { ...describe(entry), error }))
      .finally(() => {
        turn.end('unanswered');
        sending.delete(entry.id);
        busyChats.delete(entry.chatId);
        this.context.wake();
      });
    sending.set(entry.id, run);
  }

  /** Claims the item, sends it in its turn, and records the outcome; the turn ends once Telegram answered. */
  private async deliver(entry: OutboxEntry, turn: Turn): Promise<void> {
    const { claims, db, log } = this.context;
    // Claimed, not read: of the instances sharing the store, one sends it.
    const lease = claims.lease();
    const item = await db.outbox.claim(entry.id, lease);
    if (!item) return;
    await turn.ready();
    // Paused past the lease (waiting for a slot, or before): another instance may be sending it now.
    if (!claims.holds(lease.owner)) {
      const lost = 'claim on a notification lost before it was sent (this instance was paused past its lease): not sent here';
      return log.warn(lost, describe(item));
    }
    const parsed = outboxPayloadSchema.safeParse(item.payload);
    if (!parsed.success) {
      log.error('dropping a notification with an invalid payload (a bug in its producer)', {
        ...describe(item),
        problems: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`),
      });
      await this.drop(item);
      return;
    }
    let messageId: number;
    try {
      messageId = await deliverPayload(this.context.api, item.chatId, parsed.data, this.context.retry.requestTimeoutMs);
    } catch (error) {
      turn.end('answered');
      await this.failed(item, parsed.data, error);
      return;
    }
    // A new message counts in its group's window; an edit does not.
    turn.end(parsed.data.type === 'send' ? 'delivered' : 'answered');
    this.consecutiveFailures = 0;
    this.retryAt.delete(item.id);
    log.debug('notification delivered', { ...describe(item), messageId, attempts: item.attempts + 1 });
    await this.drop(item);
  }

  /** Decides what a failed delivery means for the item (see outbox.ts's module comment). */
  private async failed(item: OutboxItem, payload: OutboxPayload, error: unknown): Promise<void> {
    if (error instanceof GrammyError) {
      const { error_code: code, description, parameters } = error;
      if (code === 429) return this.waitOutRateLimit(item, parameters.retry_after);
      const newChatId = parameters.migrate_to_chat_id;
      if (newChatId !== undefined) return this.followMigration(item, newChatId);
      if (code === 403) return this.recipientGone(item, description);
      if (code === 400) return this.refused(item, payload, description);
    }
    // Network errors, timeouts, 5xx, a wrong token or API root (401/404), anything unexpected: retry.
    return this.retryLater(item, error);
  }

  /** 429: waits `retry_after` for that chat, then retries the same item - never dropped. */
  private async waitOutRateLimit(item: OutboxItem, retryAfter: number | undefined): Promise<void> {
    const { gate, mono, log, now, db } = this.context;
    const waitMs = (retryAfter ?? fallbackRetryAfterSeconds) * 1000;
    gate.hold(item.chatId, waitMs);
    this.retryAt.set(item.id, mono() + waitMs);
    log.warn('Telegram asked to slow down; waiting before sending to this chat again', { ...describe(item), retryAfterMs: waitMs });
    const notBefore = new Date(now().getTime() + waitMs).toISOString();
    await this.persist(() => db.outbox.update(item.id, { attempts: item.attempts + 1, notBefore }), item);
  }

  /** The group became a supergroup: every item of the chat moves to it. */
  private async followMigration(item: OutboxItem, newChatId: number): Promise<void> {
    const { db, log, onMigrated } = this.context;
    let moved = 0;
    await this.persist(async () => (moved += await db.outbox.retarget(item.chatId, newChatId)), item);
    log.info('group became a supergroup; its notifications follow it', { ...describe(item), newChatId, moved });
    await this.hook('onMigrated', () => onMigrated?.(item.chatId, newChatId));
  }

  /** 403 (blocked, deactivated, kicked): a user is marked inactive, a group goes to `onBlocked`; the item is dropped. */
  private async recipientGone(item: OutboxItem, description: string): Promise<void> {
    const { db, log, onBlocked } = this.context;
    log.info('recipient cannot be messaged (blocked the bot, deactivated or removed it); dropping the notification', {
      ...describe(item),
      description,
    });
    if (item.chatId > 0) {
      await this.persist(async () => {
        if ((await db.users.get(item.chatId))?.active) await db.users.setActive(item.chatId, false);
      }, item);
    } else {
      await this.hook('onBlocked', () => onBlocked?.(item.chatId));
    }
    await this.drop(item);
  }

  /** 400: the item cannot succeed as it is; an edit of a gone message may still go out as a new one (`sendIfGone`). */
  private async refused(item: OutboxItem, payload: OutboxPayload, description: string): Promise<void> {
    const { db, log } = this.context;
    const where = describe(item);
    if (payload.type === 'edit' && uneditable.test(description)) {
      if (payload.sendIfGone && !/not modified/i.test(description)) {
        log.info('the message to edit is gone; sending the notification as a new message', { ...where, description });
        await this.persist(() => db.outbox.update(item.id, { payload: asSend(payload) }), item);
        return;
      }
      log.info('edit not applied (message gone, too old or unchanged); dropping it', { ...where, description });
      await this.drop(item);
      return;
    }
    log.warn('Telegram refused a notification; it cannot succeed, dropping it', { ...where, description });
    await this.drop(item);
  }

  /** Retries with exponential back-off (also pausing the whole outbox), or gives up after `giveUpAfterMs`. */
  private async retryLater(item: OutboxItem, error: unknown): Promise<void> {
    const { now, log, gate, mono, db, retry } = this.context;
    const where = describe(item);
    const failingSince = item.failingSince ?? now().toISOString();
    const failingForMs = now().getTime() - Date.parse(failingSince);
    const reason = errorSummary(error);
    if (failingForMs >= retry.giveUpAfterMs) {
      log.error('giving up on a notification that kept failing', { ...where, attempts: item.attempts + 1, failingSince, reason });
      await this.drop(item);
      return;
    }
    const attempts = item.attempts + 1;
    const backoffMs = Math.min(retry.baseMs * 2 ** (attempts - 1), retry.maxMs);
    this.consecutiveFailures += 1;
    // Telegram unreachable or failing usually affects every chat: slow down everything, not just this item.
    gate.pause(Math.min(retry.baseMs * 2 ** (this.consecutiveFailures - 1), retry.maxMs), 'notice');
    this.retryAt.set(item.id, mono() + backoffMs);
    const level = error instanceof HttpError || (error instanceof GrammyError && error.error_code >= 500) ? 'warn' : 'error';
    log[level]('sending a notification failed; retrying later', { ...where, attempts, retryInMs: backoffMs, reason });
    const notBefore = new Date(now().getTime() + backoffMs).toISOString();
    await this.persist(() => db.outbox.update(item.id, { attempts, failingSince, notBefore }), item);
  }

  private async drop(item: OutboxItem): Promise<void> {
    this.retryAt.delete(item.id);
    await this.persist(() => this.context.db.outbox.remove(item.id), item);
  }

  /** Writes an outcome until it is on disk (recording.ts); the delivery keeps its unrecorded slot meanwhile. */
  private persist(write: () => Promise<unknown>, item: Pick<OutboxItem, 'id' | 'chatId'>): Promise<boolean> {
    return this.context.recorder.record(write, describe(item));
  }

  private async hook(name: string, run: () => void | Promise<void> | undefined): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.context.log.error(`${name} failed`, { error });
    }
  }
}
