/**
 * Webhook mode: while a loopback webhook is set, queued updates are POSTed one at a time, in
 * order, with `X-Telegram-Bot-Api-Secret-Token`. A 2xx answer confirms the update (and a method in
 * the answer body is executed, like Telegram's webhook reply); anything else is retried with a
 * short backoff and shown in getWebhookInfo's last_error_*.
 */
import { normalizeParams, Params } from './params.ts';
import type { World } from './world.ts';

export interface WebhookDeliverer {
  stop(): Promise<void>;
}

/** Starts the delivery loop; it idles while no loopback webhook is set. */
export function startWebhookDelivery(world: World, options: { requestTimeoutMs?: number } = {}): WebhookDeliverer {
  const controller = new AbortController();
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
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

  const loop = async () => {
    while (!controller.signal.aborted && !world.closed) {
      const hook = world.webhook;
      const update = hook?.delivering ? world.takeBatch(1)[0] : undefined;
      if (!hook || !update) {
        await world.nextChange();
        continue;
      }
      world.webhookBusy = true;
      try {
        const response = await fetch(hook.url, {
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
          world.webhookBusy = false;
          await fail(`Wrong response from the webhook: ${response.status} ${response.statusText}`);
          continue;
        }
        failures = 0;
        world.removeUpdate(update.update_id);
        await runWebhookReply(world, body);
      } catch (error) {
        world.webhookBusy = false;
        if (controller.signal.aborted) break;
        await fail(error instanceof Error && error.name === 'TimeoutError' ? 'Read timeout expired' : 'Connection refused');
        continue;
      }
      world.webhookBusy = false;
      world.changed();
    }
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
