/**
 * Bot API methods of the emulator, answering and validating like Telegram where that is cheap.
 * Each handler returns the method's `result` or throws a BotApiError.
 */
import type {
  ForceReply,
  InlineKeyboardButton,
  InlineKeyboardMarkup,
  Message,
  MessageEntity,
  PhotoSize,
  ReplyKeyboardMarkup,
  ReplyKeyboardRemove,
} from 'grammy/types';
import { applyParseMode, type FormattedText } from './formatting.ts';
import { BotApiError, badRequest, type Params } from './params.ts';
import { clone, compact, memberObject, stableJson, type ChatState, type StoredFile, type StoredMessage, type World } from './world.ts';

const maxTextLength = 4096;
const maxCaptionLength = 1024;
const deleteWindowMs = 48 * 60 * 60 * 1000;
const notModified =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';
const chatActions = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);
const buttonActions = [
  'url',
  'callback_data',
  'web_app',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'copy_text',
  'callback_game',
  'pay',
];

interface ParsedMarkup {
  inline: InlineKeyboardMarkup | undefined;
  reply: ReplyKeyboardMarkup | undefined;
  remove: ReplyKeyboardRemove | undefined;
  forceReply: ForceReply | undefined;
}

/** A parameter value as it appears in an error message: strings as they are, anything else as JSON. */
const jsonText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** Validates reply_markup like Telegram (button data size, button kinds, shape). */
export function parseReplyMarkup(value: unknown): ParsedMarkup {
  const none: ParsedMarkup = { inline: undefined, reply: undefined, remove: undefined, forceReply: undefined };
  if (value === undefined || value === null) return none;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest("can't parse reply keyboard markup JSON object");
  const markup = value as Record<string, unknown>;
  if ('inline_keyboard' in markup) {
    const rows = markup.inline_keyboard;
    if (!Array.isArray(rows) || !rows.every(Array.isArray))
      throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays');
    for (const button of rows.flat() as unknown[]) {
      if (typeof button !== 'object' || button === null)
        throw badRequest("can't parse inline keyboard button: InlineKeyboardButton should be an Object");
      const b = button as Record<string, unknown>;
      if (typeof b.text !== 'string') throw badRequest(`can't parse inline keyboard button: Field "text" must be of type String`);
      const actions = buttonActions.filter((key) => b[key] !== undefined);
      if (actions.length === 0) throw badRequest('text buttons are unallowed in the inline keyboard');
      if (b.callback_data !== undefined) {
        const data = b.callback_data;
        const size = typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : 0;
        if (size < 1 || size > 64) throw badRequest('BUTTON_DATA_INVALID');
      }
      if (b.url !== undefined && (typeof b.url !== 'string' || !/^(https?|tg):\/\/\S+$/i.test(b.url))) {
        throw badRequest(`inline keyboard button URL '${jsonText(b.url)}' is invalid: Wrong HTTP URL`);
      }
    }
    const inline =
      rows.length && (rows as unknown[][]).some((row) => row.length) ? { inline_keyboard: rows as InlineKeyboardButton[][] } : undefined;
    return { ...none, inline };
  }
  if ('keyboard' in markup) {
    if (!Array.isArray(markup.keyboard) || !markup.keyboard.every(Array.isArray))
      throw badRequest('field "keyboard" of the ReplyKeyboardMarkup should be an Array of Arrays');
    return { ...none, reply: markup as unknown as ReplyKeyboardMarkup };
  }
  if ('remove_keyboard' in markup) return { ...none, remove: markup as unknown as ReplyKeyboardRemove };
  if ('force_reply' in markup) return { ...none, forceReply: markup as unknown as ForceReply };
  throw badRequest("can't parse reply keyboard markup JSON object");
}

/** Registers the Bot API method table on the world. */
export function installMethods(world: World): void {
  const now = () => world.now();
  /** The chat a `chat_id` parameter names (an id or an @username); anything else names none. */
  const findChatOf = (ref: unknown) => (typeof ref === 'number' || typeof ref === 'string' ? world.findChat(ref) : undefined);

  // ---------------------------------------------------------------- chats

  /** A chat the bot may send to; otherwise Telegram's 400/403. */
  const sendableChat = (p: Params, key = 'chat_id'): ChatState => {
    const chat = knownChat(p, key);
    if (chat.migratedTo !== undefined) {
      throw new BotApiError(400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: chat.migratedTo });
    }
    if (chat.type === 'private') {
      const user = world.requireUser(chat.userId ?? chat.id);
      if (user.blocked) throw new BotApiError(403, 'Forbidden: bot was blocked by the user');
      if (!user.startedBot) throw new BotApiError(403, "Forbidden: bot can't initiate conversation with a user");
    } else if (chat.botStatus === 'kicked') {
      throw new BotApiError(403, `Forbidden: bot was kicked from the ${chat.type} chat`);
    } else if (chat.botStatus === 'left') {
      throw new BotApiError(403, `Forbidden: bot is not a member of the ${chat.type} chat`);
    }
    return chat;
  };

  const knownChat = (p: Params, key = 'chat_id'): ChatState => {
    const chat = world.findChat(p.chatId(key));
    if (!chat) throw badRequest('chat not found');
    return chat;
  };

  const messageIn = (chat: ChatState, p: Params, missing: string): StoredMessage => {
    const id = p.int('message_id');
    if (id === undefined) throw badRequest('message identifier is not specified');
    const message = chat.messages.get(id);
    if (!message || message.deleted) throw badRequest(missing);
    return message;
  };

  // ---------------------------------------------------------------- content

  const formatted = (p: Params, textKey: string, entitiesKey: string): FormattedText => {
    const text = p.str(textKey) ?? '';
    const entities = p.json(entitiesKey);
    if (entities !== undefined) {
      if (!Array.isArray(entities)) throw badRequest(`can't parse ${entitiesKey} JSON object`);
      for (const e of entities as MessageEntity[]) {
        if (
          typeof e !== 'object' ||
          e === null ||
          typeof e.offset !== 'number' ||
          typeof e.length !== 'number' ||
          typeof e.type !== 'string'
        ) {
          throw badRequest(`can't parse ${entitiesKey} JSON object`);
        }
      }
      return { text, entities: (entities as MessageEntity[]).filter((e) => e.length > 0 && e.offset + e.length <= text.length) };
    }
    return applyParseMode(text, p.str('parse_mode'));
  };

  const messageText = (p: Params): FormattedText => {
    const result = formatted(p, 'text', 'entities');
    if (result.text.trim() === '') throw badRequest('message text is empty');
    if (result.text.length > maxTextLength) throw badRequest('message is too long');
    return result;
  };

  const caption = (p: Params): FormattedText | undefined => {
    if (!p.has('caption')) return undefined;
    const result = formatted(p, 'caption', 'caption_entities');
    if (result.text.length > maxCaptionLength) throw badRequest('message caption is too long');
    return result.text === '' ? undefined : result;
  };

  const replyTarget = (chat: ChatState, p: Params): StoredMessage | undefined => {
    const parameters = p.json('reply_parameters') as
      { message_id?: unknown; chat_id?: unknown; allow_sending_without_reply?: unknown } | undefined;
    const id = parameters?.message_id ?? p.int('reply_to_message_id');
    if (id === undefined) return undefined;
    const allowWithout = parameters?.allow_sending_without_reply === true || p.bool('allow_sending_without_reply');
    let source = chat;
    if (parameters?.chat_id !== undefined) {
      const other = findChatOf(parameters.chat_id);
      if (!other) throw badRequest('chat not found');
      source = other;
    }
    const target = typeof id === 'number' ? source.messages.get(id) : undefined;
    if (!target || target.deleted) {
      if (allowWithout) return undefined;
      throw badRequest('message to be replied not found');
    }
    return target;
  };

  /** Common tail of every send: reply, markup, limits, storage, rate accounting. */
  const sendMessageLike = (chat: ChatState, p: Params, method: string, content: Partial<Message>): StoredMessage => {
    const reply = replyTarget(chat, p);
    const markup = parseReplyMarkup(p.json('reply_markup'));
    const paid = p.bool('allow_paid_broadcast');
    world.checkLimits(chat, paid);
    const stored = world.storeMessage(
      chat,
      {
        ...content,
        reply_to_message: reply ? world.replyCopy(reply) : undefined,
        reply_markup: markup.inline,
        has_protected_content: p.bool('protect_content') ? true : undefined,
        link_preview_options: p.json('link_preview_options') as Message['link_preview_options'],
      },
      true,
      method,
    );
    if (markup.reply) chat.replyKeyboard = markup.reply;
    if (markup.remove) chat.replyKeyboard = undefined;
    chat.forceReplyTo = markup.forceReply ? stored.messageId : undefined;
    world.recordSend(chat.id, paid);
    return stored;
  };

  const textContent = (f: FormattedText): Partial<Message> => ({ text: f.text, entities: f.entities.length ? f.entities : undefined });
  const captionContent = (f: FormattedText | undefined): Partial<Message> =>
    f ? { caption: f.text, caption_entities: f.entities.length ? f.entities : undefined } : {};

  /** Resolves photo/document params: upload (multipart), `attach://`, URL, or a known file_id. */
  const inputFile = (p: Params, key: string, prefix: string): StoredFile => {
    const direct = p.files.get(key);
    const value = p.str(key);
    const upload = direct ?? (value?.startsWith('attach://') ? p.files.get(value.slice('attach://'.length)) : undefined);
    if (upload) {
      return world.storeFile({ bytes: upload.bytes, url: undefined, filename: upload.filename, mimeType: upload.contentType }, prefix);
    }
    if (value === undefined || value === '') throw badRequest(`there is no ${key} in the request`);
    if (value.startsWith('attach://')) throw badRequest(`wrong file identifier/HTTP URL specified`);
    if (/^https?:\/\/\S+$/i.test(value)) {
      // Never fetched: tests stay off the internet.
      const name = decodeURIComponent(new URL(value).pathname.split('/').pop() ?? '') || undefined;
      return world.storeFile({ bytes: undefined, url: value, filename: name, mimeType: undefined }, prefix);
    }
    const known = world.files.get(value);
    if (!known) throw badRequest('wrong file identifier/HTTP URL specified');
    return known;
  };

  const photoSizes = (file: StoredFile): PhotoSize[] =>
    [
      { file_id: file.fileId, file_unique_id: file.fileUniqueId, width: 320, height: 320, file_size: file.bytes?.length },
      { file_id: file.fileId, file_unique_id: file.fileUniqueId, width: 800, height: 800, file_size: file.bytes?.length },
    ].map(compact);

  // ---------------------------------------------------------------- editing helpers

  const editable = (p: Params): { chat: ChatState; message: StoredMessage } => {
    if (p.has('inline_message_id')) throw badRequest('MESSAGE_ID_INVALID');
    const chat = knownChat(p);
    if (chat.type === 'private' && world.requireUser(chat.userId ?? chat.id).blocked)
      throw new BotApiError(403, 'Forbidden: bot was blocked by the user');
    const message = messageIn(chat, p, 'message to edit not found');
    if (!message.fromBot) throw badRequest("message can't be edited");
    return { chat, message };
  };

  const editMarkup = (p: Params): InlineKeyboardMarkup | undefined => {
    const markup = parseReplyMarkup(p.json('reply_markup'));
    if (markup.reply || markup.remove || markup.forceReply) throw badRequest('inline keyboard expected');
    return markup.inline;
  };

  /** Applies an edit unless nothing changes (Telegram's "message is not modified"). */
  const applyEdit = (stored: StoredMessage, changes: Partial<Message>): Message => {
    const at = now();
    const next = compact<Message>({ ...stored.message, ...changes });
    const before = compact({ ...stored.message });
    delete before.edit_date;
    const after = { ...next };
    delete after.edit_date;
    if (stableJson(before) === stableJson(after)) throw badRequest(notModified);
    next.edit_date = Math.floor(at / 1000);
    stored.edit(next, at);
    return next;
  };

  const deleteOne = (chat: ChatState, message: StoredMessage | undefined): void => {
    if (!message || message.deleted) throw badRequest('message to delete not found');
    if (now() - message.sentAt > deleteWindowMs) throw badRequest("message can't be deleted for everyone");
    if (chat.type !== 'private' && !message.fromBot && chat.botStatus !== 'administrator') throw badRequest("message can't be deleted");
    message.deleted = true;
    message.deletedAt = now();
  };

  const commandsKey = (p: Params): string => {
    const scope = (p.json('scope') as Record<string, unknown> | undefined) ?? { type: 'default' };
    if (typeof scope !== 'object' || typeof scope.type !== 'string') throw badRequest("can't parse BotCommandScope JSON object");
    if (scope.chat_id !== undefined && !findChatOf(scope.chat_id)) throw badRequest('chat not found');
    const language = p.str('language_code') ?? '';
    if (language !== '' && !/^[a-z]{2}$/.test(language)) throw badRequest('invalid language code specified');
    return `${stableJson(scope)}|${language}`;
  };

  const setting = (name: string, key: string) => (p: Params) => {
    world.botSettings.set(`${name}|${p.str('language_code') ?? ''}`, p.str(key) ?? '');
    return true;
  };
  const getting = (name: string, key: string) => (p: Params) => ({
    [key]: world.botSettings.get(`${name}|${p.str('language_code') ?? ''}`) ?? '',
  });

  // ---------------------------------------------------------------- the table

  const methods: Record<string, (p: Params) => unknown> = {
    getMe: () => world.botInfo,
    logOut: () => true,
    close: () => true,

    setWebhook: (p) => {
      const url = p.str('url') ?? '';
      if (p.bool('drop_pending_updates')) world.queue = [];
      if (url === '') {
        world.webhook = undefined;
        return true;
      }
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw badRequest('bad webhook: Failed to resolve host: Name or service not known');
      }
      const loopback = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(parsed.hostname);
      if (parsed.protocol !== 'https:' && !(loopback && parsed.protocol === 'http:'))
        throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
      const secret = p.str('secret_token');
      if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret)) throw badRequest('secret token contains unallowed characters');
      const allowed = p.json('allowed_updates');
      world.endPollers(new BotApiError(409, 'Conflict: terminated by setWebhook request'));
      world.webhook = {
        url,
        secretToken: secret,
        allowedUpdates: Array.isArray(allowed) ? allowed.map(String) : world.webhook?.allowedUpdates,
        maxConnections: p.int('max_connections'),
        delivering: loopback,
        lastErrorDate: undefined,
        lastErrorMessage: undefined,
      };
      return true;
    },
    deleteWebhook: (p) => {
      world.webhook = undefined;
      if (p.bool('drop_pending_updates')) world.queue = [];
      return true;
    },
    getWebhookInfo: () =>
      compact({
        url: world.webhook?.url ?? '',
        has_custom_certificate: false,
        pending_update_count: world.queue.length,
        max_connections: world.webhook?.maxConnections,
        allowed_updates: world.webhook?.allowedUpdates,
        last_error_date: world.webhook?.lastErrorDate,
        last_error_message: world.webhook?.lastErrorMessage,
      }),

    setMyCommands: (p) => {
      const commands = p.json('commands');
      if (!Array.isArray(commands)) throw badRequest("can't parse commands JSON object");
      if (commands.length > 100) throw badRequest('too many commands');
      for (const c of commands as Array<{ command?: unknown; description?: unknown }>) {
        if (typeof c?.command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(c.command)) throw badRequest('BOT_COMMAND_INVALID');
        if (typeof c.description !== 'string' || c.description.length < 1 || c.description.length > 256)
          throw badRequest('command description is empty');
      }
      world.commands.set(
        commandsKey(p),
        commands.map((c: { command: string; description: string }) => ({ command: c.command, description: c.description })),
      );
      return true;
    },
    getMyCommands: (p) => world.commands.get(commandsKey(p)) ?? [],
    deleteMyCommands: (p) => {
      world.commands.delete(commandsKey(p));
      return true;
    },
    setMyDescription: setting('description', 'description'),
    getMyDescription: getting('description', 'description'),
    setMyShortDescription: setting('short_description', 'short_description'),
    getMyShortDescription: getting('short_description', 'short_description'),
    setMyName: setting('name', 'name'),
    getMyName: getting('name', 'name'),
    setChatMenuButton: (p) => {
      const key = p.has('chat_id') ? `menu|${knownChat(p).id}` : 'menu|default';
      world.botSettings.set(key, p.json('menu_button') ?? { type: 'default' });
      return true;
    },
    getChatMenuButton: (p) => {
      const key = p.has('chat_id') ? `menu|${knownChat(p).id}` : 'menu|default';
      return world.botSettings.get(key) ?? world.botSettings.get('menu|default') ?? { type: 'default' };
    },

    sendMessage: (p) => {
      const chat = sendableChat(p);
      return sendMessageLike(chat, p, 'sendMessage', textContent(messageText(p))).message;
    },
    sendPhoto: (p) => {
      const chat = sendableChat(p);
      const file = inputFile(p, 'photo', 'AgAC');
      return sendMessageLike(chat, p, 'sendPhoto', { photo: photoSizes(file), ...captionContent(caption(p)) }).message;
    },
    sendDocument: (p) => {
      const chat = sendableChat(p);
      const file = inputFile(p, 'document', 'BQAC');
      const document = compact({
        file_id: file.fileId,
        file_unique_id: file.fileUniqueId,
        file_name: file.filename,
        mime_type: file.mimeType,
        file_size: file.bytes?.length,
      });
      return sendMessageLike(chat, p, 'sendDocument', { document, ...captionContent(caption(p)) }).message;
    },
    sendVideo: (p) => {
      const chat = sendableChat(p);
      const file = inputFile(p, 'video', 'BAAC');
      const video = compact({
        file_id: file.fileId,
        file_unique_id: file.fileUniqueId,
        width: p.int('width') ?? 1280,
        height: p.int('height') ?? 720,
        duration: p.int('duration') ?? 10,
        file_name: file.filename,
        mime_type: file.mimeType,
        file_size: file.bytes?.length,
      });
      return sendMessageLike(chat, p, 'sendVideo', { video, ...captionContent(caption(p)) }).message;
    },
    copyMessage: (p) => {
      const from = knownChat(p, 'from_chat_id');
      const source = messageIn(from, p, 'message to copy not found');
      const original = source.message;
      if (original.text === undefined && original.photo === undefined && original.document === undefined && original.video === undefined)
        throw badRequest("message can't be copied");
      const chat = sendableChat(p);
      let content: Partial<Message>;
      if (original.text !== undefined) content = { text: original.text, entities: original.entities };
      else {
        const replaced = p.has('caption') ? caption(p) : undefined;
        content = {
          photo: original.photo,
          document: original.document,
          video: original.video,
          ...(p.has('caption') ? captionContent(replaced) : { caption: original.caption, caption_entities: original.caption_entities }),
        };
      }
      return { message_id: sendMessageLike(chat, p, 'copyMessage', content).messageId };
    },
    sendChatAction: (p) => {
      sendableChat(p);
      const action = p.str('action') ?? '';
      if (!chatActions.has(action)) throw badRequest('wrong parameter action in request');
      return true;
    },

    editMessageText: (p) => {
      const { message } = editable(p);
      if (message.message.text === undefined) throw badRequest('there is no text in the message to edit');
      const text = messageText(p);
      return applyEdit(message, {
        ...textContent(text),
        entities: text.entities.length ? text.entities : undefined,
        reply_markup: editMarkup(p),
        link_preview_options: (p.json('link_preview_options') as Message['link_preview_options']) ?? message.message.link_preview_options,
      });
    },
    editMessageCaption: (p) => {
      const { message } = editable(p);
      if (message.message.photo === undefined && message.message.document === undefined)
        throw badRequest('there is no caption in the message to edit');
      const next = caption(p);
      return applyEdit(message, {
        caption: next?.text,
        caption_entities: next?.entities.length ? next.entities : undefined,
        reply_markup: editMarkup(p),
      });
    },
    editMessageReplyMarkup: (p) => {
      const { message } = editable(p);
      return applyEdit(message, { reply_markup: editMarkup(p) });
    },
    deleteMessage: (p) => {
      const chat = knownChat(p);
      const id = p.int('message_id');
      if (id === undefined) throw badRequest('message identifier is not specified');
      deleteOne(chat, chat.messages.get(id));
      return true;
    },
    deleteMessages: (p) => {
      const chat = knownChat(p);
      const ids = p.json('message_ids');
      if (!Array.isArray(ids) || ids.length === 0) throw badRequest('message_ids is empty');
      if (ids.length > 100) throw badRequest('too many message identifiers specified');
      for (const id of ids) {
        try {
          deleteOne(chat, typeof id === 'number' ? chat.messages.get(id) : undefined);
        } catch {
          // Telegram skips messages it cannot find or delete.
        }
      }
      return true;
    },
    setMessageReaction: (p) => {
      const chat = knownChat(p);
      const message = messageIn(chat, p, 'MESSAGE_ID_INVALID');
      const reaction = p.json('reaction') ?? [];
      if (!Array.isArray(reaction)) throw badRequest("can't parse reaction types JSON object");
      message.botReactions = reaction;
      return true;
    },

    answerCallbackQuery: (p) => {
      const id = p.str('callback_query_id') ?? '';
      const entry = world.callbackQueries.get(id);
      if (!entry || entry.answered || now() - entry.at > world.callbackQueryTtlMs) {
        throw badRequest('query is too old and response timeout expired or query ID is invalid');
      }
      const text = p.str('text');
      if (text !== undefined && text.length > 200) throw badRequest('MESSAGE_TOO_LONG');
      entry.answered = true;
      world.callbackAnswers.push({
        callbackQueryId: id,
        query: clone(entry.query),
        text,
        showAlert: p.bool('show_alert'),
        url: p.str('url'),
        cacheTime: p.int('cache_time'),
        at: now(),
      });
      return true;
    },

    getChat: (p) => {
      const chat = knownChat(p);
      return { ...world.chatObject(chat), accent_color_id: 0, max_reaction_count: 11 };
    },
    getChatMember: (p) => {
      const chat = knownChat(p);
      const userId = p.int('user_id');
      if (userId === undefined) throw badRequest('user_id is empty');
      if (userId === world.botUser.id) {
        if (chat.type === 'private')
          return memberObject(world.botUser, world.requireUser(chat.userId ?? chat.id).blocked ? 'kicked' : 'member');
        return memberObject(world.botUser, chat.botStatus);
      }
      const user = world.users.get(userId);
      if (!user) throw badRequest('user not found');
      if (chat.type === 'private') {
        if (chat.userId !== userId) throw badRequest('user not found');
        return memberObject(user.user, 'member');
      }
      return memberObject(user.user, chat.members.get(userId) ?? 'left');
    },
    getChatAdministrators: (p) => {
      const chat = knownChat(p);
      if (chat.type === 'private') throw badRequest('there are no administrators in the private chat');
      const admins = [...chat.members]
        .filter(([, status]) => status === 'creator' || status === 'administrator')
        .map(([id, status]) => memberObject(world.requireUser(id).user, status));
      if (chat.botStatus === 'administrator') admins.push(memberObject(world.botUser, 'administrator'));
      return admins;
    },
    getChatMemberCount: (p) => {
      const chat = knownChat(p);
      if (chat.type === 'private') return 2;
      const people = [...chat.members.values()].filter((s) => s === 'creator' || s === 'administrator' || s === 'member').length;
      return people + (chat.botStatus === 'member' || chat.botStatus === 'administrator' ? 1 : 0);
    },
    leaveChat: (p) => {
      const chat = knownChat(p);
      if (chat.type === 'private') throw badRequest("chat member status can't be changed in private chats");
      if (chat.botStatus !== 'member' && chat.botStatus !== 'administrator')
        throw new BotApiError(403, `Forbidden: bot is not a member of the ${chat.type} chat`);
      const old = memberObject(world.botUser, chat.botStatus);
      chat.botStatus = 'left';
      world.enqueue({
        my_chat_member: {
          chat: world.chatObject(chat),
          from: world.botUser,
          date: Math.floor(now() / 1000),
          old_chat_member: old,
          new_chat_member: memberObject(world.botUser, 'left'),
        },
      });
      return true;
    },
  };

  world.methods = Object.fromEntries(Object.entries(methods).map(([name, handler]) => [name.toLowerCase(), handler]));
}
