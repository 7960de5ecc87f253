/**
 * The browser chat page of the playground: a Telegram-like UI served by the emulator at `/`,
 * plus the small JSON API it uses under `/playground/` (state long polling, create user/group,
 * send, tap, block). Self-contained: no external scripts, styles or fonts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Message, MessageEntity } from 'grammy/types';
import type { InlineMode } from './inline.ts';
import { readBody } from './params.ts';
import type { ChatState, StoredMessage, World } from './world.ts';

/** One message as the page renders it. */
interface MessageView {
  id: number;
  fromBot: boolean;
  fromId: number | undefined;
  fromName: string;
  text: string;
  entities: MessageEntity[];
  buttons: Array<Array<{ text: string; data?: string; url?: string; copy?: string }>>;
  deleted: boolean;
  edited: boolean;
  editCount: number;
  service: string | undefined;
  photo: string | undefined;
  /** A document: its name, and where the page downloads it (the emulator's copy, else its URL). */
  document: { name: string; href: string } | undefined;
  replyTo: { id: number; text: string } | undefined;
  time: string;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
};

const nameOf = (user: { first_name: string; last_name?: string } | undefined): string =>
  user ? [user.first_name, user.last_name].filter(Boolean).join(' ') : '';

function serviceText(message: Message): string | undefined {
  if (message.new_chat_members) return `${nameOf(message.from)} added ${message.new_chat_members.map(nameOf).join(', ')}`;
  if (message.left_chat_member) return `${nameOf(message.from)} removed ${nameOf(message.left_chat_member)}`;
  if (message.migrate_to_chat_id) return `Group upgraded to a supergroup (${message.migrate_to_chat_id})`;
  if (message.migrate_from_chat_id) return `Supergroup created from group ${message.migrate_from_chat_id}`;
  return undefined;
}

function documentView(world: World, fileId: string, fileName: string | undefined): MessageView['document'] {
  const file = world.files.get(fileId);
  const href = file?.bytes ? `/playground/file/${encodeURIComponent(fileId)}` : (file?.url ?? '');
  return { name: fileName ?? 'document', href };
}

function view(world: World, stored: StoredMessage): MessageView {
  const m = stored.message;
  const photo = m.photo?.at(-1);
  return {
    id: stored.messageId,
    fromBot: stored.fromBot,
    fromId: m.from?.id,
    fromName: nameOf(m.from),
    text: m.text ?? m.caption ?? '',
    entities: m.entities ?? m.caption_entities ?? [],
    buttons: (m.reply_markup?.inline_keyboard ?? []).map((row) =>
      row.map((b) => ({
        text: b.text,
        data: 'callback_data' in b ? b.callback_data : undefined,
        url: 'url' in b ? b.url : undefined,
        // copy_text: tapping copies this text (no update reaches the bot).
        copy: 'copy_text' in b ? b.copy_text.text : undefined,
      })),
    ),
    deleted: stored.deleted,
    edited: stored.editedAt !== undefined,
    editCount: stored.history.length,
    service: serviceText(m),
    photo: photo?.file_id,
    document: m.document ? documentView(world, m.document.file_id, m.document.file_name) : undefined,
    replyTo: m.reply_to_message
      ? { id: m.reply_to_message.message_id, text: (m.reply_to_message.text ?? m.reply_to_message.caption ?? '').slice(0, 80) }
      : undefined,
    time: new Date(m.date * 1000).toISOString().slice(11, 16),
  };
}

/** The bot's answer to the user's latest inline query, as the page lists it above the message box. */
function inlineView(inline: InlineMode, userId: number | undefined) {
  const answer = inline.inlineAnswers.findLast((a) => a.query.from.id === userId);
  if (!answer) return undefined;
  return {
    queryId: answer.inlineQueryId,
    query: answer.query.query,
    results: answer.results.map((r) => ({
      id: r.id,
      title: 'title' in r && typeof r.title === 'string' ? r.title : r.id,
      description: 'description' in r && typeof r.description === 'string' ? r.description : '',
    })),
    button: answer.button?.start_parameter === undefined ? undefined : { text: answer.button.text, start: answer.button.start_parameter },
  };
}

function state(world: World, inline: InlineMode, userId: number | undefined, chatId: number | undefined) {
  const users = [...world.users.values()].map((u) => ({
    id: u.user.id,
    name: nameOf(u.user),
    username: u.user.username,
    blocked: u.blocked,
    note: u.note,
  }));
  const visible = (chat: ChatState) =>
    chat.type === 'private'
      ? chat.userId === userId
      : userId !== undefined && ['creator', 'administrator', 'member'].includes(chat.members.get(userId) ?? '');
  const chats = [...world.chats.values()].filter(visible).map((chat) => ({
    id: chat.id,
    type: chat.type,
    title: chat.type === 'private' ? `${world.botInfo.first_name} (@${world.botInfo.username})` : (chat.title ?? ''),
    botStatus: chat.botStatus,
    migratedTo: chat.migratedTo,
  }));
  const chat = chatId === undefined ? undefined : world.chats.get(chatId);
  const shown = chat && visible(chat) ? chat : undefined;
  const answers = world.callbackAnswers
    .map((a, index) => ({ index, userId: a.query.from.id, text: a.text, showAlert: a.showAlert }))
    .filter((a) => a.userId === userId && a.text);
  const calls = world.calls
    .filter((c) => c.method.toLowerCase() !== 'getupdates')
    .slice(-40)
    .map((c) => ({
      method: c.method,
      at: new Date(c.at).toISOString().slice(11, 23),
      ok: c.response.ok,
      status: c.status,
      detail: c.response.ok ? '' : c.response.description,
    }));
  return {
    version: world.version,
    bot: { id: world.botInfo.id, username: world.botInfo.username, name: world.botInfo.first_name },
    users,
    chats,
    chat: shown && {
      id: shown.id,
      type: shown.type,
      replyKeyboard: shown.replyKeyboard,
      messages: [...shown.messages.values()].map((m) => view(world, m)),
    },
    answers,
    calls,
    polling: world.polling,
    pendingUpdates: world.queue.length,
    inline: inlineView(inline, userId),
  };
}

/** `attachment` with the file name, ASCII fallback plus the UTF-8 form (RFC 6266). */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const optionalInt = (value: string | null): number | undefined => (value !== null && /^-?\d+$/.test(value) ? Number(value) : undefined);

/**
 * Serves the chat page (`GET /`) and its JSON API under `/playground/`. Returns false when the
 * path belongs to neither, so the caller can answer 404.
 */
export async function handlePlaygroundRequest(
  world: World,
  inline: InlineMode,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const path = url.pathname;
  if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(pageHtml);
    return true;
  }
  if (!path.startsWith('/playground/')) return false;
  try {
    if (req.method === 'GET' && path === '/playground/state') {
      const since = optionalInt(url.searchParams.get('version'));
      const userId = optionalInt(url.searchParams.get('user'));
      const chatId = optionalInt(url.searchParams.get('chat'));
      if (since !== undefined && since >= world.version && !world.closed) {
        // Long poll: answer at the next change, or after 25 s with the same state.
        await Promise.race([world.nextChange(), new Promise((resolve) => setTimeout(resolve, 25_000).unref())]);
      }
      json(res, 200, state(world, inline, userId, chatId));
      return true;
    }
    if (req.method === 'GET' && path.startsWith('/playground/file/')) {
      const file = world.files.get(decodeURIComponent(path.slice('/playground/file/'.length)));
      if (!file?.bytes) {
        json(res, 404, { error: 'No uploaded file with that id.' });
        return true;
      }
      const png = file.bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      const jpeg = file.bytes[0] === 0xff && file.bytes[1] === 0xd8;
      const image = png || jpeg;
      res.writeHead(200, {
        'Content-Type': png ? 'image/png' : jpeg ? 'image/jpeg' : (file.mimeType ?? 'application/octet-stream'),
        // A document downloads under the name the bot gave it.
        ...(image ? {} : { 'Content-Disposition': contentDisposition(file.filename ?? 'document') }),
      });
      res.end(file.bytes);
      return true;
    }
    if (req.method !== 'POST') {
      json(res, 404, { error: 'Not found' });
      return true;
    }
    const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as Record<string, unknown>;
    const num = (key: string): number => {
      const value = body[key];
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`${key} must be an integer`);
      return value;
    };
    const str = (key: string): string => {
      const value = body[key];
      if (typeof value !== 'string') throw new Error(`${key} must be a string`);
      return value;
    };
    switch (path) {
      case '/playground/users': {
        const username = typeof body.username === 'string' && body.username.trim() ? body.username.trim().replace(/^@/, '') : undefined;
        const language = typeof body.languageCode === 'string' && body.languageCode ? body.languageCode : undefined;
        const user = world.createUser({ firstName: str('firstName').trim(), username, languageCode: language });
        json(res, 200, { id: user.id });
        return true;
      }
      case '/playground/groups': {
        const ids = Array.isArray(body.memberIds) ? body.memberIds.filter((v): v is number => typeof v === 'number') : [];
        const members = ids.map((id) => world.userHandle(id));
        const group = world.createGroup({
          title: str('title').trim(),
          members,
          type: body.type === 'supergroup' ? 'supergroup' : 'group',
          bot: 'none',
        });
        world.addBotToGroup(group, { by: members[0] });
        json(res, 200, { id: group.id });
        return true;
      }
      case '/playground/send': {
        const replyTo = typeof body.replyTo === 'number' ? body.replyTo : undefined;
        const message = world.sendText(num('userId'), str('text'), { chat: num('chatId'), replyTo });
        json(res, 200, { messageId: message.messageId });
        return true;
      }
      case '/playground/photo': {
        const bytes = Buffer.from(str('data'), 'base64');
        const caption = typeof body.caption === 'string' ? body.caption : undefined;
        const replyTo = typeof body.replyTo === 'number' ? body.replyTo : undefined;
        const filename = typeof body.name === 'string' ? body.name : undefined;
        const mimeType = typeof body.mimeType === 'string' ? body.mimeType : undefined;
        const photo = { bytes, width: num('width'), height: num('height'), filename, mimeType };
        const message = world.sendPhoto(num('userId'), photo, { chat: num('chatId'), caption, replyTo });
        json(res, 200, { messageId: message.messageId });
        return true;
      }
      case '/playground/inline': {
        const chat = world.requireChat(num('chatId'));
        const chatType = chat.type === 'private' ? (chat.userId === num('userId') ? 'sender' : 'private') : chat.type;
        const query = inline.sendInlineQuery(num('userId'), str('query'), { chatType });
        json(res, 200, { queryId: query.id });
        return true;
      }
      case '/playground/inline/choose': {
        const answer = inline.inlineAnswers.find((a) => a.inlineQueryId === str('queryId'));
        if (!answer) throw new Error('The bot has not answered that inline query.');
        const message = inline.chooseInlineResult(num('userId'), answer, str('resultId'), { chat: num('chatId') });
        json(res, 200, { messageId: message.messageId });
        return true;
      }
      case '/playground/tap': {
        const query = world.tap(num('userId'), { chatId: num('chatId'), messageId: num('messageId') }, str('button'));
        json(res, 200, { callbackQueryId: query.id });
        return true;
      }
      case '/playground/block': {
        if (body.blocked === true) world.blockBot(num('userId'));
        else world.unblockBot(num('userId'));
        json(res, 200, { ok: true });
        return true;
      }
      case '/playground/migrate': {
        const group = world.migrateGroup(num('chatId'));
        json(res, 200, { id: group.id });
        return true;
      }
      default:
        json(res, 404, { error: 'Not found' });
        return true;
    }
  } catch (error) {
    json(res, 400, { error: error instanceof Error ? error.message : String(error) });
    return true;
  }
}

/** The page itself: one HTML document with inline CSS and JS. */
export const pageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>kiosbot playground</title>
<style>
  :root { --bg: #0e1621; --panel: #17212b; --bubble-in: #182533; --bubble-out: #2b5278; --text: #e9eef3; --muted: #7f91a4; --accent: #5eb5f7; --danger: #e5635b; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--text); height: 100vh; display: grid; grid-template-columns: 290px 1fr; }
  aside { background: var(--panel); padding: 12px; overflow-y: auto; border-right: 1px solid #0b1118; }
  aside h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 16px 0 6px; }
  select, input, button { font: inherit; color: var(--text); background: #242f3d; border: 1px solid #2f3b4a; border-radius: 6px; padding: 6px 8px; }
  button { cursor: pointer; } button:hover { border-color: var(--accent); }
  .row { display: flex; gap: 6px; margin-bottom: 6px; } .row > * { flex: 1; min-width: 0; }
  .chat-item { padding: 8px; border-radius: 6px; cursor: pointer; } .chat-item:hover { background: #202b36; } .chat-item.active { background: #2b5278; }
  .chat-item small { color: var(--muted); display: block; }
  #userSwitch { display: flex; flex-direction: column; gap: 4px; margin-bottom: 6px; }
  #userSwitch button { text-align: left; } #userSwitch button.active { background: #2b5278; border-color: var(--accent); }
  #userSwitch small { color: var(--muted); display: block; }
  main { display: grid; grid-template-rows: auto 1fr auto auto auto; min-height: 0; height: 100vh; }
  header { padding: 10px 16px; background: var(--panel); border-bottom: 1px solid #0b1118; display: flex; justify-content: space-between; align-items: center; }
  header small { color: var(--muted); }
  #messages { overflow-y: auto; padding: 16px; display: flex; flex-direction: column; gap: 6px; }
  .msg { max-width: min(560px, 80%); padding: 6px 10px 4px; border-radius: 10px; background: var(--bubble-in); align-self: flex-start; white-space: pre-wrap; word-wrap: break-word; }
  .msg.mine { background: var(--bubble-out); align-self: flex-end; }
  .msg.deleted { opacity: .45; } .msg.deleted .body { text-decoration: line-through; }
  .msg .who { color: var(--accent); font-weight: 600; font-size: 13px; }
  .msg .meta { color: var(--muted); font-size: 11px; text-align: right; }
  .msg .quote { border-left: 3px solid var(--accent); padding-left: 6px; color: var(--muted); font-size: 12px; margin-bottom: 3px; cursor: pointer; }
  .msg img { max-width: 260px; border-radius: 6px; display: block; margin-bottom: 4px; background: #fff; }
  .service { align-self: center; color: var(--muted); font-size: 12px; background: #1c2733; padding: 2px 10px; border-radius: 10px; }
  .kb { display: flex; flex-direction: column; gap: 4px; margin-top: 6px; } .kb .r { display: flex; gap: 4px; }
  .kb button { flex: 1; background: #20303f; font-size: 13px; }
  code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; background: #0d1520; border-radius: 4px; padding: 0 3px; }
  pre { padding: 6px; margin: 2px 0; }
  .spoiler { background: var(--muted); color: transparent; border-radius: 3px; cursor: pointer; } .spoiler.open { background: none; color: inherit; }
  blockquote { border-left: 3px solid var(--accent); margin: 2px 0; padding-left: 8px; }
  a { color: var(--accent); }
  #replyKb { padding: 6px 16px; display: none; gap: 4px; flex-direction: column; background: var(--panel); }
  #replyKb .r { display: flex; gap: 4px; } #replyKb button { flex: 1; }
  form#composer { display: flex; gap: 8px; padding: 10px 16px; background: var(--panel); border-top: 1px solid #0b1118; align-items: center; }
  form#composer textarea { flex: 1; font: inherit; color: var(--text); background: #242f3d; border: 1px solid #2f3b4a; border-radius: 6px; padding: 6px 8px; resize: none; max-height: 40vh; }
  #replying { color: var(--muted); font-size: 12px; }
  #attach { cursor: pointer; font-size: 18px; } #attach:hover { color: var(--accent); }
  #inline { display: none; padding: 6px 16px; background: var(--panel); border-top: 1px solid #0b1118; max-height: 35vh; overflow-y: auto; }
  #inline .result { padding: 6px 8px; border-radius: 6px; cursor: pointer; } #inline .result:hover { background: #202b36; }
  #inline .result small, #inline .muted { color: var(--muted); display: block; }
  .msg .doc a { font-weight: 600; }
  #toast { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); background: #000c; padding: 8px 14px; border-radius: 8px; display: none; }
  #log { font: 11px/1.3 ui-monospace, Menlo, Consolas, monospace; color: var(--muted); max-height: 260px; overflow-y: auto; }
  #log .err { color: var(--danger); }
  .empty { color: var(--muted); text-align: center; margin-top: 30vh; }
</style>
</head>
<body>
<aside>
  <div id="status" style="color:var(--muted);font-size:12px"></div>
  <h2>You are</h2>
  <div class="row"><select id="user"></select></div>
  <div id="userSwitch" title="Switch to another user: their private chat with the bot"></div>
  <form class="row" id="newUser"><input name="firstName" placeholder="First name" required><input name="username" placeholder="username">
    <select name="languageCode" title="language_code of the user's updates" style="flex:0 0 auto">
    <option value="id" selected>id</option>
    <option value="en">en</option></select><button>+</button></form>
  <div class="row"><button id="block" type="button">Block bot</button></div>
  <h2>Chats</h2>
  <div id="chats"></div>
  <h2>New group (with the bot)</h2>
  <form id="newGroup"><div class="row"><input name="title" placeholder="Group title" required></div>
    <div id="memberPick" style="margin-bottom:6px"></div>
    <div class="row"><select name="type"><option value="group">group</option><option value="supergroup">supergroup</option></select><button>Create</button></div></form>
  <details><summary style="cursor:pointer;color:var(--muted)">Bot API calls</summary><div id="log"></div></details>
</aside>
<main>
  <header><div><b id="title">No chat</b><br><small id="subtitle"></small></div><div id="headerActions"></div></header>
  <div id="messages"><div class="empty">Create a user on the left, then say /start.</div></div>
  <div id="replyKb"></div>
  <div id="inline"></div>
  <form id="composer"><span id="replying"></span><label id="attach" title="Send a photo (the text in the box is its caption)">📎<input type="file" id="photo" accept="image/*" hidden></label><textarea id="text" rows="1" autocomplete="off" placeholder="Message (Enter sends, Shift+Enter: new line; @bot query: inline)"></textarea><button>Send</button></form>
</main>
<div id="toast"></div>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let current = { user: Number(localStorage.getItem("pg-user")) || undefined, chat: undefined };
let version = -1, lastState = null, seenAnswers = new Set(), replyTo = undefined, answersPrimed = false;

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const safeUrl = (u) => /^(https?|tg):\\/\\//i.test(u || "") ? u : "#";

async function post(path, body) {
  const res = await fetch("/playground/" + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) { toast(data.error || "Error", true); throw new Error(data.error); }
  return data;
}
function toast(text, alertBox) {
  if (alertBox) { alert(text); return; }
  const t = $("toast"); t.textContent = text; t.style.display = "block";
  clearTimeout(toast.timer); toast.timer = setTimeout(() => (t.style.display = "none"), 2500);
}

// Renders text with Telegram entities (offsets are UTF-16, like JS strings).
function renderEntities(text, entities) {
  if (!entities || !entities.length) return esc(text);
  const cuts = new Set([0, text.length]);
  for (const e of entities) { cuts.add(e.offset); cuts.add(Math.min(text.length, e.offset + e.length)); }
  const points = [...cuts].sort((a, b) => a - b);
  let html = "";
  for (let i = 0; i < points.length - 1; i++) {
    const a = points[i], b = points[i + 1];
    let part = esc(text.slice(a, b));
    for (const e of entities.filter((e) => e.offset <= a && e.offset + e.length >= b)) {
      switch (e.type) {
        case "bold": part = "<b>" + part + "</b>"; break;
        case "italic": part = "<i>" + part + "</i>"; break;
        case "underline": part = "<u>" + part + "</u>"; break;
        case "strikethrough": part = "<s>" + part + "</s>"; break;
        case "code": part = "<code>" + part + "</code>"; break;
        case "pre": part = "<pre>" + part + "</pre>"; break;
        case "spoiler": part = '<span class="spoiler" onclick="this.classList.add(\\'open\\')">' + part + "</span>"; break;
        case "blockquote": case "expandable_blockquote": part = "<blockquote>" + part + "</blockquote>"; break;
        case "text_link": part = '<a target="_blank" rel="noopener" href="' + esc(safeUrl(e.url)) + '">' + part + "</a>"; break;
        case "url": part = '<a target="_blank" rel="noopener" href="' + esc(safeUrl(text.slice(e.offset, e.offset + e.length))) + '">' + part + "</a>"; break;
        case "bot_command": part = '<a href="#" data-command="' + esc(text.slice(e.offset, e.offset + e.length)) + '">' + part + "</a>"; break;
      }
    }
    html += part;
  }
  return html;
}

function renderMessages(chat) {
  const box = $("messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  if (!chat) { box.innerHTML = '<div class="empty">Pick or create a user, then a chat.</div>'; return; }
  if (!chat.messages.length) { box.innerHTML = '<div class="empty">No messages yet. Say /start.</div>'; }
  else box.innerHTML = chat.messages.map((m) => {
    if (m.service) return '<div class="service">' + esc(m.service) + "</div>";
    const mine = !m.fromBot && m.fromId === current.user;
    const who = chat.type !== "private" && !mine ? '<div class="who">' + esc(m.fromName) + "</div>" : "";
    const quote = m.replyTo ? '<div class="quote">' + esc(m.replyTo.text || "message #" + m.replyTo.id) + "</div>" : "";
    const photo = m.photo ? '<img alt="photo" src="/playground/file/' + encodeURIComponent(m.photo) + '" onerror="this.replaceWith(Object.assign(document.createElement(\\'i\\'),{textContent:\\'[photo from URL]\\'}))">' : "";
    const doc = !m.document ? "" : '<div class="doc">📄 ' + (m.document.href
      ? '<a href="' + esc(m.document.href.startsWith("/playground/") ? m.document.href : safeUrl(m.document.href)) + '" download="' + esc(m.document.name) + '">' + esc(m.document.name) + "</a>"
      : esc(m.document.name)) + "</div>";
    const kb = m.buttons.length && !m.deleted ? '<div class="kb">' + m.buttons.map((row) => '<div class="r">' + row.map((b) =>
      b.url ? '<button type="button" data-url="' + esc(b.url) + '">' + esc(b.text) + " ↗</button>"
      : b.copy !== undefined ? '<button type="button" data-copy="' + esc(b.copy) + '" title="copies the text">' + esc(b.text) + " ⧉</button>"
            : '<button type="button" data-tap="' + m.id + '" data-button="' + esc(b.data !== undefined ? b.data : b.text) + '">' + esc(b.text) + "</button>").join("") + "</div>").join("") + "</div>" : "";
    const meta = [m.deleted ? "deleted" : "", m.edited ? "edited" + (m.editCount > 1 ? " ×" + m.editCount : "") : "", m.time, "#" + m.id].filter(Boolean).join(" · ");
    return '<div class="msg' + (mine ? " mine" : "") + (m.deleted ? " deleted" : "") + '" data-id="' + m.id + '">' + who + quote + photo + doc +
      '<div class="body">' + renderEntities(m.text, m.entities) + "</div>" + kb + '<div class="meta">' + esc(meta) + "</div></div>";
  }).join("");
  if (atBottom || render.first) { box.scrollTop = box.scrollHeight; render.first = false; }
}

function renderReplyKeyboard(chat) {
  const el = $("replyKb");
  const kb = chat && chat.replyKeyboard;
  if (!kb || !kb.keyboard) { el.style.display = "none"; el.innerHTML = ""; return; }
  el.style.display = "flex";
  el.innerHTML = kb.keyboard.map((row) => '<div class="r">' + row.map((b) => {
    const text = typeof b === "string" ? b : b.text;
    return '<button type="button" data-say="' + esc(text) + '">' + esc(text) + "</button>";
  }).join("") + "</div>").join("");
}

function render(s) {
  lastState = s;
  $("status").textContent = "@" + s.bot.username + " · " + (s.polling ? "bot connected" : "bot not polling") + (s.pendingUpdates ? " · " + s.pendingUpdates + " pending" : "");
  const sel = $("user");
  if (current.user !== undefined && !s.users.some((u) => u.id === current.user)) current.user = undefined;
  if (current.user === undefined && s.users.length) current.user = s.users[0].id;
  sel.innerHTML = s.users.map((u) => '<option value="' + u.id + '"' + (u.id === current.user ? " selected" : "") + ">" + esc(u.name) + (u.username ? " @" + esc(u.username) : "") + (u.note ? " · " + esc(u.note) : "") + " · " + u.id + "</option>").join("");
  // With two users or more, one button each: switching is one tap (the demo's upline and downline).
  $("userSwitch").innerHTML = s.users.length < 2 ? "" : s.users.map((u) => '<button type="button" data-user="' + u.id + '"' + (u.id === current.user ? ' class="active"' : "") + ">" +
    (u.id === current.user ? "● " : "") + '<span class="name">' + esc(u.name) + "</span>" + (u.note ? "<small>" + esc(u.note) + "</small>" : "") + "</button>").join("");
  const me = s.users.find((u) => u.id === current.user);
  $("block").textContent = me && me.blocked ? "Unblock bot" : "Block bot";
  $("memberPick").innerHTML = s.users.map((u) => '<label style="display:block"><input type="checkbox" value="' + u.id + '"' + (u.id === current.user ? " checked" : "") + "> " + esc(u.name) + "</label>").join("");
  if (current.chat === undefined || !s.chats.some((c) => c.id === current.chat)) current.chat = current.user;
  $("chats").innerHTML = s.chats.map((c) => '<div class="chat-item' + (c.id === current.chat ? " active" : "") + '" data-chat="' + c.id + '">' + esc(c.title) +
    "<small>" + c.type + " · " + c.id + (c.migratedTo ? " · migrated" : "") + (c.type !== "private" ? " · bot " + c.botStatus : "") + "</small></div>").join("");
  const chatInfo = s.chats.find((c) => c.id === current.chat);
  $("title").textContent = chatInfo ? chatInfo.title : "No chat";
  $("subtitle").textContent = chatInfo ? chatInfo.type + " " + chatInfo.id + (me ? " · you are " + me.name + (me.note ? " (" + me.note + ")" : "") : "") : "";
  $("headerActions").innerHTML = chatInfo && chatInfo.type === "group" && !chatInfo.migratedTo ? '<button type="button" id="migrate">Upgrade to supergroup</button>' : "";
  renderMessages(s.chat);
  renderReplyKeyboard(s.chat);
  renderInline();
  for (const a of s.answers) {
    if (seenAnswers.has(a.index)) continue;
    seenAnswers.add(a.index);
    if (answersPrimed) toast(a.text, a.showAlert);
  }
  answersPrimed = true;
  $("log").innerHTML = s.calls.slice().reverse().map((c) => '<div class="' + (c.ok ? "" : "err") + '">' + c.at + " " + esc(c.method) + (c.ok ? "" : " → " + c.status + " " + esc(c.detail)) + "</div>").join("");
}
render.first = true;

const selection = () => new URLSearchParams({ user: String(current.user ?? ""), chat: String(current.chat ?? "") }).toString();

// Long-polls the state: the server answers at the next change (or after 25 s).
async function poll() {
  for (;;) {
    const key = selection();
    try {
      const res = await fetch("/playground/state?" + key + "&version=" + version);
      const s = await res.json();
      if (key !== selection()) { version = -1; continue; } // selection changed meanwhile
      version = s.version;
      render(s);
      // The first answer picks the user and chat to show (none were chosen yet): ask again for
      // that chat at once rather than waiting for the next change.
      if (key !== selection()) version = -1;
    } catch { await new Promise((r) => setTimeout(r, 1000)); }
  }
}
function refresh() { version = -1; fetch("/playground/state?" + selection()).then((r) => r.json()).then(render); }

async function say(text) {
  if (current.user === undefined) { toast("Create a user first", true); return; }
  await post("send", { userId: current.user, chatId: current.chat, text, replyTo });
  replyTo = undefined; $("replying").textContent = "";
}

$("composer").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $("text"); const text = input.value;
  if (!text.trim()) return;
  input.value = ""; grow(input);
  try { await say(text); } catch { input.value = text; grow(input); }
});
// --- message box: Enter sends, Shift+Enter adds a line; the box grows with its text ---
function grow(box) { box.style.height = "auto"; box.style.height = box.scrollHeight + "px"; }
$("text").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("composer").requestSubmit(); }
});
$("text").addEventListener("input", (e) => grow(e.target));
// --- the view follows the end of the chat while the reader is there, also when a photo loads and grows it ---
let stick = true;
$("messages").addEventListener("scroll", () => { const b = $("messages"); stick = b.scrollHeight - b.scrollTop - b.clientHeight < 40; });
$("messages").addEventListener("load", (e) => { if (e.target.tagName === "IMG" && stick) $("messages").scrollTop = $("messages").scrollHeight; }, true);
// --- photos: the picked image goes out as the user's photo, the text in the box as its caption ---
const readBase64 = (file) => new Promise((resolve, reject) => {
  const reader = new FileReader();
  reader.onload = () => resolve(String(reader.result).split(",")[1] || "");
  reader.onerror = () => reject(reader.error);
  reader.readAsDataURL(file);
});
$("photo").addEventListener("change", async (e) => {
  const file = e.target.files && e.target.files[0];
  e.target.value = "";
  if (!file) return;
  if (current.user === undefined) { toast("Create a user first", true); return; }
  let size;
  try { const bitmap = await createImageBitmap(file); size = { width: bitmap.width, height: bitmap.height }; bitmap.close(); }
  catch { toast(file.name + " is not an image this browser can show; pick a JPEG or PNG.", true); return; }
  const box = $("text");
  await post("photo", { userId: current.user, chatId: current.chat, data: await readBase64(file), name: file.name, mimeType: file.type, ...size, caption: box.value, replyTo });
  box.value = ""; grow(box); replyTo = undefined; $("replying").textContent = "";
});
// --- inline mode: "@bot query" in the message box asks the bot (an inline_query) and lists its answer ---
let inlineAsked = null; // { queryId, text } of the query the box holds
function inlineQueryOf(text) {
  const m = /^@(\\w+) ([\\s\\S]*)$/.exec(text);
  return m && lastState && m[1].toLowerCase() === lastState.bot.username.toLowerCase() ? m[2] : null;
}
async function askInline() {
  const text = $("text").value, query = inlineQueryOf(text);
  if (query === null || current.user === undefined) { inlineAsked = null; renderInline(); return; }
  if (inlineAsked && inlineAsked.text === text) return;
  const { queryId } = await post("inline", { userId: current.user, chatId: current.chat, query });
  if ($("text").value === text) { inlineAsked = { queryId, text }; renderInline(); }
}
$("text").addEventListener("input", () => { clearTimeout(askInline.timer); askInline.timer = setTimeout(askInline, 300); });
function renderInline() {
  const el = $("inline");
  if (!inlineAsked || inlineQueryOf($("text").value) === null) { inlineAsked = null; el.style.display = "none"; el.innerHTML = ""; return; }
  el.style.display = "block";
  const a = lastState && lastState.inline;
  if (!a || a.queryId !== inlineAsked.queryId) { el.innerHTML = '<div class="muted">Waiting for @' + esc(lastState.bot.username) + "…</div>"; return; }
  const button = a.button ? '<button type="button" data-inline-start="' + esc(a.button.start) + '">' + esc(a.button.text) + "</button>" : "";
  const results = a.results.map((r) => '<div class="result" data-result="' + esc(r.id) + '"><b>' + esc(r.title) + "</b><small>" + esc(r.description) + "</small></div>").join("");
  el.innerHTML = button + (results || (button ? "" : '<div class="muted">No results</div>'));
}
function endInline() { const box = $("text"); box.value = ""; grow(box); inlineAsked = null; renderInline(); }
async function chooseInline(resultId) {
  await post("inline/choose", { userId: current.user, chatId: current.chat, queryId: inlineAsked.queryId, resultId });
  endInline();
}
// The button above inline results opens the private chat with the bot as /start <parameter>.
async function startFromInline(parameter) {
  current.chat = current.user; render.first = true; endInline(); refresh();
  await say("/start " + parameter);
}
// --- copy_text buttons: copy their text to the clipboard ---
async function copyText(text) {
  try { await navigator.clipboard.writeText(text); }
  catch {
    const area = Object.assign(document.createElement("textarea"), { value: text });
    document.body.append(area); area.select(); document.execCommand("copy"); area.remove();
  }
  toast("Copied: " + text);
}
$("newUser").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target;
  const { id } = await post("users", { firstName: f.firstName.value, username: f.username.value, languageCode: f.languageCode.value });
  f.firstName.value = ""; f.username.value = ""; current.user = id; current.chat = id; localStorage.setItem("pg-user", String(id)); render.first = true; refresh();
});
$("newGroup").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target;
  const memberIds = [...$("memberPick").querySelectorAll("input:checked")].map((i) => Number(i.value));
  if (current.user !== undefined && !memberIds.includes(current.user)) memberIds.unshift(current.user);
  const { id } = await post("groups", { title: f.title.value, type: f.type.value, memberIds });
  f.reset(); current.chat = id; render.first = true; refresh();
});
function switchUser(id) { current.user = id; current.chat = id; localStorage.setItem("pg-user", String(id)); render.first = true; refresh(); }
$("user").addEventListener("change", (e) => switchUser(Number(e.target.value)));
$("block").addEventListener("click", () => { const me = lastState && lastState.users.find((u) => u.id === current.user); if (me) post("block", { userId: me.id, blocked: !me.blocked }); });
document.addEventListener("click", (e) => {
  const t = e.target.closest("[data-user],[data-chat],[data-tap],[data-url],[data-copy],[data-say],[data-command],[data-result],[data-inline-start],#migrate,.quote,.msg");
  if (!t) return;
  if (t.dataset.user) switchUser(Number(t.dataset.user));
  else if (t.dataset.result !== undefined) chooseInline(t.dataset.result);
  else if (t.dataset.inlineStart !== undefined) startFromInline(t.dataset.inlineStart);
  else if (t.dataset.chat) { current.chat = Number(t.dataset.chat); render.first = true; refresh(); }
  else if (t.dataset.tap) post("tap", { userId: current.user, chatId: current.chat, messageId: Number(t.dataset.tap), button: t.dataset.button });
  else if (t.dataset.copy !== undefined) copyText(t.dataset.copy);
  else if (t.dataset.url) { if (confirm("Open " + t.dataset.url + " ?")) window.open(safeUrl(t.dataset.url), "_blank", "noopener"); }
  else if (t.dataset.say) say(t.dataset.say);
  else if (t.dataset.command) { e.preventDefault(); say(t.dataset.command); }
  else if (t.id === "migrate") post("migrate", { chatId: current.chat }).then(({ id }) => { current.chat = id; refresh(); });
  else if (t.classList.contains("msg") && e.detail === 2) { replyTo = Number(t.dataset.id); $("replying").textContent = "↩ #" + replyTo; $("text").focus(); }
});
poll();
</script>
</body>
</html>
`;
