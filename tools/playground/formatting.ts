/**
 * Telegram's `parse_mode` handling: turns HTML, MarkdownV2 or legacy Markdown into plain text
 * plus message entities, and rejects malformed markup with Telegram's own
 * `Bad Request: can't parse entities: ...` errors (byte offsets are UTF-8 offsets in the input,
 * entity offsets are UTF-16 code units of the output, as in the Bot API).
 */
import type { MessageEntity } from 'grammy/types';
import { badRequest, type BotApiError } from './params.ts';

export interface FormattedText {
  text: string;
  entities: MessageEntity[];
}

const parseError = (what: string): BotApiError => badRequest(`can't parse entities: ${what}`);

const byteOffset = (source: string, index: number): number => Buffer.byteLength(source.slice(0, index), 'utf8');

/** Sorts like Telegram (by offset, longer first) and drops empty entities. */
function finish(text: string, entities: MessageEntity[]): FormattedText {
  const kept = entities.filter((e) => e.length > 0);
  kept.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, entities: kept };
}

/**
 * Applies `parse_mode` to `text`. Without a parse mode the text is returned unchanged with no
 * entities. Throws a 400 BotApiError for an unknown mode or malformed markup.
 */
export function applyParseMode(text: string, parseMode: string | undefined): FormattedText {
  if (parseMode === undefined || parseMode === '') return { text, entities: [] };
  switch (parseMode.toLowerCase()) {
    case 'html':
      return parseHtml(text);
    case 'markdownv2':
      return parseMarkdownV2(text);
    case 'markdown':
      return parseMarkdown(text);
    default:
      throw badRequest('unsupported parse_mode');
  }
}

// ---------------------------------------------------------------- HTML

interface OpenTag {
  tag: string;
  start: number;
  entity: Omit<MessageEntity, 'offset' | 'length'> | undefined;
}

const htmlTypes: Record<string, MessageEntity['type']> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  'tg-spoiler': 'spoiler',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
};

function decodeHtmlEntity(source: string, index: number): { char: string; length: number } | undefined {
  const match = /^&(lt|gt|amp|quot|#\d{1,7}|#x[0-9a-f]{1,6});/i.exec(source.slice(index, index + 12));
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
  let char = named[name];
  if (char === undefined) {
    const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    if (code > 0x10ffff) return undefined;
    char = String.fromCodePoint(code);
  }
  return { char, length: match[0].length };
}

function parseAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const pattern = /([a-zA-Z_:-][\w:.-]*)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    const raw = match[2] ?? match[3] ?? match[4] ?? '';
    attributes[match[1]!.toLowerCase()] = raw.replace(
      /&(lt|gt|amp|quot);/g,
      (_, n: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"' })[n] ?? '',
    );
  }
  return attributes;
}

/** Telegram's HTML style: a fixed set of tags, `&lt; &gt; &amp; &quot;` and numeric entities. */
export function parseHtml(source: string): FormattedText {
  let text = '';
  const entities: MessageEntity[] = [];
  const stack: OpenTag[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '&') {
      const decoded = decodeHtmlEntity(source, i);
      if (decoded) {
        text += decoded.char;
        i += decoded.length;
        continue;
      }
      text += c;
      i += 1;
      continue;
    }
    if (c !== '<') {
      text += c;
      i += 1;
      continue;
    }
    const close = source.indexOf('>', i);
    if (close === -1) throw parseError(`Unclosed start tag at byte offset ${byteOffset(source, i)}`);
    if (source[i + 1] === '/') {
      const name = source
        .slice(i + 2, close)
        .trim()
        .toLowerCase();
      const top = stack.pop();
      if (!top) throw parseError(`Unexpected end tag at byte offset ${byteOffset(source, i)}`);
      if (top.tag !== name) {
        throw parseError(`Unmatched end tag at byte offset ${byteOffset(source, i)}, expected "</${top.tag}>", found "</${name}>"`);
      }
      if (top.entity) entities.push({ ...top.entity, offset: top.start, length: text.length - top.start } as MessageEntity);
      i = close + 1;
      continue;
    }
    const inner = source.slice(i + 1, close);
    const nameMatch = /^([a-zA-Z][\w-]*)/.exec(inner);
    const name = nameMatch?.[1]?.toLowerCase() ?? '';
    const attributes = parseAttributes(inner.slice(name.length));
    let entity: OpenTag['entity'];
    if (name === 'a') {
      const href = attributes.href ?? '';
      const mention = /^tg:\/\/user\?id=(\d+)$/.exec(href);
      entity = (
        mention
          ? { type: 'text_mention', user: { id: Number(mention[1]), is_bot: false, first_name: '' } }
          : href
            ? { type: 'text_link', url: href }
            : undefined
      ) as OpenTag['entity'];
    } else if (name === 'span') {
      if (attributes.class !== 'tg-spoiler') throw parseError(`Unsupported start tag "span" at byte offset ${byteOffset(source, i)}`);
      entity = { type: 'spoiler' };
    } else if (name === 'tg-emoji') {
      entity = { type: 'custom_emoji', custom_emoji_id: attributes['emoji-id'] ?? '' } as OpenTag['entity'];
    } else if (name === 'code' && stack.at(-1)?.tag === 'pre') {
      // <pre><code class="language-x"> sets the language of the pre block, not a nested entity.
      const language = /^language-(.+)$/.exec(attributes.class ?? '')?.[1];
      const pre = stack.at(-1)!;
      if (language && pre.entity) pre.entity = { ...pre.entity, language } as OpenTag['entity'];
      entity = undefined;
    } else if (name === 'blockquote') {
      entity = { type: 'expandable' in attributes ? 'expandable_blockquote' : 'blockquote' };
    } else if (htmlTypes[name]) {
      entity = { type: htmlTypes[name] };
    } else {
      throw parseError(`Unsupported start tag "${name}" at byte offset ${byteOffset(source, i)}`);
    }
    if (inner.trimEnd().endsWith('/')) throw parseError(`Unsupported start tag "${name}" at byte offset ${byteOffset(source, i)}`);
    stack.push({ tag: name, start: text.length, entity });
    i = close + 1;
  }
  const open = stack.pop();
  if (open) throw parseError(`Can't find end tag corresponding to start tag "${open.tag}"`);
  return finish(text, entities);
}

// ---------------------------------------------------------------- MarkdownV2

const reservedV2 = new Set(['_', '*', '[', ']', '(', ')', '~', '`', '>', '#', '+', '-', '=', '|', '{', '}', '.', '!']);

interface OpenMark {
  type: MessageEntity['type'];
  marker: string;
  start: number;
  byte: number;
}

/** MarkdownV2: every reserved character outside an entity must be escaped with `\`. */
export function parseMarkdownV2(source: string): FormattedText {
  let text = '';
  const entities: MessageEntity[] = [];
  const stack: OpenMark[] = [];
  let quoteStart: number | undefined;
  let i = 0;
  const top = () => stack.at(-1);
  const closeQuote = () => {
    if (quoteStart !== undefined) entities.push({ type: 'blockquote', offset: quoteStart, length: text.length - quoteStart });
    quoteStart = undefined;
  };
  while (i < source.length) {
    const c = source[i]!;
    const atLineStart = i === 0 || source[i - 1] === '\n';
    const inCode = top()?.type === 'code' || top()?.type === 'pre';
    if (c === '\\') {
      const next = source.codePointAt(i + 1);
      if (next === undefined || next > 126 || next < 1) {
        throw parseError(`Character '\\' is reserved and must be escaped with the preceding '\\'`);
      }
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (inCode) {
      const marker = top()!.marker;
      if (source.startsWith(marker, i)) {
        const open = stack.pop() as OpenMark & { language?: string };
        const entity = { type: open.type, offset: open.start, length: text.length - open.start } as MessageEntity;
        if (open.language) (entity as { language?: string }).language = open.language;
        entities.push(entity);
        i += marker.length;
        continue;
      }
      text += c;
      i += 1;
      continue;
    }
    if (c === '\n' && quoteStart !== undefined && source[i + 1] !== '>') {
      closeQuote();
    }
    if (c === '>' && atLineStart) {
      if (quoteStart === undefined) quoteStart = text.length;
      i += 1;
      continue;
    }
    if (c === '`') {
      if (source.startsWith('```', i)) {
        // ```language\n ... ```
        const lineEnd = source.indexOf('\n', i + 3);
        const header = lineEnd === -1 ? '' : source.slice(i + 3, lineEnd);
        const hasLanguage = lineEnd !== -1 && /^[\w+#-]*$/.test(header);
        stack.push({ type: 'pre', marker: '```', start: text.length, byte: byteOffset(source, i) });
        if (hasLanguage && header) (stack.at(-1) as OpenMark & { language?: string }).language = header;
        i = hasLanguage ? lineEnd + 1 : i + 3;
        continue;
      }
      stack.push({ type: 'code', marker: '`', start: text.length, byte: byteOffset(source, i) });
      i += 1;
      continue;
    }
    let marker: string | undefined;
    let type: MessageEntity['type'] | undefined;
    if (c === '*') [marker, type] = ['*', 'bold'];
    else if (c === '_' && source[i + 1] === '_') [marker, type] = ['__', 'underline'];
    else if (c === '_') [marker, type] = ['_', 'italic'];
    else if (c === '~') [marker, type] = ['~', 'strikethrough'];
    else if (c === '|' && source[i + 1] === '|') [marker, type] = ['||', 'spoiler'];
    if (marker && type) {
      const open = top();
      if (open && open.marker === marker) {
        stack.pop();
        entities.push({ type: open.type, offset: open.start, length: text.length - open.start } as MessageEntity);
      } else {
        stack.push({ type, marker, start: text.length, byte: byteOffset(source, i) });
      }
      i += marker.length;
      continue;
    }
    if (c === '[') {
      stack.push({ type: 'text_link', marker: ']', start: text.length, byte: byteOffset(source, i) });
      i += 1;
      continue;
    }
    if (c === ']' && top()?.type === 'text_link') {
      const open = stack.pop()!;
      if (source[i + 1] !== '(') throw parseError(`Can't find end of a URL at byte offset ${byteOffset(source, i + 1)}`);
      let url = '';
      let j = i + 2;
      while (j < source.length && source[j] !== ')') {
        if (source[j] === '\\' && j + 1 < source.length) j += 1;
        url += source[j];
        j += 1;
      }
      if (j >= source.length) throw parseError(`Can't find end of a URL at byte offset ${byteOffset(source, i + 1)}`);
      const mention = /^tg:\/\/user\?id=(\d+)$/.exec(url);
      entities.push(
        mention
          ? {
              type: 'text_mention',
              offset: open.start,
              length: text.length - open.start,
              user: { id: Number(mention[1]), is_bot: false, first_name: '' },
            }
          : { type: 'text_link', offset: open.start, length: text.length - open.start, url },
      );
      i = j + 1;
      continue;
    }
    if (reservedV2.has(c)) {
      throw parseError(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
    }
    text += c;
    i += 1;
  }
  closeQuote();
  const open = stack.pop();
  if (open) {
    const name = open.type === 'text_link' ? 'text URL' : open.type === 'pre' ? 'pre' : open.type;
    throw parseError(`Can't find end of ${name} entity at byte offset ${open.byte}`);
  }
  return finish(text, entities);
}

// ---------------------------------------------------------------- Markdown (legacy)

/** Legacy Markdown: `*bold*`, `_italic_`, `` `code` ``, ```` ```pre``` ````, `[text](url)`; no nesting. */
export function parseMarkdown(source: string): FormattedText {
  let text = '';
  const entities: MessageEntity[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length && '_*`['.includes(source[i + 1]!)) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    const marker = source.startsWith('```', i) ? '```' : '_*`'.includes(c) ? c : c === '[' ? ']' : undefined;
    if (!marker) {
      text += c;
      i += 1;
      continue;
    }
    const from = i + (marker === ']' ? 1 : marker.length);
    const end = source.indexOf(marker, from);
    if (end === -1) throw parseError(`Can't find end of the entity starting at byte offset ${byteOffset(source, i)}`);
    let inner = source.slice(from, end);
    const start = text.length;
    if (marker === ']') {
      if (source[end + 1] !== '(') {
        text += c;
        i += 1;
        continue;
      }
      const urlEnd = source.indexOf(')', end + 2);
      if (urlEnd === -1) throw parseError(`Can't find end of the entity starting at byte offset ${byteOffset(source, i)}`);
      text += inner;
      entities.push({ type: 'text_link', offset: start, length: inner.length, url: source.slice(end + 2, urlEnd) });
      i = urlEnd + 1;
      continue;
    }
    let language: string | undefined;
    if (marker === '```') {
      const newline = inner.indexOf('\n');
      if (newline > 0 && /^[\w+#-]+$/.test(inner.slice(0, newline))) {
        language = inner.slice(0, newline);
        inner = inner.slice(newline + 1);
      }
    }
    text += inner;
    const type: MessageEntity['type'] = marker === '*' ? 'bold' : marker === '_' ? 'italic' : marker === '`' ? 'code' : 'pre';
    entities.push(language ? { type, offset: start, length: inner.length, language } : { type, offset: start, length: inner.length });
    i = end + marker.length;
  }
  return finish(text, entities);
}
