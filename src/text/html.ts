/**
 * HTML is the one parse mode of every message the bot sends. Two halves make that safe:
 * - `htmlParseMode`, an API transformer installed on `bot.api`, on each conversation's Api and on
 *   the outbox's Api, sets `parse_mode: 'HTML'` on every outgoing text or caption that does not
 *   choose its own formatting (a `parse_mode` or entities of its own);
 * - the translate function (src/bot/i18n.ts) HTML-escapes every Fluent variable, so a name,
 *   target or search word a user typed shows literally. A value that is already HTML (a rendered
 *   receipt, a `<code>` part, another translation) or that goes where Telegram shows no HTML (a
 *   button label, a callback answer) is wrapped in `raw(...)` and inserted as is.
 */
import type { Transformer } from 'grammy';
import { escapeHtml } from './format.ts';

/**
 * A Fluent variable inserted as is. Shaped like Fluent's own `FluentType` (value, valueOf,
 * toString), so the translate functions' types accept it; the translate function unwraps it
 * before Fluent sees it.
 */
export class Raw {
  constructor(readonly value: string) {}
  valueOf(): string {
    return this.value;
  }
  toString(): string {
    return this.value;
  }
}

/** Marks `value` to be inserted into a translation unescaped (see the module comment for when). */
export function raw(value: string): Raw {
  return new Raw(value);
}

/** A value a translation accepts: strings are escaped, numbers and dates are left to Fluent, `raw(...)` is inserted as is. */
export type TextVariable = string | number | Date | Raw;

/**
 * The variables of one translation as Fluent should see them: strings HTML-escaped, `raw(...)`
 * unwrapped, everything else (numbers, dates) untouched.
 */
export function escapeVariables<T extends object>(variables: T | undefined): T | undefined {
  if (variables === undefined) return undefined;
  const escaped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(variables) as Array<[string, unknown]>) {
    escaped[name] = value instanceof Raw ? value.value : typeof value === 'string' ? escapeHtml(value) : value;
  }
  return escaped as T;
}

/** Methods that carry formatted text, with the field of that text and of its entities. */
const formattedFields: Readonly<Record<string, { text: string; entities: string }>> = {
  sendMessage: { text: 'text', entities: 'entities' },
  editMessageText: { text: 'text', entities: 'entities' },
  sendPhoto: { text: 'caption', entities: 'caption_entities' },
  sendVideo: { text: 'caption', entities: 'caption_entities' },
  sendAnimation: { text: 'caption', entities: 'caption_entities' },
  sendDocument: { text: 'caption', entities: 'caption_entities' },
  sendAudio: { text: 'caption', entities: 'caption_entities' },
  sendVoice: { text: 'caption', entities: 'caption_entities' },
  editMessageCaption: { text: 'caption', entities: 'caption_entities' },
  copyMessage: { text: 'caption', entities: 'caption_entities' },
};

/** The text message of an inline result, HTML unless it chose its own formatting. */
function htmlInlineResult(result: unknown): unknown {
  const content = (result as { input_message_content?: Record<string, unknown> } | null)?.input_message_content;
  if (content?.message_text === undefined || content.parse_mode !== undefined || content.entities !== undefined) return result;
  return { ...(result as object), input_message_content: { ...content, parse_mode: 'HTML' } };
}

/**
 * API transformer: outgoing texts and captions (and the text messages of inline results) are HTML
 * unless the call chose its own formatting. It only adds a field and never retries, so the outbox
 * accepts it on its Api.
 */
export const htmlParseMode: Transformer = (prev, method, payload, signal) => {
  const fields = formattedFields[method];
  const body = payload as Record<string, unknown> | undefined;
  if (method === 'answerInlineQuery' && body && Array.isArray(body.results)) {
    return prev(method, { ...body, results: body.results.map(htmlInlineResult) } as unknown as typeof payload, signal);
  }
  if (fields && body && body[fields.text] !== undefined && body.parse_mode === undefined && body[fields.entities] === undefined) {
    return prev(method, { ...body, parse_mode: 'HTML' } as typeof payload, signal);
  }
  return prev(method, payload, signal);
};
