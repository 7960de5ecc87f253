/**
 * A loopback Telegram Bot API emulator for end-to-end tests and the browser playground.
 *
 * The bot talks to it exactly as to api.telegram.org (`${apiRoot}/bot${token}/${method}`, JSON,
 * urlencoded or multipart params, `{ ok, result }` envelopes, long polling or webhook), so calls
 * made anywhere (including inside conversations, which use a fresh Api) are captured at the HTTP
 * level. Tests build a world of users and groups, drive updates (`user.send`, `api.tap`, ...),
 * and read what the bot did (`api.messages`, `api.calls`, `api.waitForBotMessage`, ...).
 * Product code never imports this module.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallbackQuery, InlineQuery, Update, UserFromGetMe } from 'grammy/types';
import { InlineMode } from './inline.ts';
import { installMethods } from './methods.ts';
import { handlePlaygroundRequest } from './page.ts';
import { BotApiError, Params, parseParams, readBody } from './params.ts';
import type {
  ApiCall,
  ApiResponse,
  BotApiOptions,
  CallbackAnswer,
  ChatRef,
  CreateGroupOptions,
  CreateUserOptions,
  CurrentReplyKeyboard,
  EmulatedGroup,
  EmulatedMessage,
  EmulatedUser,
  FaultOptions,
  InlineAnswer,
  LimitOptions,
  MessageRef,
  SendInlineQueryOptions,
  SendTextOptions,
  WaitForBotMessageOptions,
  WaitOptions,
  WebhookState,
} from './types.ts';
import { startWebhookDelivery } from './webhook.ts';
import { World } from './world.ts';

export type * from './types.ts';

type UserRef = number | { readonly id: number };

/** The running emulator: connection details, world building, driving, reading, faults. */
export interface BotApiEmulator {
  /** Pass as grammY's `client.apiRoot`, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly apiRoot: string;
  /** Same as apiRoot; the browser chat page is served at `${url}/`. */
  readonly url: string;
  readonly token: string;
  /** A valid getMe answer, for grammY's `botInfo` option. */
  readonly botInfo: UserFromGetMe;

  // world
  /** Adds a user (id auto-assigned unless given) with a private chat with the bot. */
  createUser(options: CreateUserOptions): EmulatedUser;
  /** Adds a group or supergroup; the bot is a member unless `bot: 'none'`. */
  createGroup(options: CreateGroupOptions): EmulatedGroup;
  /** Handle of an existing user by id. */
  userHandle(id: number): EmulatedUser;

  // driving the bot
  /** A user writes text (private chat by default); `/command` gets a bot_command entity. */
  sendText(user: UserRef, text: string, options?: SendTextOptions): EmulatedMessage;
  /** A user sends a photo (image bytes), with a caption if given; its file_id works for the bot. */
  sendPhoto(
    user: UserRef,
    photo: { bytes: Buffer; width: number; height: number; filename?: string; mimeType?: string },
    options?: Omit<SendTextOptions, 'mentionBot'> & { caption?: string },
  ): EmulatedMessage;
  /** A user taps an inline button (by text, else by callback_data); throws if there is none. */
  tap(user: UserRef, message: MessageRef, button: string): CallbackQuery;
  /** A user edits their text message (edited_message update). */
  editUserMessage(message: MessageRef, text: string): EmulatedMessage;
  /** Bot added to a group: my_chat_member + new_chat_members service message. */
  addBotToGroup(group: ChatRef, options?: { by?: EmulatedUser; admin?: boolean }): void;
  /** Bot removed (banned) from a group: my_chat_member; sends answer 403 afterwards. */
  removeBotFromGroup(group: ChatRef, options?: { by?: EmulatedUser }): void;
  /** Group upgraded to a supergroup; sends to the old id answer 400 with migrate_to_chat_id. */
  migrateGroup(group: ChatRef): EmulatedGroup;
  /** The user blocks the bot (my_chat_member kicked); sends answer 403. */
  blockBot(user: UserRef): void;
  /** The user restarts the bot (my_chat_member member). */
  unblockBot(user: UserRef): void;
  /** A user types `@bot text` (an inline_query update); needs the `inlineMode` option. */
  sendInlineQuery(user: UserRef, text: string, options?: SendInlineQueryOptions): InlineQuery;
  /** The user picks a result of an answer: its message appears in `chat` from the user, via the bot. */
  chooseInlineResult(user: UserRef, answer: InlineAnswer, resultId: string, options?: { chat?: ChatRef }): EmulatedMessage;
  /**
   * Queues an update again with the same update_id (the update or its id), as Telegram re-sends
   * one whose delivery it saw no 2xx answer for: a duplicate the bot must recognise.
   */
  redeliver(update: Update | number): Update;
  /** Queues any update; update_id is assigned when absent. */
  pushUpdate(update: Omit<Update, 'update_id'> & { update_id?: number }): Update;

  // reading
  /** Messages of a chat in id order (bot and users), deleted ones flagged. */
  messages(chat: ChatRef): EmulatedMessage[];
  message(chat: ChatRef, messageId: number): EmulatedMessage | undefined;
  botMessages(chat: ChatRef): EmulatedMessage[];
  /** Latest bot message in the chat that is not deleted. */
  lastBotMessage(chat: ChatRef): EmulatedMessage | undefined;
  /** Every method call answered, in order (getUpdates included). */
  readonly calls: readonly ApiCall[];
  callsTo(method: string): ApiCall[];
  readonly callbackAnswers: readonly CallbackAnswer[];
  /** Every answerInlineQuery accepted, in order. */
  readonly inlineAnswers: readonly InlineAnswer[];
  /** Every update ever queued, in order. */
  readonly updates: readonly Update[];
  /** Commands set for a scope/language (exact match, as getMyCommands). */
  myCommands(scope?: unknown, languageCode?: string): unknown[];
  /** Reply keyboard a client would show in the chat now. */
  replyKeyboard(chat: ChatRef): CurrentReplyKeyboard;
  readonly webhook: WebhookState | undefined;
  /** True while a getUpdates long poll is waiting (the bot is connected and idle). */
  readonly polling: boolean;
  /**
   * HTTP requests received and not answered yet, long polls waiting for updates left out: 0 when
   * the emulator has nothing to do but wait (virtual-time tests advance the clock only then).
   */
  readonly activeRequests: number;
  /** Increments on every observable change (calls, updates, world edits). */
  readonly version: number;
  /** Updates queued and not yet confirmed by the bot. */
  readonly queue: readonly Update[];

  // waiting (never sleep in tests)
  /** Resolves with the first truthy predicate value, re-checked on every change and every 10 ms. */
  waitFor<T>(predicate: () => T, options?: WaitOptions): Promise<NonNullable<T>>;
  /** Waits for a bot message in a chat (optionally after a message id and with some text). */
  waitForBotMessage(chat: ChatRef, options?: WaitForBotMessageOptions): Promise<EmulatedMessage>;
  waitForCallbackAnswer(query: string | { readonly id: string }, options?: WaitOptions): Promise<CallbackAnswer>;
  waitForInlineAnswer(query: string | { readonly id: string }, options?: WaitOptions): Promise<InlineAnswer>;
  /** All queued updates confirmed and the bot polling again (sequential polling: all handled). */
  waitForIdle(options?: WaitOptions): Promise<true>;

  // faults and limits
  /** Matching calls answer 429 `Too Many Requests: retry after N`; returns an undo function. */
  inject429(options: FaultOptions & { retryAfter: number }): () => void;
  /** Matching calls answer any Telegram error; returns an undo function. */
  injectError(
    options: FaultOptions & { errorCode: number; description: string; parameters?: { retry_after?: number; migrate_to_chat_id?: number } },
  ): () => void;
  clearFaults(): void;
  /** Turns enforcement of Telegram's send limits on/off at run time. */
  setEnforceLimits(limits: boolean | LimitOptions): void;
  /** Emulator-clock times of successful sends to a chat, or to all chats. */
  sendTimes(chat?: ChatRef | 'all'): number[];
  /** Most successful sends in any sliding window of windowMs. */
  maxSendsInWindow(chat: ChatRef | 'all', windowMs: number): number;

  // webhook
  /**
   * Switches to webhook mode: updates are POSTed to a loopback URL (with the secret header), over
   * `webhookConnections` connections at once (one chat's updates one at a time, in order).
   */
  deliverTo(url: string, secretToken?: string): void;

  /**
   * Adds a network round trip to every Bot API call over HTTP: half of it before the call arrives
   * (and counts against the limits), half before its answer leaves. 0 (the default) turns it off.
   */
  setNetworkDelay(roundTripMs: number): void;

  /** Stops the server: pending polls end empty, pending waits reject, sockets close. */
  close(): Promise<void>;
}

/** Options of the emulator's server: the world's, and how the webhook is delivered. */
export interface BotApiServerOptions extends BotApiOptions {
  /**
   * Webhook POSTs in flight at once when setWebhook gave no `max_connections` (Telegram's
   * default is 40). Default 1: updates one at a time, in order. With more, updates of different
   * chats go side by side while each chat's stay in order, as several bot instances behind a load
   * balancer receive them.
   */
  webhookConnections?: number;
  /**
   * Deliver to an `https://` loopback webhook over plain `http://`, as if a TLS-terminating
   * reverse proxy stood in front of it: a bot that insists on an https WEBHOOK_URL (as Telegram
   * does) can then be tested behind a plain loopback server. Default false.
   */
  webhookHttpsAsHttp?: boolean;
  /**
   * How the emulator waits out half a round trip of `setNetworkDelay` (ms); default a timer. Tests
   * pass one they resolve themselves.
   */
  networkWait?: (ms: number) => Promise<void>;
}

/**
 * Starts the emulator on loopback (a free port by default) and resolves when it listens.
 *
 * @example
 * const api = await startBotApi();
 * const bot = new Bot(api.token, { botInfo: api.botInfo, client: { apiRoot: api.apiRoot } });
 */
export async function startBotApi(options: BotApiServerOptions = {}): Promise<BotApiEmulator> {
  const world = new World(options);
  installMethods(world);
  const inline = new InlineMode(world);

  let handling = 0;
  /** Half a round trip, added before each Bot API call is handled and again before its answer (`setNetworkDelay`). */
  let halfTripMs = 0;
  const networkWait = options.networkWait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const travel = () => (halfTripMs > 0 ? networkWait(halfTripMs) : undefined);
  const server = createServer((req, res) => {
    handling += 1;
    res.once('close', () => (handling -= 1));
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, { ok: false, error_code: 500, description: `Internal Server Error: ${String(error)}` }, 500);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator.local');
    const route = /^\/bot([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
    if (!route) {
      if (await handlePlaygroundRequest(world, inline, req, res, url)) return;
      send(res, { ok: false, error_code: 404, description: 'Not Found' }, 404);
      return;
    }
    const [, token, method] = route as unknown as [string, string, string];
    // The way there: the call arrives (and counts against the limits) half a round trip later.
    await travel();
    const at = world.now();
    let parsed: ReturnType<typeof parseParams>;
    try {
      parsed = parseParams(req.headers['content-type'], await readBody(req), url.searchParams);
    } catch (error) {
      const e = error instanceof BotApiError ? error : new BotApiError(400, `Bad Request: ${String(error)}`);
      const response: ApiResponse = { ok: false, error_code: e.errorCode, description: e.description };
      world.recordCall({ method, params: {}, at, status: e.errorCode, response, via: 'http' });
      send(res, response, e.errorCode);
      return;
    }
    if (decodeURIComponent(token) !== world.token) {
      const response: ApiResponse = { ok: false, error_code: 401, description: 'Unauthorized' };
      world.recordCall({ method, params: parsed.params, at, status: 401, response, via: 'http' });
      send(res, response, 401);
      return;
    }
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const call = await world.call(method, new Params(parsed.params, parsed.files), 'http', abort.signal);
    // And the way back.
    await travel();
    if (!res.destroyed && !res.writableEnded) send(res, call.response, call.status);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const apiRoot = `http://${host}:${address.port}`;
  const deliverer = startWebhookDelivery(world, { connections: options.webhookConnections, httpsAsHttp: options.webhookHttpsAsHttp });

  let closing: Promise<void> | undefined;
  const extras = {
    apiRoot,
    url: apiRoot,
    setNetworkDelay(roundTripMs: number) {
      halfTripMs = Math.max(0, roundTripMs) / 2;
    },
    replyKeyboard: (chat: ChatRef) => world.requireChat(chat).replyKeyboard,
    inlineAnswers: inline.inlineAnswers,
    sendInlineQuery: (user: UserRef, text: string, options?: SendInlineQueryOptions) => inline.sendInlineQuery(user, text, options),
    chooseInlineResult: (user: UserRef, answer: InlineAnswer, resultId: string, options?: { chat?: ChatRef }) =>
      inline.chooseInlineResult(user, answer, resultId, options),
    waitForInlineAnswer: (query: string | { readonly id: string }, options?: WaitOptions) => inline.waitForInlineAnswer(query, options),
    deliverTo(target: string, secretToken?: string) {
      const parsedUrl = new URL(target);
      if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(parsedUrl.hostname)) {
        throw new Error(
          `deliverTo: ${target} is not on loopback; the emulator only delivers to 127.0.0.1/localhost so tests stay off the internet.`,
        );
      }
      world.endPollers(new BotApiError(409, 'Conflict: terminated by setWebhook request'));
      world.webhook = {
        url: target,
        secretToken,
        allowedUpdates: undefined,
        maxConnections: undefined,
        delivering: true,
        lastErrorDate: undefined,
        lastErrorMessage: undefined,
      };
      world.changed();
    },
    close() {
      closing ??= (async () => {
        world.shutdown();
        await deliverer.stop();
        // Let the answers to ended long polls reach their sockets before they are destroyed.
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
  // A getter (Object.assign would copy its value once).
  const emulator = Object.defineProperty(Object.assign(world, extras), 'activeRequests', {
    get: () => handling - world.waitingPolls,
  }) as World & typeof extras & { readonly activeRequests: number };
  return emulator satisfies BotApiEmulator;
}

function send(res: ServerResponse, body: unknown, status: number): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
