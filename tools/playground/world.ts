/**
 * The emulator's world: users, chats, stored messages, the update queue (with getUpdates long
 * polling), recorded calls, fault injection and Telegram's send limits. Bot API methods live in
 * `methods.ts`; the HTTP server in `bot-api.ts`. Everything here is synchronous except waiting.
 */
import type {
  CallbackQuery,
  Chat,
  ChatMember,
  ChatMemberAdministrator,
  InlineKeyboardMarkup,
  InlineQuery,
  Message,
  MessageEntity,
  ReplyKeyboardMarkup,
  Update,
  User,
  UserFromGetMe,
} from 'grammy/types';
import { BotApiError, type Params } from './params.ts';
import type {
  ApiCall,
  ApiResponse,
  BotApiOptions,
  CallbackAnswer,
  ChatRef,
  CreateGroupOptions,
  CreateUserOptions,
  EmulatedGroup,
  EmulatedMessage,
  EmulatedUser,
  FaultOptions,
  LimitOptions,
  MessageRef,
  SendTextOptions,
  WaitForBotMessageOptions,
  WaitOptions,
  WebhookState,
} from './types.ts';

export type MemberStatus = 'creator' | 'administrator' | 'member' | 'left' | 'kicked';

export interface UserState {
  user: User;
  blocked: boolean;
  startedBot: boolean;
  /** What the chat page shows beside the name (CreateUserOptions.note). */
  note?: string | undefined;
}

export interface ChatState {
  id: number;
  type: 'private' | 'group' | 'supergroup';
  title: string | undefined;
  username: string | undefined;
  /** The user of a private chat. */
  userId: number | undefined;
  /** Group members by user id (not the bot). */
  members: Map<number, MemberStatus>;
  /** The bot's membership (always `member` in private chats; blocking is on the user). */
  botStatus: 'member' | 'administrator' | 'left' | 'kicked';
  messages: Map<number, StoredMessage>;
  nextMessageId: number;
  migratedTo: number | undefined;
  migratedFrom: number | undefined;
  /** Reply keyboard a client would show now. */
  replyKeyboard: ReplyKeyboardMarkup | undefined;
  /** Bot message that asked for a forced reply; a client replies to it automatically. */
  forceReplyTo: number | undefined;
}

/** A file the bot sent (uploaded bytes, a URL or a reused file_id). */
export interface StoredFile {
  fileId: string;
  fileUniqueId: string;
  bytes: Buffer | undefined;
  url: string | undefined;
  filename: string | undefined;
  mimeType: string | undefined;
}

/** Thrown by the limiter so the call record can tell a limit 429 from other errors. */
export class LimitError extends BotApiError {}

const defaultUpdateTypes = (type: string) => type !== 'chat_member' && type !== 'message_reaction' && type !== 'message_reaction_count';

/** Removes keys whose value is undefined, so stored objects look like Telegram's JSON. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** JSON with sorted keys, for "is this content the same" comparisons. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** Deep copy, so recorded answers and delivered updates do not change when the world does. */
export const clone = <T>(value: T): T => structuredClone(value);

/** A stored message; live object that edits and deletions update. */
export class StoredMessage implements EmulatedMessage {
  history: Message[] = [];
  deleted = false;
  editedAt: number | undefined;
  deletedAt: number | undefined;
  botReactions: unknown[] = [];

  constructor(
    readonly chatId: number,
    readonly messageId: number,
    readonly fromBot: boolean,
    public message: Message,
    readonly sentAt: number,
    readonly method: string | undefined,
  ) {}

  get text(): string | undefined {
    return this.message.text ?? this.message.caption;
  }

  get inlineKeyboard(): InlineKeyboardMarkup | undefined {
    return this.message.reply_markup;
  }

  get buttons(): string[][] {
    return this.inlineKeyboard?.inline_keyboard.map((row) => row.map((button) => button.text)) ?? [];
  }

  /** Replaces the content, keeping the previous version in `history`. */
  edit(next: Message, at: number): void {
    this.history.push(this.message);
    this.message = next;
    this.editedAt = at;
  }
}

interface Poller {
  limit: number;
  finish: (result: Update[] | BotApiError) => void;
}

interface FaultRule {
  method: string | undefined;
  chatId: number | undefined;
  left: number;
  errorCode: number;
  description: string;
  parameters: { retry_after?: number; migrate_to_chat_id?: number } | undefined;
}

type MethodTable = Record<string, (params: Params) => unknown>;

/** Telegram's admin rights for an emulated administrator. */
export function adminMember(user: User): ChatMemberAdministrator {
  return {
    status: 'administrator',
    user,
    can_be_edited: false,
    is_anonymous: false,
    can_manage_chat: true,
    can_delete_messages: true,
    can_manage_video_chats: true,
    can_restrict_members: true,
    can_promote_members: false,
    can_change_info: true,
    can_invite_users: true,
    can_post_stories: false,
    can_edit_stories: false,
    can_delete_stories: false,
    can_pin_messages: true,
    can_send_welcome_messages: false,
  };
}

/** Builds the Telegram ChatMember object for a status. */
export function memberObject(user: User, status: MemberStatus): ChatMember {
  switch (status) {
    case 'creator':
      return { status: 'creator', user, is_anonymous: false };
    case 'administrator':
      return adminMember(user);
    case 'member':
      return { status: 'member', user };
    case 'left':
      return { status: 'left', user };
    case 'kicked':
      return { status: 'kicked', user, until_date: 0 };
  }
}

/**
 * Default token: shaped like a real one (the bot's config wants 20+ characters after the colon),
 * obviously not a secret.
 */
export const defaultPlaygroundToken = '123456789:playground-token-not-a-secret';

/**
 * The emulator's state and behaviour. `startBotApi` returns it (typed as BotApiEmulator) with the
 * server's address and `close` attached; tests never construct it directly.
 */
export class World {
  readonly token: string;
  readonly botInfo: UserFromGetMe;
  /** The bot as it appears in `from` of its messages. */
  readonly botUser: User;
  readonly now: () => number;
  readonly privacyMode: boolean;
  readonly callbackQueryTtlMs: number;
  /** Choosing an inline result queues `chosen_inline_result` (BotFather /setinlinefeedback). */
  readonly inlineFeedback: boolean;
  limits: Required<LimitOptions> | undefined;

  readonly users = new Map<number, UserState>();
  readonly chats = new Map<number, ChatState>();
  readonly files = new Map<string, StoredFile>();
  /** Unconfirmed updates, oldest first. */
  queue: Update[] = [];
  /** Every update ever queued. */
  readonly updates: Update[] = [];
  allowedUpdates: string[] | undefined;
  readonly calls: ApiCall[] = [];
  readonly callbackAnswers: CallbackAnswer[] = [];
  readonly callbackQueries = new Map<string, { query: CallbackQuery; at: number; answered: boolean }>();
  /** Inline queries the bot may answer (see inline.ts). */
  readonly inlineQueries = new Map<string, { query: InlineQuery; at: number; answered: boolean }>();
  readonly sendLog: Array<{ chatId: number; at: number }> = [];
  /** Times of the sends Telegram counts against the free global limit (not `allow_paid_broadcast` ones), and of the paid ones. */
  private readonly freeSendTimes: number[] = [];
  private readonly paidSendTimes: number[] = [];
  private readonly sendsByChat = new Map<number, number[]>();
  readonly commands = new Map<string, unknown[]>();
  readonly botSettings = new Map<string, unknown>();
  webhook: WebhookState | undefined;
  /** POSTs the webhook deliverer has in flight (several with more than one connection). */
  webhookInFlight = 0;
  /** Incremented on every observable change. */
  version = 0;
  closed = false;
  methods: MethodTable = {};

  private readonly pollers = new Set<Poller>();
  private readonly listeners = new Set<() => void>();
  private faults: FaultRule[] = [];
  private nextUpdateId = 100_000_001;
  private nextUserId = 700_000_001;
  private nextGroupNumber = 1;
  private nextQueryNumber = 1;
  private nextFileNumber = 1;

  constructor(options: BotApiOptions) {
    this.token = options.token ?? defaultPlaygroundToken;
    const idMatch = /^(\d+):[\w-]+$/.exec(this.token);
    if (!idMatch) throw new Error(`The bot token "${this.token}" is not of the form <bot id>:<secret>, e.g. ${defaultPlaygroundToken}.`);
    this.now = options.now ?? Date.now;
    this.privacyMode = options.privacyMode ?? true;
    this.callbackQueryTtlMs = options.callbackQueryTtlMs ?? 15_000;
    this.inlineFeedback = options.inlineFeedback ?? false;
    this.setEnforceLimits(options.enforceLimits ?? false);
    const username = options.botUsername ?? 'kiosbot_test_bot';
    const firstName = options.botFirstName ?? 'Kiosbot Test';
    this.botUser = { id: Number(idMatch[1]), is_bot: true, first_name: firstName, username };
    this.botInfo = {
      ...this.botUser,
      is_bot: true,
      username,
      can_join_groups: true,
      can_read_all_group_messages: !this.privacyMode,
      supports_inline_queries: options.inlineMode ?? false,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    };
  }

  // ------------------------------------------------------------ change notification

  /** Marks a change: wakes waiters, pollers and the webhook deliverer. */
  changed(): void {
    this.version += 1;
    for (const listener of [...this.listeners]) listener();
  }

  /** Calls `listener` after every change until the returned function is called. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves at the next change (or at close). */
  nextChange(): Promise<void> {
    return new Promise((resolve) => {
      const off = this.subscribe(() => {
        off();
        resolve();
      });
      if (this.closed) {
        off();
        resolve();
      }
    });
  }

  // ------------------------------------------------------------ world setup

  /** Adds a user (and the private chat with the bot). */
  createUser(options: CreateUserOptions): EmulatedUser {
    let id = options.id;
    if (id !== undefined) {
      if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`createUser: id must be a positive integer, got ${id}.`);
      if (this.users.has(id) || id === this.botUser.id) throw new Error(`createUser: id ${id} is already taken.`);
    } else {
      while (this.users.has(this.nextUserId) || this.nextUserId === this.botUser.id) this.nextUserId += 1;
      id = this.nextUserId++;
    }
    if (!options.firstName) throw new Error('createUser: firstName is required (Telegram users always have one).');
    const user: User = compact({
      id,
      is_bot: false,
      first_name: options.firstName,
      last_name: options.lastName,
      username: options.username,
      language_code: options.languageCode,
      is_premium: options.isPremium ? (true as const) : undefined,
    });
    this.users.set(id, { user, blocked: false, startedBot: options.startedBot ?? true, note: options.note });
    this.chats.set(id, this.newChat(id, 'private', { userId: id }));
    this.changed();
    return this.userHandle(id);
  }

  /** The handle of an existing user. */
  userHandle(id: number): EmulatedUser {
    const state = this.requireUser(id);
    return {
      id,
      user: state.user,
      chatId: id,
      send: (text, options) => this.sendText(id, text, options),
      tap: (message, button) => this.tap(id, message, button),
    };
  }

  /** Adds a group or supergroup with its members. */
  createGroup(options: CreateGroupOptions): EmulatedGroup {
    const type = options.type ?? 'group';
    let id = options.id;
    if (id !== undefined) {
      if (!Number.isSafeInteger(id) || id >= 0) throw new Error(`createGroup: a group id is negative, got ${id}.`);
      if (this.chats.has(id)) throw new Error(`createGroup: chat ${id} already exists.`);
    } else {
      id = this.newGroupId(type);
    }
    if (!options.title) throw new Error('createGroup: title is required.');
    const chat = this.newChat(id, type, { title: options.title, username: options.username });
    const owner = options.owner ?? options.admins?.[0] ?? options.members?.[0];
    for (const member of options.members ?? []) chat.members.set(this.requireUser(member.id).user.id, 'member');
    for (const admin of options.admins ?? []) chat.members.set(this.requireUser(admin.id).user.id, 'administrator');
    if (owner) chat.members.set(this.requireUser(owner.id).user.id, 'creator');
    const bot = options.bot ?? 'member';
    chat.botStatus = bot === 'none' ? 'left' : bot;
    this.chats.set(id, chat);
    this.changed();
    return this.groupHandle(id);
  }

  groupHandle(id: number): EmulatedGroup {
    const chat = this.requireChat(id);
    if (chat.type === 'private') throw new Error(`Chat ${id} is a private chat, not a group.`);
    return { id, type: chat.type, title: chat.title ?? '', chat: this.chatObject(chat) as Chat.GroupChat | Chat.SupergroupChat };
  }

  private newGroupId(type: 'group' | 'supergroup'): number {
    let id: number;
    do {
      const n = this.nextGroupNumber++;
      id = type === 'group' ? -(4_000_000_000 + n) : -(1_001_000_000_000 + n);
    } while (this.chats.has(id));
    return id;
  }

  private newChat(id: number, type: ChatState['type'], extra: Partial<ChatState>): ChatState {
    return {
      id,
      type,
      title: undefined,
      username: undefined,
      userId: undefined,
      members: new Map(),
      botStatus: 'member',
      messages: new Map(),
      nextMessageId: 1,
      migratedTo: undefined,
      migratedFrom: undefined,
      replyKeyboard: undefined,
      forceReplyTo: undefined,
      ...extra,
    };
  }

  // ------------------------------------------------------------ lookups

  requireUser(ref: number | { readonly id: number }): UserState {
    const id = typeof ref === 'number' ? ref : ref.id;
    const state = this.users.get(id);
    if (!state) throw new Error(`No emulated user with id ${id}; create it with createUser().`);
    return state;
  }

  requireChat(ref: ChatRef): ChatState {
    const id = typeof ref === 'number' ? ref : ref.id;
    const chat = this.chats.get(id);
    if (!chat) throw new Error(`No emulated chat with id ${id}; create a user or group first.`);
    return chat;
  }

  /** Finds a chat by id or `@username` (public supergroups), as the Bot API does. */
  findChat(ref: number | string): ChatState | undefined {
    if (typeof ref === 'number') return this.chats.get(ref);
    const name = ref.replace(/^@/, '').toLowerCase();
    for (const chat of this.chats.values()) {
      if (chat.type !== 'private' && chat.username?.toLowerCase() === name && chat.migratedTo === undefined) return chat;
    }
    return undefined;
  }

  /** The Telegram Chat object of a chat. */
  chatObject(chat: ChatState): Chat {
    if (chat.type === 'private') {
      const user = this.requireUser(chat.userId ?? chat.id).user;
      return compact({ id: chat.id, type: 'private', first_name: user.first_name, last_name: user.last_name, username: user.username });
    }
    if (chat.type === 'group') return { id: chat.id, type: 'group', title: chat.title ?? '' };
    return compact({ id: chat.id, type: 'supergroup', title: chat.title ?? '', username: chat.username });
  }

  /** Resolves a message reference to the stored message (throws in the test when unknown). */
  requireMessage(ref: MessageRef): StoredMessage {
    const chatId = 'chatId' in ref ? ref.chatId : ref.chat.id;
    const messageId = 'messageId' in ref ? ref.messageId : ref.message_id;
    const message = this.chats.get(chatId)?.messages.get(messageId);
    if (!message) throw new Error(`No message ${messageId} in chat ${chatId}.`);
    return message;
  }

  private chatIdOf(ref: ChatRef): number {
    return typeof ref === 'number' ? ref : ref.id;
  }

  // ------------------------------------------------------------ driving the bot

  /**
   * A user writes `text`. In the private chat (default) or a group the user belongs to. A leading
   * `/command` gets a bot_command entity. Returns the stored message; the update is queued for the
   * bot unless group privacy mode hides it.
   */
  sendText(userRef: number | { readonly id: number }, text: string, options: SendTextOptions = {}): StoredMessage {
    if (text.length === 0) throw new Error('sendText: Telegram clients cannot send an empty message.');
    const { state, chat } = this.writer(userRef, options.chat);
    let body = text;
    const command = /^\/([A-Za-z0-9_]{1,64})(@[A-Za-z0-9_]+)?/.exec(body);
    if (command && chat.type !== 'private' && !command[2] && options.mentionBot !== false) {
      body = `/${command[1]}@${this.botUser.username}${body.slice(command[0].length)}`;
    }
    const entities: MessageEntity[] = [];
    const commandNow = /^\/[A-Za-z0-9_]{1,64}(@[A-Za-z0-9_]+)?/.exec(body);
    if (commandNow) entities.push({ type: 'bot_command', offset: 0, length: commandNow[0].length });
    const replyTo = this.replyTarget(chat, options.replyTo, 'sendText');
    const message = this.storeMessage(
      chat,
      {
        from: state.user,
        text: body,
        entities: entities.length ? entities : undefined,
        reply_to_message: replyTo ? this.replyCopy(replyTo) : undefined,
      },
      false,
      undefined,
    );
    const visible = chat.type === 'private' || this.botSeesInGroup(chat, body, replyTo);
    if (visible) this.enqueue({ message: clone(message.message) } as Omit<Update, 'update_id'>);
    else this.changed();
    return message;
  }

  /**
   * A user sends a photo (the bytes of an image), with a caption if given. The bot gets a
   * `message` with `photo` whose file_id it can use like any (copyMessage, sendPhoto); in a group
   * only where it would see the user's text.
   */
  sendPhoto(
    userRef: number | { readonly id: number },
    photo: { bytes: Buffer; width: number; height: number; filename?: string; mimeType?: string },
    options: Omit<SendTextOptions, 'mentionBot'> & { caption?: string } = {},
  ): StoredMessage {
    if (photo.bytes.length === 0) throw new Error('sendPhoto: the photo is empty.');
    const { state, chat } = this.writer(userRef, options.chat);
    const replyTo = this.replyTarget(chat, options.replyTo, 'sendPhoto');
    const file = this.storeFile({ bytes: photo.bytes, url: undefined, filename: photo.filename, mimeType: photo.mimeType }, 'AgAC');
    const size = { file_id: file.fileId, file_unique_id: file.fileUniqueId, file_size: photo.bytes.length };
    const caption = options.caption?.trim() ? options.caption : undefined;
    const message = this.storeMessage(
      chat,
      {
        from: state.user,
        photo: [{ ...size, width: photo.width, height: photo.height }],
        caption,
        reply_to_message: replyTo ? this.replyCopy(replyTo) : undefined,
      },
      false,
      undefined,
    );
    const visible = chat.type === 'private' || this.botSeesInGroup(chat, caption ?? '', replyTo);
    if (visible) this.enqueue({ message: clone(message.message) } as Omit<Update, 'update_id'>);
    else this.changed();
    return message;
  }

  /** The user and the chat they write in, checked as a client would let them write there. */
  private writer(userRef: number | { readonly id: number }, chatRef: ChatRef | undefined): { state: UserState; chat: ChatState } {
    const state = this.requireUser(userRef);
    const chat = chatRef === undefined ? this.requireChat(state.user.id) : this.requireChat(chatRef);
    if (chat.migratedTo !== undefined) throw new Error(`Group ${chat.id} was migrated to supergroup ${chat.migratedTo}; write there.`);
    if (chat.type === 'private') {
      if (chat.userId !== state.user.id) throw new Error(`User ${state.user.id} cannot write in the private chat of user ${chat.userId}.`);
      // A user who blocked the bot restarts it by writing to it, as the "Restart bot" button does.
      if (state.blocked) this.setBlocked(state, false);
      state.startedBot = true;
    } else {
      const status = chat.members.get(state.user.id);
      if (status !== 'creator' && status !== 'administrator' && status !== 'member') {
        throw new Error(`User ${state.user.id} is not a member of group ${chat.id}.`);
      }
    }
    return { state, chat };
  }

  /** The message a user's new message replies to: the one given, else the bot's pending force_reply. */
  private replyTarget(chat: ChatState, ref: number | MessageRef | undefined, method: string): StoredMessage | undefined {
    let replyTo: StoredMessage | undefined;
    if (ref !== undefined) {
      replyTo = typeof ref === 'number' ? chat.messages.get(ref) : this.requireMessage(ref);
      if (!replyTo || replyTo.chatId !== chat.id || replyTo.deleted) {
        throw new Error(`${method}: the message to reply to is not a live message of chat ${chat.id}.`);
      }
    } else if (chat.forceReplyTo !== undefined) {
      const forced = chat.messages.get(chat.forceReplyTo);
      if (forced && !forced.deleted) replyTo = forced;
    }
    chat.forceReplyTo = undefined;
    if (chat.replyKeyboard?.one_time_keyboard) chat.replyKeyboard = undefined;
    return replyTo;
  }

  /** The user edits a text message they sent; queues an `edited_message` update. */
  editUserMessage(ref: MessageRef, text: string): StoredMessage {
    const stored = this.requireMessage(ref);
    if (stored.fromBot) throw new Error('editUserMessage: that message was sent by the bot.');
    if (stored.deleted) throw new Error('editUserMessage: that message was deleted.');
    const at = this.now();
    const command = /^\/[A-Za-z0-9_]{1,64}(@[A-Za-z0-9_]+)?/.exec(text);
    const next: Message = compact({
      ...stored.message,
      text,
      entities: command ? [{ type: 'bot_command' as const, offset: 0, length: command[0].length }] : undefined,
      edit_date: Math.floor(at / 1000),
    });
    stored.edit(next, at);
    const chat = this.requireChat(stored.chatId);
    if (chat.type === 'private' || this.botSeesInGroup(chat, text, undefined)) {
      this.enqueue({ edited_message: clone(next) } as Omit<Update, 'update_id'>);
    } else this.changed();
    return stored;
  }

  private botSeesInGroup(chat: ChatState, text: string, replyTo: StoredMessage | undefined): boolean {
    if (chat.botStatus !== 'member' && chat.botStatus !== 'administrator') return false;
    if (!this.privacyMode || chat.botStatus === 'administrator') return true;
    const command = /^\/[A-Za-z0-9_]+(?:@([A-Za-z0-9_]+))?/.exec(text);
    if (command) return !command[1] || command[1].toLowerCase() === this.botUser.username?.toLowerCase();
    return replyTo?.fromBot === true;
  }

  /** reply_to_message as Telegram nests it: the replied message without its own reply. */
  replyCopy(message: StoredMessage): Message['reply_to_message'] {
    const copy = clone(message.message);
    delete copy.reply_to_message;
    return copy as Message['reply_to_message'];
  }

  /** Stores a new message in `chat` (bot or user). */
  storeMessage(chat: ChatState, content: Partial<Message>, fromBot: boolean, method: string | undefined): StoredMessage {
    const at = this.now();
    const messageId = chat.nextMessageId++;
    const message = compact({
      message_id: messageId,
      from: fromBot ? this.botUser : undefined,
      chat: this.chatObject(chat),
      date: Math.floor(at / 1000),
      ...compact(content),
    }) as Message;
    const stored = new StoredMessage(chat.id, messageId, fromBot, message, at, method);
    chat.messages.set(messageId, stored);
    return stored;
  }

  /**
   * A user taps an inline button (matched by its text first, then by callback_data) on a bot
   * message. Queues a callback_query update and returns it. Throws in the test when the message
   * has no such button, or the button is not a callback button.
   */
  tap(userRef: number | { readonly id: number }, ref: MessageRef, button: string): CallbackQuery {
    const state = this.requireUser(userRef);
    const stored = this.requireMessage(ref);
    const chat = this.requireChat(stored.chatId);
    if (stored.deleted) throw new Error(`tap: message ${stored.messageId} in chat ${chat.id} was deleted; its buttons are gone.`);
    if (!stored.fromBot) throw new Error(`tap: message ${stored.messageId} was not sent by the bot.`);
    if (chat.type === 'private' && chat.userId !== state.user.id)
      throw new Error(`tap: user ${state.user.id} cannot see the private chat of user ${chat.userId}.`);
    if (chat.type !== 'private' && !['creator', 'administrator', 'member'].includes(chat.members.get(state.user.id) ?? 'left')) {
      throw new Error(`tap: user ${state.user.id} is not a member of group ${chat.id}.`);
    }
    const buttons = stored.inlineKeyboard?.inline_keyboard.flat() ?? [];
    const found = buttons.find((b) => b.text === button) ?? buttons.find((b) => 'callback_data' in b && b.callback_data === button);
    if (!found) {
      const available = buttons.map((b) => ('callback_data' in b ? `"${b.text}" (${b.callback_data})` : `"${b.text}"`)).join(', ');
      throw new Error(`tap: message ${stored.messageId} in chat ${chat.id} has no button "${button}". Buttons: ${available || 'none'}.`);
    }
    if (!('callback_data' in found) || found.callback_data === undefined) {
      throw new Error(
        `tap: button "${found.text}" is not a callback button (${Object.keys(found)
          .filter((k) => k !== 'text')
          .join(', ')}); tapping it sends the bot nothing.`,
      );
    }
    const id = String(4_000_000_000_000_000 + this.nextQueryNumber++);
    const query: CallbackQuery = {
      id,
      from: state.user,
      message: clone(stored.message),
      chat_instance: String(Math.abs(chat.id) * 7 + this.botUser.id),
      data: found.callback_data,
    };
    this.callbackQueries.set(id, { query, at: this.now(), answered: false });
    this.enqueue({ callback_query: clone(query) });
    return query;
  }

  /** Adds the bot to a group: queues my_chat_member and the `new_chat_members` service message. */
  addBotToGroup(ref: ChatRef, options: { by?: EmulatedUser; admin?: boolean } = {}): void {
    const chat = this.requireGroup(ref);
    if (chat.botStatus === 'member' || chat.botStatus === 'administrator')
      throw new Error(`addBotToGroup: the bot is already in group ${chat.id}.`);
    const by = this.actor(chat, options.by);
    const old = memberObject(this.botUser, chat.botStatus);
    chat.botStatus = options.admin ? 'administrator' : 'member';
    this.enqueue({ my_chat_member: this.memberUpdate(chat, by, old, memberObject(this.botUser, chat.botStatus)) });
    const service = this.storeMessage(chat, { from: by, new_chat_members: [this.botUser] }, false, undefined);
    this.enqueue({ message: clone(service.message) } as Omit<Update, 'update_id'>);
  }

  /** Removes (bans) the bot from a group: queues my_chat_member; later sends answer 403. */
  removeBotFromGroup(ref: ChatRef, options: { by?: EmulatedUser } = {}): void {
    const chat = this.requireGroup(ref);
    if (chat.botStatus !== 'member' && chat.botStatus !== 'administrator')
      throw new Error(`removeBotFromGroup: the bot is not in group ${chat.id}.`);
    const by = this.actor(chat, options.by);
    const old = memberObject(this.botUser, chat.botStatus);
    chat.botStatus = 'kicked';
    this.storeMessage(chat, { from: by, left_chat_member: this.botUser }, false, undefined);
    this.enqueue({ my_chat_member: this.memberUpdate(chat, by, old, memberObject(this.botUser, 'kicked')) });
  }

  /**
   * Upgrades a basic group to a supergroup (new id, same members). Queues the two service
   * messages; sends to the old id answer 400 with `parameters.migrate_to_chat_id`.
   */
  migrateGroup(ref: ChatRef): EmulatedGroup {
    const old = this.requireGroup(ref);
    if (old.type !== 'group') throw new Error(`migrateGroup: chat ${old.id} is already a supergroup.`);
    if (old.migratedTo !== undefined) throw new Error(`migrateGroup: group ${old.id} was already migrated to ${old.migratedTo}.`);
    const id = this.newGroupId('supergroup');
    const next = this.newChat(id, 'supergroup', {
      title: old.title,
      members: new Map(old.members),
      botStatus: old.botStatus,
      migratedFrom: old.id,
    });
    this.chats.set(id, next);
    old.migratedTo = id;
    const by = this.actor(old, undefined);
    const botIn = old.botStatus === 'member' || old.botStatus === 'administrator';
    const fromOld = this.storeMessage(old, { from: by, migrate_to_chat_id: id }, false, undefined);
    const inNew = this.storeMessage(next, { from: by, migrate_from_chat_id: old.id }, false, undefined);
    if (botIn) {
      this.enqueue({ message: clone(fromOld.message) } as Omit<Update, 'update_id'>);
      this.enqueue({ message: clone(inNew.message) } as Omit<Update, 'update_id'>);
    } else this.changed();
    return this.groupHandle(id);
  }

  /** The user blocks the bot: my_chat_member (kicked) is queued; sends answer 403. */
  blockBot(ref: number | { readonly id: number }): void {
    this.setBlocked(this.requireUser(ref), true);
  }

  /** The user unblocks (restarts) the bot: my_chat_member (member) is queued. */
  unblockBot(ref: number | { readonly id: number }): void {
    this.setBlocked(this.requireUser(ref), false);
  }

  private setBlocked(state: UserState, blocked: boolean): void {
    if (state.blocked === blocked) return;
    state.blocked = blocked;
    const chat = this.requireChat(state.user.id);
    const member = memberObject(this.botUser, 'member');
    const kicked = memberObject(this.botUser, 'kicked');
    this.enqueue({ my_chat_member: this.memberUpdate(chat, state.user, blocked ? member : kicked, blocked ? kicked : member) });
  }

  private memberUpdate(chat: ChatState, from: User, old: ChatMember, next: ChatMember) {
    return { chat: this.chatObject(chat), from, date: Math.floor(this.now() / 1000), old_chat_member: old, new_chat_member: next };
  }

  private requireGroup(ref: ChatRef): ChatState {
    const chat = this.requireChat(ref);
    if (chat.type === 'private') throw new Error(`Chat ${chat.id} is a private chat, not a group.`);
    return chat;
  }

  private actor(chat: ChatState, by: EmulatedUser | undefined): User {
    if (by) return this.requireUser(by.id).user;
    const ownerId = [...chat.members].find(([, status]) => status === 'creator')?.[0] ?? chat.members.keys().next().value;
    if (ownerId === undefined) throw new Error(`Group ${chat.id} has no members; pass { by: user }.`);
    return this.requireUser(ownerId).user;
  }

  // ------------------------------------------------------------ update queue and long polling

  /** Queues an update (update_id assigned unless given) and wakes a waiting getUpdates. */
  enqueue(update: Omit<Update, 'update_id'> & { update_id?: number }): Update {
    const full = { ...update, update_id: update.update_id ?? this.nextUpdateId };
    this.nextUpdateId = Math.max(this.nextUpdateId, full.update_id) + 1;
    this.queue.push(full);
    this.updates.push(full);
    this.changed();
    this.wakePollers();
    return full;
  }

  private isAllowed(update: Update): boolean {
    const type = Object.keys(update).find((key) => key !== 'update_id') ?? '';
    const allowed = this.webhook?.allowedUpdates ?? this.allowedUpdates;
    return allowed && allowed.length > 0 ? allowed.includes(type) : defaultUpdateTypes(type);
  }

  /** Drops confirmed updates (`offset` semantics of getUpdates). */
  confirm(offset: number): void {
    const before = this.queue.length;
    if (offset > 0) this.queue = this.queue.filter((u) => u.update_id >= offset);
    else if (offset < 0) this.queue = this.queue.slice(offset);
    if (this.queue.length !== before) this.changed();
  }

  /** Up to `limit` deliverable updates; updates of types not allowed are dropped, as Telegram does. */
  takeBatch(limit: number): Update[] {
    const batch: Update[] = [];
    const dropped = new Set<Update>();
    for (const update of this.queue) {
      if (batch.length >= limit) break;
      if (this.isAllowed(update)) batch.push(update);
      else dropped.add(update);
    }
    if (dropped.size) this.queue = this.queue.filter((u) => !dropped.has(u));
    return batch.map(clone);
  }

  /**
   * The oldest deliverable queued update that `free` accepts (webhook mode: one of a chat with
   * nothing in flight), itself, not a copy, so its delivery removes exactly this entry (a
   * re-delivery may queue another with the same update_id). Updates of types not allowed are
   * dropped, as Telegram does.
   */
  nextWebhookUpdate(free: (update: Update) => boolean): Update | undefined {
    let found: Update | undefined;
    const dropped = new Set<Update>();
    for (const update of this.queue) {
      if (!this.isAllowed(update)) dropped.add(update);
      else if (free(update)) {
        found = update;
        break;
      }
    }
    if (dropped.size) this.queue = this.queue.filter((u) => !dropped.has(u));
    return found;
  }

  /** Removes one delivered update, this very entry of the queue (webhook mode). */
  removeQueued(update: Update): void {
    this.queue = this.queue.filter((u) => u !== update);
    this.changed();
  }

  /** getUpdates with real long polling; a newer call ends an older one with 409 like Telegram. */
  getUpdates(params: Params, signal: AbortSignal | undefined): Promise<Update[]> {
    if (this.webhook) {
      throw new BotApiError(
        409,
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      );
    }
    const offset = params.int('offset') ?? 0;
    const limit = Math.min(100, Math.max(1, params.int('limit') ?? 100));
    const timeout = Math.max(0, params.int('timeout') ?? 0);
    const allowed = params.json('allowed_updates');
    if (Array.isArray(allowed)) this.allowedUpdates = allowed.map(String);
    this.endPollers(
      new BotApiError(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'),
    );
    this.confirm(offset);
    const batch = this.takeBatch(limit);
    if (batch.length > 0 || timeout === 0 || this.closed) return Promise.resolve(batch);
    return new Promise((resolve, reject) => {
      const poller: Poller = {
        limit,
        finish: (result) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.pollers.delete(poller);
          if (result instanceof BotApiError) reject(result);
          else resolve(result);
          this.changed();
        },
      };
      const onAbort = () => poller.finish([]);
      const timer = setTimeout(() => poller.finish([]), timeout * 1000);
      signal?.addEventListener('abort', onAbort);
      this.pollers.add(poller);
      this.changed();
    });
  }

  /** True while a getUpdates call is waiting for updates. */
  get polling(): boolean {
    return this.pollers.size > 0;
  }

  /** getUpdates calls waiting for updates (long polls parked until an update or their timeout). */
  get waitingPolls(): number {
    return this.pollers.size;
  }

  private wakePollers(): void {
    for (const poller of [...this.pollers]) {
      const batch = this.takeBatch(poller.limit);
      if (batch.length > 0) poller.finish(batch);
    }
  }

  /** Ends waiting getUpdates calls (with an error, or with no updates). */
  endPollers(result: Update[] | BotApiError): void {
    for (const poller of [...this.pollers]) poller.finish(result);
  }

  // ------------------------------------------------------------ calls

  /**
   * Runs one Bot API call and records it: fault injection first, then the method. Errors thrown as
   * BotApiError become Telegram error envelopes; anything else is a 500.
   */
  async call(method: string, params: Params, via: ApiCall['via'], signal?: AbortSignal): Promise<ApiCall> {
    const at = this.now();
    const key = method.toLowerCase();
    let response: ApiResponse;
    let injected: ApiCall['injected'];
    const fault = this.takeFault(key, params.raw.chat_id);
    try {
      if (fault) {
        injected = 'fault';
        throw new BotApiError(fault.errorCode, fault.description, fault.parameters);
      }
      let result: unknown;
      if (key === 'getupdates') result = await this.getUpdates(params, signal);
      else {
        const handler = this.methods[key];
        if (!handler) throw new BotApiError(404, 'Not Found: method not found');
        result = handler(params);
      }
      response = { ok: true, result: clone(result) };
    } catch (error) {
      if (error instanceof BotApiError) {
        if (error instanceof LimitError) injected = 'limit';
        response = compact({
          ok: false as const,
          error_code: error.errorCode,
          description: error.description,
          parameters: error.parameters,
        });
      } else {
        response = { ok: false, error_code: 500, description: `Internal Server Error: emulator bug: ${String(error)}` };
      }
    }
    const record: ApiCall = compact({
      method,
      params: params.raw,
      at,
      status: response.ok ? 200 : response.error_code,
      response,
      via,
      injected,
    });
    this.calls.push(record);
    this.changed();
    return record;
  }

  /** Records a call answered outside `call` (bad token, unreadable body). */
  recordCall(record: ApiCall): void {
    this.calls.push(record);
    this.changed();
  }

  // ------------------------------------------------------------ faults and limits

  /** Makes matching calls fail with the given Telegram error; returns a function removing the rule. */
  injectError(options: FaultOptions & { errorCode: number; description: string; parameters?: FaultRule['parameters'] }): () => void {
    const rule: FaultRule = {
      method: options.method?.toLowerCase(),
      chatId: options.chatId === undefined ? undefined : this.chatIdOf(options.chatId),
      left: options.times ?? 1,
      errorCode: options.errorCode,
      description: options.description,
      parameters: options.parameters,
    };
    this.faults.push(rule);
    return () => {
      this.faults = this.faults.filter((r) => r !== rule);
    };
  }

  /** Answers matching calls with 429 `Too Many Requests: retry after N` and `parameters.retry_after`. */
  inject429(options: FaultOptions & { retryAfter: number }): () => void {
    return this.injectError({
      ...options,
      errorCode: 429,
      description: `Too Many Requests: retry after ${options.retryAfter}`,
      parameters: { retry_after: options.retryAfter },
    });
  }

  clearFaults(): void {
    this.faults = [];
  }

  private takeFault(method: string, chatId: unknown): FaultRule | undefined {
    const id = typeof chatId === 'number' ? chatId : typeof chatId === 'string' && /^-?\d+$/.test(chatId) ? Number(chatId) : undefined;
    const rule = this.faults.find(
      (r) =>
        r.left > 0 &&
        (r.method === undefined ? method !== 'getupdates' : r.method === method) &&
        (r.chatId === undefined || r.chatId === id),
    );
    if (!rule) return undefined;
    rule.left -= 1;
    if (rule.left <= 0) this.faults = this.faults.filter((r) => r !== rule);
    return rule;
  }

  /** Turns Telegram's send limits on (true or custom numbers) or off. */
  setEnforceLimits(limits: boolean | LimitOptions): void {
    if (limits === false) this.limits = undefined;
    else {
      const custom = limits === true ? {} : limits;
      this.limits = {
        perChatPerSecond: custom.perChatPerSecond ?? 1,
        perGroupPerMinute: custom.perGroupPerMinute ?? 20,
        globalPerSecond: custom.globalPerSecond ?? 30,
        paidPerSecond: custom.paidPerSecond ?? 1000,
      };
    }
  }

  /**
   * Throws a LimitError (429) when one more message to `chat` would break an enforced limit. A
   * `paid` send (`allow_paid_broadcast`) is not counted against the free global limit but against
   * `paidPerSecond` (Telegram: up to 1000 per second, paid in Stars).
   */
  checkLimits(chat: ChatState, paid = false): void {
    if (!this.limits) return;
    const t = this.now();
    const check = (times: readonly number[], limit: number, windowMs: number) => {
      // Times are appended in order, so only the tail can be inside the window.
      let inWindow = 0;
      for (let i = times.length - 1; i >= 0 && times[i]! > t - windowMs; i -= 1) inWindow += 1;
      if (inWindow < limit) return;
      const freesAt = times[times.length - limit]! + windowMs;
      const retryAfter = Math.max(1, Math.ceil((freesAt - t) / 1000));
      throw new LimitError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
    };
    const chatTimes = this.sendsByChat.get(chat.id) ?? [];
    check(chatTimes, this.limits.perChatPerSecond, 1000);
    if (chat.type !== 'private') check(chatTimes, this.limits.perGroupPerMinute, 60_000);
    if (paid) check(this.paidSendTimes.slice(-this.limits.paidPerSecond), this.limits.paidPerSecond, 1000);
    else check(this.freeSendTimes.slice(-this.limits.globalPerSecond), this.limits.globalPerSecond, 1000);
  }

  /** Records a successful send to `chatId` (for limits and `maxSendsInWindow`). */
  recordSend(chatId: number, paid = false): void {
    const at = this.now();
    this.sendLog.push({ chatId, at });
    (paid ? this.paidSendTimes : this.freeSendTimes).push(at);
    const times = this.sendsByChat.get(chatId);
    if (times) times.push(at);
    else this.sendsByChat.set(chatId, [at]);
  }

  /** Emulator-clock timestamps of successful sends, to one chat or (`'all'`) to every chat. */
  sendTimes(chat: ChatRef | 'all' = 'all'): number[] {
    const id = chat === 'all' ? undefined : this.chatIdOf(chat);
    return this.sendLog.filter((s) => id === undefined || s.chatId === id).map((s) => s.at);
  }

  /** The most successful sends that fell in any window of `windowMs` (half-open, sliding). */
  maxSendsInWindow(chat: ChatRef | 'all', windowMs: number): number {
    const times = this.sendTimes(chat).sort((a, b) => a - b);
    let best = 0;
    let start = 0;
    for (let end = 0; end < times.length; end += 1) {
      while (times[end]! - times[start]! >= windowMs) start += 1;
      best = Math.max(best, end - start + 1);
    }
    return best;
  }

  // ------------------------------------------------------------ files

  /** Registers a file the bot sent and returns its ids. */
  storeFile(file: Omit<StoredFile, 'fileId' | 'fileUniqueId'>, prefix: string): StoredFile {
    const n = this.nextFileNumber++;
    const stored: StoredFile = {
      ...file,
      fileId: `${prefix}${Buffer.from(`emulated-file-${n}`).toString('base64url')}`,
      fileUniqueId: `AQAD${n}`,
    };
    this.files.set(stored.fileId, stored);
    return stored;
  }

  // ------------------------------------------------------------ reading

  /** Messages of a chat in order (bot and users), deleted ones included and flagged. */
  messages(chat: ChatRef): StoredMessage[] {
    return [...this.requireChat(chat).messages.values()];
  }

  message(chat: ChatRef, messageId: number): StoredMessage | undefined {
    return this.chats.get(this.chatIdOf(chat))?.messages.get(messageId);
  }

  botMessages(chat: ChatRef): StoredMessage[] {
    return this.messages(chat).filter((m) => m.fromBot);
  }

  /** The bot's latest message in the chat that is not deleted. */
  lastBotMessage(chat: ChatRef): StoredMessage | undefined {
    return this.botMessages(chat)
      .filter((m) => !m.deleted)
      .at(-1);
  }

  /** Calls of one method (case-insensitive). */
  callsTo(method: string): ApiCall[] {
    const key = method.toLowerCase();
    return this.calls.filter((c) => c.method.toLowerCase() === key);
  }

  /** Commands stored by setMyCommands for a scope and language (exact match, like getMyCommands). */
  myCommands(scope: unknown = { type: 'default' }, languageCode = ''): unknown[] {
    return this.commands.get(`${stableJson(scope)}|${languageCode}`) ?? [];
  }

  // ------------------------------------------------------------ waiting

  /**
   * Resolves with the first truthy value of `predicate`, checked now, after every change and
   * every 10 ms (so a condition on the bot's own state is seen promptly). Rejects after `timeoutMs` (default 5000) with the recent calls in the message.
   */
  waitFor<T>(predicate: () => T, options: WaitOptions = {}): Promise<NonNullable<T>> {
    const timeoutMs = options.timeoutMs ?? 5000;
    const pollMs = 10;
    const failure = new Error(options.message ?? 'waitFor: condition not met');
    return new Promise((resolve, reject) => {
      let off: () => void = () => undefined;
      const check = (): boolean => {
        try {
          const value = predicate();
          if (value) {
            finish();
            resolve(value);
            return true;
          }
        } catch (error) {
          finish();
          reject(error instanceof Error ? error : new Error(String(error)));
          return true;
        }
        if (this.closed) {
          finish();
          failure.message = `${failure.message} (the emulator was closed)`;
          reject(failure);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        off();
        clearInterval(poll);
        const recent = this.calls
          .filter((c) => c.method.toLowerCase() !== 'getupdates')
          .slice(-8)
          .map(
            (c) =>
              `  ${c.method} ${JSON.stringify(c.params).slice(0, 160)} -> ${c.response.ok ? 'ok' : `${c.response.error_code} ${c.response.description}`}`,
          );
        failure.message = `${failure.message} within ${timeoutMs} ms. Pending updates: ${this.queue.length}. Last calls:\n${recent.join('\n') || '  (none)'}`;
        reject(failure);
      }, timeoutMs);
      // Conditions may read state outside the emulator (the bot's store, the sandbox), which
      // changes without an emulator event: re-check every few ms too, not only on changes.
      const poll = setInterval(() => void check(), pollMs);
      const finish = () => {
        clearTimeout(timer);
        clearInterval(poll);
        off();
      };
      if (check()) return;
      off = this.subscribe(() => void check());
    });
  }

  /** Waits for a bot message in `chat` (after a message id, with text, matching `where`). */
  waitForBotMessage(chat: ChatRef, options: WaitForBotMessageOptions = {}): Promise<StoredMessage> {
    const chatId = this.chatIdOf(chat);
    const after =
      options.after === undefined ? 0 : typeof options.after === 'number' ? options.after : this.requireMessage(options.after).messageId;
    const matches = (m: StoredMessage) => {
      if (!m.fromBot || m.messageId <= after) return false;
      const text = m.text ?? '';
      if (typeof options.textIncludes === 'string' && !text.includes(options.textIncludes)) return false;
      if (options.textIncludes instanceof RegExp && !options.textIncludes.test(text)) return false;
      return options.where ? options.where(m) : true;
    };
    const what = [
      `bot message in chat ${chatId}`,
      after ? `after #${after}` : '',
      options.textIncludes ? `with text ${String(options.textIncludes)}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return this.waitFor(() => this.chats.get(chatId) && this.botMessages(chatId).find(matches), {
      timeoutMs: options.timeoutMs,
      message: options.message ?? `waitForBotMessage: no ${what}`,
    });
  }

  /** Waits until the bot answered the callback query. */
  waitForCallbackAnswer(query: string | { readonly id: string }, options: WaitOptions = {}): Promise<CallbackAnswer> {
    const id = typeof query === 'string' ? query : query.id;
    return this.waitFor(() => this.callbackAnswers.find((a) => a.callbackQueryId === id), {
      ...options,
      message: options.message ?? `waitForCallbackAnswer: callback query ${id} was not answered`,
    });
  }

  /**
   * Waits until every queued update was confirmed and the bot is polling again (or, in webhook
   * mode, nothing is in flight). With sequential long polling (`bot.start()`) this means the bot
   * has finished handling everything it was sent.
   */
  waitForIdle(options: WaitOptions = {}): Promise<true> {
    return this.waitFor(
      () =>
        this.queue.length === 0 && (this.webhook?.delivering ? this.webhookInFlight === 0 : this.polling) ? (true as const) : undefined,
      { ...options, message: options.message ?? 'waitForIdle: the bot did not consume all updates' },
    );
  }

  /** Declares the emulator closed: pending polls end empty, waiters reject. */
  shutdown(): void {
    this.closed = true;
    this.endPollers([]);
    this.changed();
  }

  /**
   * Queues an update again with the same update_id (the update, or its id), as Telegram re-sends
   * one it saw no 2xx answer for (a lost answer, a timeout): a duplicate the bot must recognise.
   * The copy is queued at the end and listed in `updates` a second time; in webhook mode it is
   * POSTed like any other update (never while the same chat has one in flight).
   */
  redeliver(ref: Update | number): Update {
    const id = typeof ref === 'number' ? ref : ref.update_id;
    const original = this.updates.find((u) => u.update_id === id);
    if (!original) throw new Error(`redeliver: no update ${id} was ever queued.`);
    const again = clone(original);
    this.queue.push(again);
    this.updates.push(again);
    this.changed();
    this.wakePollers();
    return again;
  }

  /** Pushes any update, e.g. `{ message: {...} }`; update_id is assigned when absent. */
  pushUpdate(update: Omit<Update, 'update_id'> & { update_id?: number }): Update {
    // A pushed callback query can be answered like one made by tap().
    if (update.callback_query)
      this.callbackQueries.set(update.callback_query.id, { query: update.callback_query, at: this.now(), answered: false });
    if (update.inline_query)
      this.inlineQueries.set(update.inline_query.id, { query: update.inline_query, at: this.now(), answered: false });
    return this.enqueue(update);
  }
}
