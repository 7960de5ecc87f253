/**
 * Webhook mode: while a loopback webhook is set, queued updates are POSTed with
 * `X-Telegram-Bot-Api-Secret-Token`, over as many connections at once as the webhook's
 * `max_connections` (setWebhook), else the emulator's `webhookConnections` option (default 1: one
 * at a time, in order). Like Telegram, a chat's updates stay in order: an update is never sent
 * while an earlier one of the same chat is in flight or waiting to be retried. A 2xx answer
 * confirms the update (and a method in the answer body is executed, like Telegram's webhook
 * reply); anything else is retried with a short backoff and shown in getWebhookInfo's
 * last_error_*. With `httpsAsHttp`, an `https://` loopback webhook is POSTed to over plain HTTP,
 * as if a TLS-terminating proxy stood in front of it.
 */
import type { Update } from 'grammy/types';
import { normalizeParams, Params } from './params.ts';
import type { World } from './world.ts';

export interface WebhookDeliverer {
  stop(): Promise<void>;
}

export interface WebhookDeliveryOptions {
  /** One POST may take this long before it counts as failed ("Read timeout expired"). Default 10 000 ms. */
  requestTimeoutMs?: number;
  /** Connections used at once when setWebhook gave no `max_connections`. Default 1. */
  connections?: number;
  /** POST to an `https://` loopback webhook over plain `http://` (see BotApiServerOptions.webhookHttpsAsHttp). Default false. */
  httpsAsHttp?: boolean;
}

/**
 * The chat an update belongs to (its sender for updates outside a chat, such as inline queries),
 * as the key that keeps one chat's updates in order; an update with neither has a key of its own.
 */
export function updateChatKey(update: Update): string {
  const payload = Object.entries(update).find(([key]) => key !== 'update_id')?.[1] as
    { chat?: { id: number }; message?: { chat?: { id: number } }; from?: { id: number }; user?: { id: number } } | undefined;
  const id = payload?.chat?.id ?? payload?.message?.chat?.id ?? payload?.from?.id ?? payload?.user?.id;
  return id === undefined ? `update:${update.update_id}` : `chat:${id}`;
}

/** Starts the delivery loop; it idles while no loopback webhook is set. */
export function startWebhookDelivery(world: World, options: WebhookDeliveryOptions = {}): WebhookDeliverer {
  const controller = new AbortController();
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  /** Chats with an update in flight (or waiting out a failure's backoff). */
  const busyChats = new Set<string>();
  const deliveries = new Set<Promise<void>>();
  let failures = 0;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        controller.signal.removeEventListener('abort', done);
        resolve();
      }
      controller.signal.addEventListener('abort', done);
    });

  const fail = async (message: string) => {
    if (world.webhook) {
      world.webhook.lastErrorDate = Math.floor(world.now() / 1000);
      world.webhook.lastErrorMessage = message;
    }
    failures += 1;
    world.changed();
    await pause(Math.min(1000, 50 * 2 ** Math.min(failures, 5)));
  };

  /** POSTs one queued update; on failure its chat stays busy through the backoff, so it is retried first. */
  const deliver = async (update: Update, hook: NonNullable<World['webhook']>): Promise<void> => {
    const url = new URL(hook.url);
    if (options.httpsAsHttp && url.protocol === 'https:') url.protocol = 'http:';
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(hook.secretToken ? { 'X-Telegram-Bot-Api-Secret-Token': hook.secretToken } : {}),
        },
        body: JSON.stringify(update),
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(requestTimeoutMs)]),
      });
      const body = await response.text();
      if (!response.ok) {
        await fail(`Wrong response from the webhook: ${response.status} ${response.statusText}`);
        return;
      }
      failures = 0;
      world.removeQueued(update);
      await runWebhookReply(world, body);
    } catch (error) {
      if (controller.signal.aborted) return;
      await fail(error instanceof Error && error.name === 'TimeoutError' ? 'Read timeout expired' : 'Connection refused');
    }
  };

  const loop = async () => {
    while (!controller.signal.aborted && !world.closed) {
      const hook = world.webhook;
      const connections = Math.max(1, hook?.maxConnections ?? options.connections ?? 1);
      const update =
        hook?.delivering && deliveries.size < connections ? world.nextWebhookUpdate((u) => !busyChats.has(updateChatKey(u))) : undefined;
      if (!hook || !update) {
        await world.nextChange();
        continue;
      }
      const chat = updateChatKey(update);
      busyChats.add(chat);
      world.webhookInFlight += 1;
      const delivery = deliver(update, hook).finally(() => {
        busyChats.delete(chat);
        deliveries.delete(delivery);
        world.webhookInFlight -= 1;
        world.changed();
      });
      deliveries.add(delivery);
    }
    await Promise.all(deliveries);
  };

  const running = loop();
  return {
    async stop() {
      controller.abort();
      world.changed();
      await running;
    },
  };
}

/** Executes a method call returned in a webhook response body (`{ method, ...params }`). */
async function runWebhookReply(world: World, body: string): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return;
  }
  if (typeof parsed !== 'object' || parsed === null) return;
  const { method, ...params } = parsed as Record<string, unknown>;
  if (typeof method !== 'string') return;
  try {
    await world.call(method, new Params(normalizeParams(params)), 'webhook-reply');
  } catch {
    // A malformed webhook reply is ignored, as Telegram does.
  }
}
