/**
 * Reading Bot API parameters the way Telegram accepts them: query string, JSON body,
 * application/x-www-form-urlencoded or multipart/form-data (grammY's uploads). Values that
 * Telegram expects as JSON (reply_markup, entities, ...) are parsed when sent as strings, and
 * integer/boolean fields sent as form strings are coerced, so recorded params look the same
 * whichever encoding the client chose.
 */
import type { IncomingMessage } from 'node:http';

/** A file part of a multipart request. */
export interface UploadedFile {
  /** Form field name the bytes arrived under. */
  field: string;
  filename: string | undefined;
  contentType: string | undefined;
  bytes: Buffer;
}

/** A Bot API error as Telegram answers it; thrown by method handlers. */
export class BotApiError extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly parameters?: { migrate_to_chat_id?: number; retry_after?: number },
  ) {
    super(description);
    this.name = 'BotApiError';
  }
}

/** Shorthand for the most common error. */
export const badRequest = (what: string): BotApiError => new BotApiError(400, `Bad Request: ${what}`);

/** Fields Telegram expects to be JSON-serialized objects or arrays when not sent as JSON. */
const jsonFields = new Set([
  'reply_markup',
  'entities',
  'caption_entities',
  'reply_parameters',
  'link_preview_options',
  'allowed_updates',
  'commands',
  'scope',
  'menu_button',
  'message_ids',
  'reaction',
  'media',
  'results',
  'permissions',
  'rights',
  'button',
]);

/** Integer fields; chat ids may also be `@username` strings and stay strings then. */
const intFields = new Set([
  'chat_id',
  'from_chat_id',
  'message_id',
  'user_id',
  'offset',
  'limit',
  'timeout',
  'reply_to_message_id',
  'message_thread_id',
  'cache_time',
  'max_connections',
  'until_date',
]);

const boolFields = new Set([
  'disable_notification',
  'protect_content',
  'allow_paid_broadcast',
  'allow_sending_without_reply',
  'disable_web_page_preview',
  'show_alert',
  'drop_pending_updates',
  'is_big',
  'show_caption_above_media',
  'has_spoiler',
  'for_channels',
  'remove_caption',
  'is_personal',
]);

/** Largest body the emulator reads (Telegram allows 50 MB uploads). */
const maxBodyBytes = 60 * 1024 * 1024;

/** Reads the whole request body; rejects with a 413 BotApiError when it is too large. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new BotApiError(413, 'Request Entity Too Large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Turns query string plus body into one params object (body wins) and the uploaded files.
 * Throws a 400 BotApiError for a body that cannot be read in its declared encoding.
 */
export function parseParams(
  contentTypeHeader: string | undefined,
  body: Buffer,
  query: URLSearchParams,
): { params: Record<string, unknown>; files: Map<string, UploadedFile> } {
  const params: Record<string, unknown> = Object.fromEntries(query);
  const files = new Map<string, UploadedFile>();
  const contentType = (contentTypeHeader ?? '').split(';')[0]!.trim().toLowerCase();
  if (body.length > 0) {
    if (contentType === 'application/json') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        throw badRequest("can't parse JSON encoded request parameters");
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw badRequest('JSON request parameters must be an object');
      }
      Object.assign(params, parsed);
    } else if (contentType === 'application/x-www-form-urlencoded') {
      Object.assign(params, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
    } else if (contentType === 'multipart/form-data') {
      const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentTypeHeader ?? '');
      const value = boundary?.[1] ?? boundary?.[2];
      if (!value) throw badRequest('multipart/form-data without boundary');
      for (const part of parseMultipart(body, value.trim())) {
        if (part.filename !== undefined) files.set(part.field, part);
        else params[part.field] = part.bytes.toString('utf8');
      }
    }
  }
  return { params: normalizeParams(params), files };
}

/** Parses JSON-valued fields given as strings and coerces integer/boolean form strings. */
export function normalizeParams(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'string' && jsonFields.has(key)) {
      const trimmed = value.trim();
      if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
        try {
          out[key] = JSON.parse(trimmed);
          continue;
        } catch {
          throw badRequest(`can't parse ${key} JSON object`);
        }
      }
    }
    if (typeof value === 'string' && intFields.has(key) && /^-?\d+$/.test(value.trim())) {
      out[key] = Number(value.trim());
      continue;
    }
    if (typeof value === 'string' && boolFields.has(key) && /^(true|false|1|0)$/i.test(value.trim())) {
      out[key] = /^(true|1)$/i.test(value.trim());
      continue;
    }
    out[key] = value;
  }
  return out;
}

/**
 * A tolerant multipart/form-data reader: grammY writes `content-disposition:form-data;name="x"`
 * without spaces and unquoted file names, browsers and curl write the usual form.
 */
export function parseMultipart(body: Buffer, boundary: string): UploadedFile[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: UploadedFile[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    let cursor = start + delimiter.length;
    if (body.subarray(cursor, cursor + 2).toString() === '--') break; // closing delimiter
    if (body.subarray(cursor, cursor + 2).toString() === '\r\n') cursor += 2;
    const next = body.indexOf(delimiter, cursor);
    if (next === -1) break;
    // The part ends with CRLF before the next delimiter.
    let end = next;
    if (body[end - 2] === 0x0d && body[end - 1] === 0x0a) end -= 2;
    const part = body.subarray(cursor, end);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('utf8').split('\r\n');
      let field: string | undefined;
      let filename: string | undefined;
      let contentType: string | undefined;
      for (const line of headers) {
        const colon = line.indexOf(':');
        if (colon === -1) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'content-disposition') {
          field = /(?:^|;)\s*name=(?:"([^"]*)"|([^;]*))/i
            .exec(value)
            ?.slice(1)
            .find((v) => v !== undefined);
          const file = /(?:^|;)\s*filename=(?:"([^"]*)"|([^;]*))/i.exec(value);
          if (file) filename = (file[1] ?? file[2] ?? '').trim();
        } else if (name === 'content-type') {
          contentType = value;
        }
      }
      if (field !== undefined) parts.push({ field: field.trim(), filename, contentType, bytes: Buffer.from(part.subarray(headerEnd + 4)) });
    }
    start = next;
  }
  return parts;
}

/** Typed access to a call's params; every accessor throws Telegram's 400 for a wrong type. */
export class Params {
  constructor(
    readonly raw: Record<string, unknown>,
    readonly files: Map<string, UploadedFile> = new Map(),
  ) {}

  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  /** A string param; numbers are accepted and turned into strings, as Telegram does. */
  str(key: string): string | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw badRequest(`field "${key}" must be of type String`);
  }

  int(key: string): number | undefined {
    const value = this.raw[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
    throw badRequest(`field "${key}" must be of type Integer`);
  }

  bool(key: string): boolean {
    const value = this.raw[key];
    if (value === undefined || value === null) return false;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 1 || value === '1') return true;
    if (value === 'false' || value === 0 || value === '0') return false;
    throw badRequest(`field "${key}" must be of type Boolean`);
  }

  /** A JSON-valued param (already parsed by normalizeParams when sent as a string). */
  json(key: string): unknown {
    const value = this.raw[key];
    if (typeof value === 'string') {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        throw badRequest(`can't parse ${key} JSON object`);
      }
    }
    return value ?? undefined;
  }

  /** `chat_id`-like param: an integer id or an `@username`; throws `chat_id is empty` if absent. */
  chatId(key = 'chat_id'): number | string {
    const value = this.raw[key];
    if (value === undefined || value === null || value === '') throw badRequest(`${key} is empty`);
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (/^-?\d+$/.test(trimmed)) return Number(trimmed);
      if (/^@\w{4,}$/.test(trimmed)) return trimmed;
    }
    throw badRequest('chat not found');
  }
}
