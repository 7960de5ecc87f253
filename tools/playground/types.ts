/**
 * Public types of the Telegram Bot API emulator: what tests read (messages, calls, callback
 * answers) and the handles they drive (users, groups).
 */
import type {
  CallbackQuery,
  Chat,
  InlineKeyboardMarkup,
  InlineQuery,
  InlineQueryResult,
  InlineQueryResultsButton,
  Message,
  ReplyKeyboardMarkup,
  User,
} from 'grammy/types';

/** Anything that names a chat: its id, a user or group handle, or a Telegram object with `id`. */
export type ChatRef = number | { readonly id: number };

/** Anything that names a stored message. */
export type MessageRef = EmulatedMessage | Message | { readonly chatId: number; readonly messageId: number };

/** Telegram's answer envelope. */
export type ApiResponse =
  | { ok: true; result: unknown }
  | { ok: false; error_code: number; description: string; parameters?: { migrate_to_chat_id?: number; retry_after?: number } };

/** One Bot API method call the emulator answered. */
export interface ApiCall {
  /** Method name as the client wrote it (Telegram matches names case-insensitively). */
  method: string;
  /** Params after decoding (JSON-valued form fields parsed, integer/boolean form strings coerced). */
  params: Record<string, unknown>;
  /** Emulator clock (`now()`) when the call arrived. */
  at: number;
  /** HTTP status of the answer (Telegram uses `error_code` as the status). */
  status: number;
  response: ApiResponse;
  /** `http` for ordinary calls; `webhook-reply` for a method returned in a webhook response body. */
  via: 'http' | 'webhook-reply';
  /** Set when the answer came from `inject429`/`injectError` or from `enforceLimits`. */
  injected?: 'fault' | 'limit';
}

/** A message as the emulator stores it. Objects are live: edits and deletions update them. */
export interface EmulatedMessage {
  readonly chatId: number;
  readonly messageId: number;
  /** True for messages the bot sent (sendMessage, sendPhoto, copyMessage, ...). */
  readonly fromBot: boolean;
  /** The message as Telegram holds it now (after edits). */
  readonly message: Message;
  /** `text`, or the caption of a media message. */
  readonly text: string | undefined;
  /** Inline keyboard buttons' texts, row by row (`[]` without an inline keyboard). */
  readonly buttons: string[][];
  readonly inlineKeyboard: InlineKeyboardMarkup | undefined;
  /** Earlier versions of the message, oldest first (one per successful edit). */
  readonly history: readonly Message[];
  readonly deleted: boolean;
  /** Emulator clock when the message was sent / last edited / deleted. */
  readonly sentAt: number;
  readonly editedAt: number | undefined;
  readonly deletedAt: number | undefined;
  /** Reactions the bot set with setMessageReaction. */
  readonly botReactions: readonly unknown[];
  /** For bot messages: the method that created it. */
  readonly method: string | undefined;
}

/** answerCallbackQuery as received. */
export interface CallbackAnswer {
  callbackQueryId: string;
  /** The query being answered. */
  query: CallbackQuery;
  text: string | undefined;
  showAlert: boolean;
  url: string | undefined;
  cacheTime: number | undefined;
  at: number;
}

/** answerInlineQuery as received. */
export interface InlineAnswer {
  inlineQueryId: string;
  /** The query being answered. */
  query: InlineQuery;
  results: InlineQueryResult[];
  /** `next_offset` (absent when empty: no more results). */
  nextOffset?: string;
  cacheTime?: number;
  isPersonal: boolean;
  /** The button shown above the results (`start_parameter` opens the bot with /start <parameter>). */
  button?: InlineQueryResultsButton;
  at: number;
}

export interface SendInlineQueryOptions {
  /** `offset` of the query: the `next_offset` of an earlier answer when the user scrolls (default ''). */
  offset?: string;
  /** Type of the chat the query was typed in (default `sender`: the user's chat with the bot). */
  chatType?: InlineQuery['chat_type'];
}

export interface SendTextOptions {
  /** Chat to write in; the user's private chat with the bot by default. */
  chat?: ChatRef;
  /** Reply to this message (id in the same chat, or a message). */
  replyTo?: number | MessageRef;
  /**
   * In groups a leading `/command` is sent as `/command@botusername` (as Telegram clients do when
   * a command is picked from the menu). Pass false to send it verbatim.
   */
  mentionBot?: boolean;
}

/** A simulated Telegram user; `send`/`tap` are shorthands for the emulator's driver methods. */
export interface EmulatedUser {
  readonly id: number;
  /** The Telegram `User` object that appears in updates. */
  readonly user: User;
  /** Id of the user's private chat with the bot (equal to `id`). */
  readonly chatId: number;
  /** Sends a text message (see `BotApiEmulator.sendText`). */
  send(text: string, options?: SendTextOptions): EmulatedMessage;
  /** Taps an inline button (see `BotApiEmulator.tap`). */
  tap(message: MessageRef, button: string): CallbackQuery;
}

/** A simulated group or supergroup. */
export interface EmulatedGroup {
  readonly id: number;
  readonly type: 'group' | 'supergroup';
  readonly title: string;
  /** The Telegram `Chat` object that appears in updates. */
  readonly chat: Chat.GroupChat | Chat.SupergroupChat;
}

export interface CreateUserOptions {
  firstName: string;
  lastName?: string;
  username?: string;
  languageCode?: string;
  isPremium?: boolean;
  /** Fixed id (must be unused); otherwise one is assigned. */
  id?: number;
  /**
   * Whether the user has opened the private chat with the bot (default true). When false, the
   * bot's sends to the user answer 403 `bot can't initiate conversation with a user` until the
   * user writes to the bot.
   */
  startedBot?: boolean;
  /**
   * Who the user is, as the chat page shows it beside their name (e.g. "upline, connected" in the
   * demo); the playground's own, never part of the Telegram user.
   */
  note?: string;
}

export interface CreateGroupOptions {
  title: string;
  type?: 'group' | 'supergroup';
  /** Members (admins and owner are added as members too). */
  members?: readonly EmulatedUser[];
  /** Administrators; the owner (creator) is `owner`, else the first admin, else the first member. */
  admins?: readonly EmulatedUser[];
  owner?: EmulatedUser;
  /** Public username (supergroups), so `@username` works as chat_id. */
  username?: string;
  /** The bot's membership at creation (default `member`; `none` to add it later with addBotToGroup). */
  bot?: 'member' | 'administrator' | 'none';
  /** Fixed chat id (negative); otherwise one is assigned. */
  id?: number;
}

/** Telegram's documented broadcast limits, enforced when `enforceLimits` is on. */
export interface LimitOptions {
  /** Messages per chat per second (default 1). */
  perChatPerSecond?: number;
  /** Messages per group or supergroup per minute (default 20). */
  perGroupPerMinute?: number;
  /** Messages per second over all chats (default 30), not counting paid ones (`allow_paid_broadcast`). */
  globalPerSecond?: number;
  /** Paid messages (`allow_paid_broadcast`) per second over all chats (default 1000). */
  paidPerSecond?: number;
}

export interface BotApiOptions {
  /** TCP port (default 0: a free port). */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Bot token `<bot id>:<secret>` (default `123456789:playground-token-not-a-secret`); the id becomes the bot's id. */
  token?: string;
  /** Bot username without @ (default `kiosbot_test_bot`). */
  botUsername?: string;
  /** Bot display name (default `Kiosbot Test`). */
  botFirstName?: string;
  /** Clock in epoch milliseconds for message dates, call timestamps and limits (default Date.now). */
  now?: () => number;
  /** Answer 429 like Telegram when the bot exceeds its send limits (default off). */
  enforceLimits?: boolean | LimitOptions;
  /** Group privacy mode: the bot only sees commands, replies to it and service messages unless admin (default true). */
  privacyMode?: boolean;
  /** How long a callback query can be answered (default 15 000 ms, emulator clock). */
  callbackQueryTtlMs?: number;
  /** The bot has inline mode (BotFather /setinline): `supports_inline_queries` and `sendInlineQuery` (default false). */
  inlineMode?: boolean;
  /** Inline feedback (BotFather /setinlinefeedback): choosing a result queues `chosen_inline_result` (default false). */
  inlineFeedback?: boolean;
}

/** Rule for `injectError`. */
export interface FaultOptions {
  /** Method name to match (case-insensitive); any method when absent. */
  method?: string;
  /** `chat_id` param to match; any chat when absent. */
  chatId?: ChatRef;
  /** How many matching calls fail (default 1; Infinity for all). */
  times?: number;
}

export interface WaitOptions {
  /** Give up after this long (default 5000 ms, real time). */
  timeoutMs?: number;
  /** Text for the timeout error. */
  message?: string;
}

export interface WaitForBotMessageOptions extends WaitOptions {
  /** Only messages with a larger message_id (an id or a message in the same chat). */
  after?: number | MessageRef;
  /** Text or caption contains this string / matches this pattern. */
  textIncludes?: string | RegExp;
  /** Any other condition. */
  where?: (message: EmulatedMessage) => boolean;
}

/** State of the emulated webhook (getWebhookInfo plus whether the emulator POSTs to it). */
export interface WebhookState {
  url: string;
  secretToken: string | undefined;
  allowedUpdates: string[] | undefined;
  maxConnections: number | undefined;
  /** True when the URL is on loopback and updates are POSTed to it. */
  delivering: boolean;
  lastErrorDate: number | undefined;
  lastErrorMessage: string | undefined;
}

/** Current reply keyboard of a chat, as a client would show it. */
export type CurrentReplyKeyboard = ReplyKeyboardMarkup | undefined;
