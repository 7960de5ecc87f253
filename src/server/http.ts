import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookCallback, type Bot } from 'grammy';
import type { BotContext } from '../bot/context.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/store.ts';

export interface HttpServerOptions {
  port: number;
  host?: string;
  logger: Logger;
  store: Store;
  /** In webhook mode: the bot, the path Telegram posts to and the secret it sends. */
  webhook?: { bot: Bot<BotContext>; path: string; secret: string };
}

export interface HttpServer {
  /** Base URL it listens on, e.g. `http://127.0.0.1:3000`. */
  url: string;
  close(): Promise<void>;
}

/**
 * The bot's HTTP endpoint: `GET /health` (for a load balancer or uptime check: users, open
 * purchases and queued notices, never anything personal) and, in webhook mode, `POST <path>`
 * for Telegram, which must carry the `X-Telegram-Bot-Api-Secret-Token` header (grammY answers 401
 * otherwise).
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const handleUpdate = options.webhook
    ? webhookCallback(options.webhook.bot, 'http', { secretToken: options.webhook.secret, onTimeout: 'return', timeoutMilliseconds: 9_000 })
    : undefined;

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    if (req.method === 'GET' && path === '/health') {
      const body = JSON.stringify({
        ok: true,
        users: options.store.users.count({ active: true }),
        openPurchases: options.store.transactions.listOpen().length,
        queuedNotices: options.store.outbox.size(),
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
      return;
    }
    if (handleUpdate && options.webhook && req.method === 'POST' && path === options.webhook.path) {
      handleUpdate(req, res).catch((error: unknown) => {
        options.logger.error('webhook update failed', { error });
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'not found' }));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
