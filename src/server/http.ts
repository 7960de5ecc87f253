import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BotError, type Bot } from 'grammy';
import type { HandleUpdate } from './pipeline-stage.ts';
import type { Update } from 'grammy/types';
import { mayMoveMoney, type UpdateClaims } from './update-inbox.ts';
import type { UnstoredUpdates } from './unstored-updates.ts';
import { inboxRetention, type Lease } from '../store/contract.ts';
import { readUpdate } from './update-shape.ts';
import type { BotContext } from '../bot/context.ts';
import type { Logger } from '../logger.ts';
import type { Db } from '../store/db.ts';

export interface HttpServerOptions {
  port: number;
  /** Interface to listen on (HEALTH_HOST). Default 127.0.0.1: reachable from this machine only. */
  host?: string;
  /** HEALTH_TOKEN: a request with `Authorization: Bearer <token>` gets the counts; without it, liveness only. */
  healthToken?: string;
  logger: Logger;
  db: Db;
  webhook?: WebhookOptions;
}

/** The webhook's bot, the path Telegram posts to, its secret, and the claims of the stored updates it handles. */
export interface WebhookOptions {
  /** The bot (its error handler reports a failed update, as under long polling). */
  bot: Bot<BotContext>;
  /** The update pipeline every update takes (update-pipeline.ts). */
  handle: HandleUpdate;
  path: string;
  secret: string;
  claims: UpdateClaims;
  /** Tells the user of an update the data directory cannot store to try again (answered 200, never handled). */
  unstored?: UnstoredUpdates;
}

export interface HttpServer {
  /** Base URL it listens on, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** The address it is bound to, e.g. `127.0.0.1`, `0.0.0.0` or `::`. */
  host: string;
  close(): Promise<void>;
}

/**
 * The bot's HTTP endpoint, on loopback unless `host` says otherwise: `GET /health` (liveness to
 * anyone; with the `healthToken` bearer also the counts /stats shows, never anything personal; a
 * wrong token gets 401 so a misconfigured monitor notices), and in webhook mode `POST <path>`.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const respond = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://local').pathname;
    if (req.method === 'GET' && path === '/health') {
      const access = healthAccess(req.headers.authorization, options.healthToken);
      if (access === 'refused') {
        res
          .writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer' })
          .end(JSON.stringify({ ok: false, error: 'unauthorized' }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(await healthBody(options.db, access === 'counts')));
      return;
    }
    if (options.webhook && req.method === 'POST' && path === options.webhook.path) {
      void receiveWebhookUpdate(req, res, options.webhook, options.db, options.logger).catch((error: unknown) => {
        options.logger.error('webhook update failed', { error });
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'not found' }));
  };
  let closing = false;
  const server: Server = createServer((req, res) => {
    // Closing: a keep-alive connection ends with its answer instead of idling until its timeout.
    res.once('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    respond(req, res).catch((error: unknown) => {
      options.logger.error('HTTP request failed', { error });
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${address.port}`,
    host: address.address,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
      }),
  };
}

/**
 * The body of a /health answer: alive (`ok: true`) also while a shared database is unreachable,
 * then `database: 'degraded'` without the counts (the instance recovers by itself; a restart would
 * not help).
 */
async function healthBody(db: Db, counts: boolean): Promise<Record<string, unknown>> {
  const store = db.health?.();
  const database = store ? { database: store.reachable ? 'ok' : 'degraded' } : {};
  if (!counts) return { ok: true, ...database };
  const losses = store ? { connectionLosses: store.connectionLosses, locksLost: store.locksLost } : {};
  try {
    return {
      ok: true,
      ...database,
      users: await db.users.count({ active: true }),
      openPurchases: (await db.transactions.listOpen()).length,
      queuedNotices: await db.outbox.size(),
      ...losses,
    };
  } catch (error) {
    if (!store) throw error;
    return { ok: true, database: 'degraded', ...losses };
  }
}

/** Counts with the right bearer token, liveness without one, refused with a wrong one (digests compared in constant time: timing reveals neither content nor length). */
function healthAccess(authorization: string | undefined, token: string | undefined): 'counts' | 'liveness' | 'refused' {
  if (token === undefined || authorization === undefined) return 'liveness';
  const match = /^Bearer (.+)$/i.exec(authorization.trim());
  if (!match) return 'refused';
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(match[1]!.trim()), digest(token)) ? 'counts' : 'refused';
}

/** Largest webhook body taken; updates are a few kilobytes, a larger body gets 413 as soon as that is known. */
export const maxWebhookBodyBytes = 1024 * 1024;

/** How long the rest of a refused body is still read and dropped after its 413. */
const refusedBodyLingerMs = 2_000;

/** The body of `req`, or undefined as soon as it is known to exceed `limit` bytes (nothing more of it is kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/**
 * 413 at once, while the sender may still be sending. Closing a socket with unread bytes in it
 * sends a reset, and a reset throws away what the sender had received and not yet read, the 413
 * among it (RFC 9112 §9.6): a busy sender would see a broken connection instead of the answer. So
 * the rest is read and dropped for a while (the secret was checked first: only Telegram gets
 * here), and the connection is cut only if the body is still coming after that.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(413, { 'Content-Type': 'text/plain' }).end(`body larger than ${maxWebhookBodyBytes} bytes`);
  req.resume();
  const linger = setTimeout(() => req.socket.destroy(), refusedBodyLingerMs).unref();
  req.once('end', () => clearTimeout(linger));
  req.socket.once('close', () => clearTimeout(linger));
}

/** How long a webhook POST waits for its update's handling before it is answered 200 (the handling goes on). */
const webhookAnswerMs = 9_000;

/**
 * One webhook POST: secret first (401, nothing stored), then an update that may move money is
 * stored in the inbox BEFORE it is handled, held by this process, so a crash is replayed. A
 * re-delivery the inbox holds already is answered 200 and not handled again (the insert decides,
 * so two instances handle it once). A data directory that cannot be written answers 200 and tells
 * the user to try again (unstored-updates.ts); any other failed write answers 500, so Telegram
 * delivers it again.
 */
async function receiveWebhookUpdate(
  req: IncomingMessage,
  res: ServerResponse,
  webhook: WebhookOptions,
  db: Db,
  logger: Logger,
): Promise<void> {
  const { secret } = webhook;
  const header = req.headers['x-telegram-bot-api-secret-token'];
  const given = Buffer.from(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    req.resume();
    res.writeHead(401).end('secret token is wrong');
    return;
  }
  const body = await readBody(req, maxWebhookBodyBytes);
  if (body === undefined) {
    refuseTooLarge(req, res);
    return;
  }
  const read = readUpdate(body.toString('utf8'));
  if ('notAnUpdate' in read) {
    res.writeHead(400).end('not an update');
    return;
  }
  if ('field' in read) {
    // Answered 200 so that Telegram does not post it again: no retry could make it readable.
    logger.warn('webhook update refused: a field has the wrong type', { updateId: read.updateId, field: read.field });
    res.writeHead(200).end();
    return;
  }
  const { update } = read;
  const lease = webhook.claims.holder.lease();
  const fresh = await storeWebhookUpdate(update, webhook, db, lease);
  if (fresh === 'dropped' || fresh === 'unstored') {
    // Acknowledged (the answer on its way) before its user is told, so that Telegram does not deliver it again.
    await new Promise<void>((resolve) => res.writeHead(200).end(resolve));
    if (fresh === 'unstored') await webhook.unstored?.tell([update]);
    return;
  }
  if (fresh) {
    if (mayMoveMoney(update)) webhook.claims.record(update.update_id, lease.owner);
    await handleInTime(webhook, update, logger);
  }
  if (!res.headersSent) res.writeHead(200).end();
  // The data directory's inbox after each update (its count bound); PostgreSQL's by the app's timer.
  if (db.kind === 'lowdb') void db.inbox.pruneDone(inboxRetention.webhook.lowdb).catch(() => undefined);
}

/**
 * Handles `update` along the pipeline for at most `webhookAnswerMs` before its POST is answered
 * (the handling goes on). A handler that threw is reported as under polling (bot.catch) and the
 * update acknowledged all the same: its done mark or retry is the pipeline's.
 */
async function handleInTime(webhook: WebhookOptions, update: Update, logger: Logger): Promise<void> {
  await webhook.bot.init();
  let answered = false;
  const handling = webhook.handle(update).catch(async (error: unknown) => {
    if (error instanceof BotError) {
      await webhook.bot.errorHandler(error as BotError<BotContext>);
      return;
    }
    if (!answered) throw error;
    logger.error('webhook update failed after its answer', { updateId: update.update_id, error });
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, webhookAnswerMs)));
  try {
    await Promise.race([handling, late]);
  } finally {
    answered = true;
    clearTimeout(timer);
  }
}

/**
 * Stores an update that may move money (held by `lease`); resolves whether it is new. One the data
 * directory cannot store is `unstored` (its user is told) and every later delivery `dropped`: never
 * handled. Any other failed write rejects, so Telegram delivers it again.
 */
async function storeWebhookUpdate(
  update: Update,
  webhook: WebhookOptions,
  db: Db,
  lease: Lease,
): Promise<boolean | 'dropped' | 'unstored'> {
  const { unstored } = webhook;
  if (unstored?.wasDropped(update.update_id)) return 'dropped';
  if (!mayMoveMoney(update)) return !(await db.inbox.has(update.update_id));
  try {
    return (await db.inbox.addUpdates([update], { lease })).length > 0;
  } catch (error) {
    if (!unstored?.handles(error)) throw error;
    unstored.drop([update], error);
    return 'unstored';
  }
}
